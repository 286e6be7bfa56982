@testable import PPOCR
import ShelfImage
import Testing

/// DB post-processing turns whatever map the network answers with into lines that are finite and inside
/// the map: the text cue runs on every scan, so a degenerate map must cost lines, never the process.
@Suite struct PostprocessRobustnessTests {
    static func lines(_ w: Int, _ h: Int, _ value: (Int, Int) -> Float) -> [DetectedLine] {
        var map = [Float](repeating: 0, count: max(0, w * h))
        for y in 0..<max(0, h) { for x in 0..<max(0, w) { map[y * w + x] = value(x, y) } }
        return TextDetector.postprocess(map, width: w, height: h, options: .init())
    }

    static func expectFinite(_ lines: [DetectedLine], within w: Double, _ h: Double) {
        for line in lines {
            #expect(line.score.isFinite && (0...1).contains(line.score))
            for p in line.rect.quad.points {
                #expect(p.x.isFinite && p.y.isFinite)
                // Unclipping grows a line a few pixels past the map at most.
                #expect(p.x > -w && p.x < 2 * w && p.y > -h && p.y < 2 * h, "\(p)")
            }
        }
    }

    @Test func degenerateMapsGiveNoLinesOrFiniteOnes() {
        #expect(Self.lines(64, 32, { x, y in x == 10 && y == 10 ? 1 : 0 }).isEmpty, "a single pixel is no line")
        #expect(Self.lines(64, 32, { _, _ in .nan }).isEmpty)
        #expect(Self.lines(64, 32, { _, _ in 0 }).isEmpty)
        #expect(Self.lines(1, 1, { _, _ in 1 }).isEmpty)
        let full = Self.lines(64, 32, { _, _ in 1 })
        #expect(full.count == 1, "the whole map is one region")
        Self.expectFinite(full, within: 64, 32)
        let inf = Self.lines(64, 32, { x, _ in x < 40 ? .infinity : -.infinity })
        Self.expectFinite(inf, within: 64, 32)
        for line in Self.lines(96, 64, { x, y in (x / 7 + y / 5) % 2 == 0 ? 0.95 : 0.1 }) {
            Self.expectFinite([line], within: 96, 64)
        }
        // A map shorter than its stated size, or of no size, holds no lines.
        #expect(TextDetector.postprocess([1, 1, 1], width: 32, height: 32, options: .init()).isEmpty)
        #expect(TextDetector.postprocess([], width: 0, height: 0, options: .init()).isEmpty)
        #expect(TextDetector.postprocess([], width: -3, height: 5, options: .init()).isEmpty)
        var options = TextDetector.Options()
        options.maxCandidates = -1
        #expect(TextDetector.postprocess([Float](repeating: 1, count: 64 * 32), width: 64, height: 32, options: options).isEmpty)
    }

    @Test func scalingBackNeverProducesNonFiniteLines() {
        let good = DetectedLine(rect: RotatedRect(center: Point(x: 16, y: 8), axis: Point(x: 1, y: 0), halfLength: 10, halfThickness: 3), score: 0.9)
        let zeroAxis = DetectedLine(rect: RotatedRect(center: Point(x: 16, y: 8), axis: Point(x: 0, y: 0), halfLength: 10, halfThickness: 3), score: 0.9)
        let nanAxis = DetectedLine(rect: RotatedRect(center: Point(x: 16, y: 8), axis: Point(x: .nan, y: 0), halfLength: 10, halfThickness: 3), score: 0.9)
        let back = TextDetector.scaledBack([good, zeroAxis, nanAxis], width: 32, height: 16, toWidth: 64, height: 64)
        #expect(back.count == 1)
        #expect(back.first?.rect.center == Point(x: 32, y: 32))
        #expect(back.first?.rect.halfLength == 20)
        #expect(TextDetector.scaledBack([good], width: 0, height: 16, toWidth: 64, height: 64).isEmpty)
        #expect(TextDetector.scaledBack([good], width: 32, height: 16, toWidth: 0, height: 64).isEmpty)
    }
}
