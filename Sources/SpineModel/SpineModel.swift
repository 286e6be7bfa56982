import Crypto
import Foundation
import OnnxRuntime
import PPOCR
import ShelfImage
import ShelfModels
import SpineDetection

/// What `models/spine/<name>.json` records about a trained spine model: its file, the hash it must have, and
/// how its map is read. Written by scripts/spine-model/train.py's caller when the model is committed.
public struct SpineModelManifest: Codable, Sendable, Equatable {
    /// The ONNX file beside the manifest.
    public var model: String
    /// SHA-256 of that file, hex: a file that differs (a bad checkout, a partial copy) is refused, not run.
    public var sha256: String
    /// Long side of the network's input, pixels.
    public var longSide: Int
    /// Map value above which a pixel is a book's middle band.
    public var threshold: Float
    /// Mean map value a band needs to count as a book.
    public var boxThreshold: Double
    /// Share of a band's thickness it grows by on each side to cover its book (training shrank each book to its
    /// middle 36%: (1 - 0.36) / 2 / 0.36 = 0.89).
    public var growth: Double
    /// Logistic calibration of confidence from the band's mean map value: 1 / (1 + exp(-(a + b * score))). v1's
    /// (-4, 8) is set by hand, not fitted: it only ranks boxes for the turn, and eval-detection's calibration lines
    /// show it weak on real photos (`--detector learned`).
    public var calibration: [Double]
    /// How the model's books join the classic detector's (`FusedDetection`); nil: its defaults.
    public var fusion: Fusion?

    public struct Fusion: Codable, Sendable, Equatable {
        /// Confidence from which the model's books join the classic detector's where it has none; nil: never.
        public var addConfidence: Double?
        public var addStanding: Bool
    }
}

/// Why the learned spine detector cannot run: one line a person can act on.
public struct SpineModelError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    static func missing(_ what: String) -> SpineModelError {
        SpineModelError(description: "The spine model \(what) is not there: reinstall ShelfScan, or use --detector classic.")
    }
    static func hashMismatch(_ path: String, expected: String, found: String) -> SpineModelError {
        SpineModelError(description: "The spine model \(path) is damaged or not the one shipped (SHA-256 \(found.prefix(12))…, expected \(expected.prefix(12))…): reinstall ShelfScan, or use --detector classic.")
    }
    static func unusable(_ why: String) -> SpineModelError {
        SpineModelError(description: "The spine model cannot be used: \(why)")
    }
}

/// The learned spine detector: PP-OCRv5's text detector fine-tuned on drawn shelves and a licensed real photo to
/// mark the middle band of every book seen spine-on or lying face up (scripts/spine-model/train.py). Each band is
/// grown back to its book, and `SpineLayout` turns the books into rows, reading order and upright quads.
///
/// It finds what the classic detector's row model cannot see: books lying across a row or in front of it, books
/// half hidden behind them, leaning books, and photos taken sideways.
public final class SpineModel: Sendable {
    public static let defaultName = "spine-v1"

    public let manifest: SpineModelManifest
    let detector: TextDetector

    /// The model `models/spine/<name>.onnx` as shipped, checked against its manifest's SHA-256, on `runtime`.
    public convenience init(runtime: OnnxRuntime, name: String = SpineModel.defaultName) throws(SpineModelError) {
        guard let manifestURL = ShelfModels.url("\(name).json", in: "spine") else { throw .missing("models/spine/\(name).json") }
        let manifest: SpineModelManifest
        do {
            manifest = try JSONDecoder().decode(SpineModelManifest.self, from: Data(contentsOf: manifestURL))
        } catch {
            throw .unusable("models/spine/\(name).json does not parse (\(error))")
        }
        let modelURL = manifestURL.deletingLastPathComponent().appendingPathComponent(manifest.model)
        try self.init(runtime: runtime, modelPath: modelURL.path, manifest: manifest)
    }

    /// The model at `modelPath`, which must hash to `manifest.sha256`.
    public init(runtime: OnnxRuntime, modelPath: String, manifest: SpineModelManifest) throws(SpineModelError) {
        guard let data = FileManager.default.contents(atPath: modelPath) else { throw .missing(modelPath) }
        let found = SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
        guard found == manifest.sha256.lowercased() else {
            throw .hashMismatch(modelPath, expected: manifest.sha256, found: found)
        }
        let session: OnnxSession
        do {
            // As shipped: the folding rewrite is tuned to PP-OCR's Paddle export and would write beside the
            // app's resources. Memory per run: with ONNX Runtime's arena kept between runs, `bench-serve --reader
            // none` (20 jobs at once, 2 running) peaked at 568 MB, per run at 401 MB; a one-photo scan holds 228 MB
            // either way.
            session = try OnnxSession(runtime: runtime, modelPath: modelPath, memory: .perRun, form: .asShipped)
        } catch {
            throw .unusable(error.message)
        }
        var options = TextDetector.Options()
        options.maxSide = manifest.longSide
        options.minShortSide = 0
        options.threshold = manifest.threshold
        options.boxThreshold = manifest.boxThreshold
        options.thicknessGrowth = manifest.growth
        options.maxCandidates = 1000
        self.manifest = manifest
        detector = TextDetector(session: session, options: options)
    }

    /// The books in `image` (the upright photo at any size), in rows and reading order; a failed run finds none.
    public func detect(_ image: RGBImage) -> DetectionResult {
        let boxes = found(image)
        let w = Double(image.width), h = Double(image.height)
        let turns = SpineLayout.quarterTurns(boxes, width: w, height: h) ?? 0
        return SpineLayout.arrange(boxes, width: w, height: h, turns: turns)
    }

    /// Every book outline the network marks, in `image`'s pixels, with calibrated confidence.
    public func found(_ image: RGBImage) -> [FoundBox] {
        guard let lines = try? detector.detect(image) else { return [] }
        let a = manifest.calibration.first ?? 0, b = manifest.calibration.count > 1 ? manifest.calibration[1] : 1
        return lines.map { line in
            let r = line.rect
            return FoundBox(center: r.center, axis: r.axis, halfLength: r.halfLength, halfThickness: r.halfThickness,
                            score: 1 / (1 + exp(-(a + b * line.score))))
        }
    }
}
