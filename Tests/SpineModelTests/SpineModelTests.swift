import Foundation
import OnnxRuntime
import PPOCR
import ShelfImage
import ShelfModels
import ShelfScanTestSupport
import SpineDetection
import SpineModel
import TextCue
import Testing

/// The shipped spine model on the ONNX Runtime that `scripts/setup.sh` fetches.
@Suite("Spine model")
struct SpineModelTests {
    static let runtime: OnnxRuntime? = (try? PPOCRModels.inDirectory(PPOCRModels.defaultDirectory()))
        .flatMap { try? OnnxRuntime.load(libraryPath: $0.runtimeLibrary) }
    static let missing: Comment = "the ONNX Runtime library is fetched by scripts/setup.sh (scripts/fetch-models.py)"

    @Test("The shipped model loads and its hash is checked")
    func loadsShipped() throws {
        let runtime = try #require(Self.runtime, Self.missing)
        let model = try SpineModel(runtime: runtime)
        #expect(model.manifest.model == "spine-v1.onnx")
        #expect(model.manifest.sha256.count == 64)
    }

    @Test("A model file that is not the one shipped is refused with one line naming it")
    func wrongFileRefused() throws {
        let runtime = try #require(Self.runtime, Self.missing)
        let shipped = try SpineModel(runtime: runtime).manifest
        let path = try ScratchDirectory.make("spine-model").appendingPathComponent("spine-v1.onnx").path
        // The shipped bytes with one byte changed: a damaged copy.
        var bytes = try Data(contentsOf: try #require(ShelfModels.url("spine-v1.onnx", in: "spine")))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: SpineModelError.self) { try SpineModel(runtime: runtime, modelPath: path, manifest: shipped) }
        let line = try #require(error?.description)
        #expect(line.contains(path) && line.contains("SHA-256") && line.contains("--detector classic"))
        #expect(!line.contains("\n"))
        // A file that is not there at all.
        #expect(throws: SpineModelError.self) { try SpineModel(runtime: runtime, modelPath: path + ".gone", manifest: shipped) }
    }
}

/// The fused detector (the scan's default) on a drawn shelf from samples/: one row with a flat stack of three
/// books, leaning books and a bookend, with a box standing in front of one book so that only its top half shows.
@Suite("Fused detection")
struct FusedDetectionTests {
    struct Truth: Decodable {
        struct Spine: Decodable { var polygon: [[Double]]; var lying: Bool; var partial: Bool; var title: String }
        var width: Double
        var height: Double
        var spines: [Spine]
    }

    /// samples/shelf-12.jpg reduced as a scan reduces it, with "Oliver Twist" hidden below 60% of its height,
    /// and every spine's outline in normalized coordinates (the hidden one cut to what shows).
    static func scene() throws -> (image: RGBImage, truth: [(points: [Point], lying: Bool, title: String)]) {
        let bytes = try FileBytes.contents(of: "samples/shelf-12.jpg")
        var image = try DetectionInput.decode(bytes, info: ImageDecoder.info(bytes))
        let t = try JSONDecoder().decode(Truth.self, from: Data(contentsOf: URL(fileURLWithPath: "samples/shelf-12.json")))
        var truth: [(points: [Point], lying: Bool, title: String)] = []
        for s in t.spines where !s.partial {
            var p = s.polygon.map { Point(x: $0[0] / t.width, y: $0[1] / t.height) }
            if s.title == "Oliver Twist" {
                let top = p.map(\.y).min()!, bottom = p.map(\.y).max()!
                let cut = top + 0.6 * (bottom - top)
                // A plain box standing in front, from the cut down to the board, a little wider than the book.
                let x0 = Int((p.map(\.x).min()! - 0.01) * Double(image.width)), x1 = Int((p.map(\.x).max()! + 0.01) * Double(image.width))
                for y in Int(cut * Double(image.height))..<min(image.height, Int(bottom * Double(image.height))) {
                    for x in max(0, x0)..<min(image.width, x1) {
                        image.pixels[3 * (y * image.width + x)] = 90; image.pixels[3 * (y * image.width + x) + 1] = 110
                        image.pixels[3 * (y * image.width + x) + 2] = 140
                    }
                }
                p = p.map { Point(x: $0.x, y: min($0.y, cut)) }
            }
            truth.append((p, s.lying, s.title))
        }
        return (image, truth)
    }

    static func found(_ r: DetectionResult, _ truth: [(points: [Point], lying: Bool, title: String)]) -> [String] {
        let pairs = DetectionScore.matches(detections: r.spines.map(\.quad.points), truth: truth.map(\.points))
        return pairs.filter { truth[$0.truth].lying == r.spines[$0.detection].lying }.map { truth[$0.truth].title }
    }

    @Test("The flat stack and the half-hidden book are found, on the photo as taken and taken sideways")
    func lyingStackHalfHiddenAndSideways() throws {
        let runtime = try #require(SpineModelTests.runtime, SpineModelTests.missing)
        let fused = FusedDetection(model: try SpineModel(runtime: runtime))
        let cue = TextCue.fromModelCache()
        let classic = SpineDetector()
        func detect(_ image: RGBImage) -> DetectionResult {
            fused.detect(image) { upright, _ in classic.detect(upright, text: cue?.evidence(upright)) }
        }
        let (image, truth) = try Self.scene()
        let upright = detect(image)
        #expect(upright.quarterTurns == nil)
        let seen = Self.found(upright, truth)
        for title in ["Hamlet", "The Wonderful Wizard of Oz", "Agnes Grey", "Oliver Twist"] {
            #expect(seen.contains(title), "\(title) not found: \(seen)")
        }
        #expect(seen.count >= truth.count - 1)

        // The same photo from a phone held sideways (turned a quarter counter-clockwise, no EXIF turn): the
        // detector turns it back and finds the same books, their quads in the sideways photo's coordinates.
        let sideways = image.rotated(.counterClockwise90)
        let turnedTruth = truth.map { ($0.points.map { SpineLayout.uprightPoint(fromPhoto: $0, turns: 3) }, $0.lying, $0.title) }
        let turned = detect(sideways)
        #expect(turned.quarterTurns == 1)
        let seenSideways = Self.found(turned, turnedTruth)
        #expect(seenSideways.count >= seen.count - 1, "sideways found \(seenSideways), upright \(seen)")
        #expect(seenSideways.contains("Agnes Grey"))
        // The classic detector alone finds next to nothing on the sideways photo: what the turn is for.
        #expect(Self.found(classic.detect(sideways, text: cue?.evidence(sideways)), turnedTruth).count < seen.count / 2)
    }
}
