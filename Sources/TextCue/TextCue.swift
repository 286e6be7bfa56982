import Foundation
import OnnxRuntime
import PPOCR
import ShelfImage
import SpineDetection

/// PP-OCR's text detector run once over the whole (reduced) photo, as evidence for the spine detector:
/// where there is print, and which way its lines run.
///
/// It uses the same pinned detector model as the reader, so any machine that can read spines offline
/// has it; without the model cache (`scripts/setup.sh` not run) detection goes on without the cue.
public final class TextCue: Sendable {
    public let detector: TextDetector

    /// The network's input size when the detector's parameters name none. The spine detector works at 640 px,
    /// and at that size the text detector still finds the titles of 1%-wide spines while costing tens of
    /// milliseconds on one core.
    public static let defaultLongSide = 640

    /// On a session of its own that keeps its memory between runs: the cue's input has one shape per photo
    /// orientation, so the kept arena stays at one run's size and saves the allocations of every run. Beside a
    /// reader that allocates per run, that kept memory is held on top of the reader's (see PhotoScanner.open).
    public convenience init(models: PPOCRModels, longSide: Int? = nil) throws(OnnxRuntimeError) {
        let runtime = try OnnxRuntime.load(libraryPath: models.runtimeLibrary)
        self.init(session: try OnnxSession(runtime: runtime, modelPath: models.detector, memory: .reused), longSide: longSide)
    }

    /// On a detector session already loaded, such as the PP-OCR reader's: both run the same model file, so one
    /// session serves both and the process holds the model once (sessions take concurrent runs; only the input
    /// size differs). A process that reads no crops does better with `init(models:)`.
    /// `longSide`: the network's input size (nil: `defaultLongSide`), as the detector's parameters name it.
    public init(session: OnnxSession, longSide: Int? = nil) {
        var options = TextDetector.Options()
        options.maxSide = longSide ?? Self.defaultLongSide
        options.minShortSide = 0
        detector = TextDetector(session: session, options: options)
    }

    /// From the default model cache (`SHELFSCAN_MODELS_DIR`, else the user's cache directory), or nil
    /// when its files are not there.
    public static func fromModelCache(_ directory: URL? = nil,
                                      environment: [String: String] = ProcessInfo.processInfo.environment,
                                      longSide: Int? = nil) -> TextCue? {
        let dir = directory ?? PPOCRModels.defaultDirectory(environment: environment)
        guard let models = try? PPOCRModels.inDirectory(dir),
              FileManager.default.fileExists(atPath: models.detector),
              FileManager.default.fileExists(atPath: models.runtimeLibrary) else { return nil }
        return try? TextCue(models: models, longSide: longSide)
    }

    /// The evidence for `image` (the upright photo at any size), or nil when inference failed: a bad
    /// run costs the cue, never the scan.
    public func evidence(_ image: RGBImage) -> TextEvidence? {
        guard let (lines, map) = try? detector.detectWithMap(image), let map else { return nil }
        let w = Double(image.width), h = Double(image.height)
        func norm(_ p: Point) -> Point { Point(x: p.x / w, y: p.y / h) }
        let normalized = lines.map { line in
            let q = line.rect.quad
            return TextLine(quad: Quad(topLeft: norm(q.topLeft), topRight: norm(q.topRight),
                                       bottomRight: norm(q.bottomRight), bottomLeft: norm(q.bottomLeft)),
                            score: line.score)
        }
        return TextEvidence(width: map.width, height: map.height, probability: map.values, lines: normalized)
    }
}
