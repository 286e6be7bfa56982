import Foundation
import OnnxRuntime
import PPOCR
import ShelfImage
import ShelfScanTestSupport
import SpineDetection
import Testing
import TextCue

/// The text cue on the real PP-OCR detector that `scripts/setup.sh` fetches.
@Suite("Text cue")
struct TextCueTests {
    static let cue = TextCue.fromModelCache()
    static let missing: Comment = "the ONNX Runtime library and PP-OCR models are fetched by scripts/setup.sh (scripts/fetch-models.py)"

    /// A photo-sized scene: one spine with a printed title standing on a plain wall, the title running down it.
    static func scene() -> (image: RGBImage, spine: Quad, wall: Quad) {
        let spine = BitmapText.standingSpine(BitmapText.render("GREAT EXPECTATIONS", scale: 4, paper: (200, 60, 50)))
        var image = RGBImage(width: 900, height: spine.height + 80, fill: (150, 150, 145))
        let left = 300, top = 40
        for y in 0..<spine.height {
            for x in 0..<spine.width {
                for c in 0..<3 { image.pixels[3 * ((y + top) * image.width + x + left) + c] = spine.pixels[3 * (y * spine.width + x) + c] }
            }
        }
        let W = Double(image.width), H = Double(image.height)
        func quad(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> Quad {
            Quad(topLeft: Point(x: Double(x0) / W, y: Double(y0) / H), topRight: Point(x: Double(x1) / W, y: Double(y0) / H),
                 bottomRight: Point(x: Double(x1) / W, y: Double(y1) / H), bottomLeft: Point(x: Double(x0) / W, y: Double(y1) / H))
        }
        return (image, quad(left, top, left + spine.width, top + spine.height), quad(600, top, 600 + spine.width, top + spine.height))
    }

    @Test("Print on a spine is found along its axis; a plain wall of the same size has none")
    func printOnTheSpineNotTheWall() throws {
        let cue = try #require(Self.cue, Self.missing)
        let (image, spine, wall) = Self.scene()
        let evidence = try #require(cue.evidence(image))
        // The map spans the whole photo at the cue's long side.
        #expect(max(evidence.width, evidence.height) == 640)
        #expect(evidence.probability.count == evidence.width * evidence.height)
        #expect(evidence.printedFraction(inside: spine) > 0.1, "printed \(evidence.printedFraction(inside: spine))")
        #expect(evidence.printedFraction(inside: wall) < 0.01)
        // The title is one vertical line inside the spine.
        let line = try #require(evidence.lines.first)
        let xs = line.quad.points.map(\.x), ys = line.quad.points.map(\.y)
        #expect(ys.max()! - ys.min()! > 3 * (xs.max()! - xs.min()!) * Double(image.width) / Double(image.height))
        let spineXs = spine.points.map(\.x)
        #expect(xs.min()! >= spineXs.min()! - 0.02 && xs.max()! <= spineXs.max()! + 0.02)
    }

    @Test("On a session shared with a crop detector, the cue finds what it finds on a session of its own, runs interleaved")
    func sharedSession() async throws {
        let own = try #require(Self.cue, Self.missing)
        let models = try PPOCRModels.inDirectory(PPOCRModels.defaultDirectory())
        let session = try OnnxSession(runtime: try OnnxRuntime.load(libraryPath: models.runtimeLibrary), modelPath: models.detector)
        let crops = TextDetector(session: session)  // the reader's options: spine crops up to 960 px
        let cue = TextCue(session: session)
        #expect(cue.detector.session === crops.session)

        let (image, _, _) = Self.scene()
        let expected = try #require(own.evidence(image))
        let spine = BitmapText.render("BLEAK HOUSE", scale: 3)  // a spine as the reader turns it: text left to right
        let expectedLines = try crops.detect(spine)
        #expect(!expectedLines.isEmpty)
        // Whole-photo and crop runs at once on the one session, as a server's scan jobs and reader make them.
        let (cueRuns, cropRuns) = await withTaskGroup(of: (TextEvidence?, [DetectedLine]?).self) { group in
            for i in 0..<6 {
                group.addTask { i.isMultiple(of: 2) ? (cue.evidence(image), nil) : (nil, try? crops.detect(spine)) }
            }
            var cueRuns: [TextEvidence?] = [], cropRuns: [[DetectedLine]?] = []
            for await (e, l) in group {
                if let e { cueRuns.append(e) }
                if let l { cropRuns.append(l) }
            }
            return (cueRuns, cropRuns)
        }
        #expect(cueRuns.count == 3 && cropRuns.count == 3)
        for e in cueRuns { #expect(e == expected) }
        for l in cropRuns { #expect(l == expectedLines) }
    }

    @Test("A photo too small to hold text gives an empty answer, not an error")
    func tinyPhoto() throws {
        let cue = try #require(Self.cue, Self.missing)
        #expect(cue.evidence(RGBImage(width: 2, height: 2, fill: (0, 0, 0))) == nil)
    }
}
