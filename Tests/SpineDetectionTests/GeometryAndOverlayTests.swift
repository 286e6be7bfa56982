import Testing
import ShelfImage
@testable import SpineDetection

@Suite struct GeometryAndOverlayTests {
    let square = [Point(x: 0, y: 0), Point(x: 2, y: 0), Point(x: 2, y: 2), Point(x: 0, y: 2)]

    @Test func iouOfOverlappingSquares() {
        let shifted = square.map { Point(x: $0.x + 1, y: $0.y) }
        #expect(abs(PolygonIoU.iou(square, shifted) - 2.0 / 6.0) < 1e-9)
        #expect(abs(PolygonIoU.iou(square, square) - 1) < 1e-9)
        #expect(PolygonIoU.iou(square, square.map { Point(x: $0.x + 5, y: $0.y) }) == 0)
    }

    @Test func iouIgnoresWindingAndHandlesTilt() {
        let diamond = [Point(x: 1, y: -1), Point(x: 3, y: 1), Point(x: 1, y: 3), Point(x: -1, y: 1)]
        // Diamond area 8, square area 4 fully inside it: IoU 4/8.
        #expect(abs(PolygonIoU.iou(square, diamond) - 0.5) < 1e-9)
        #expect(abs(PolygonIoU.iou(square.reversed(), diamond) - 0.5) < 1e-9)
    }

    @Test func matchingIsOneToOneAndHonoursDontCare() {
        let a = square, b = square.map { Point(x: $0.x + 10, y: $0.y) }, c = square.map { Point(x: $0.x + 20, y: $0.y) }
        // Two detections on one truth: one hit, one false positive. One on a don't-care: nothing.
        let s = DetectionScore.score(detections: [a, a, c], truth: [(a, false), (b, false), (c, true)])
        #expect(s.hits == 1 && s.falsePositives == 1 && s.misses == 1)
        #expect(abs(s.f1 - 0.5) < 1e-9)
    }

    @Test func overlayDrawsOnlyWhereTheQuadsAre() {
        let img = RGBImage(width: 200, height: 100, fill: (r: 255, g: 255, b: 255))
        let q = Quad(topLeft: Point(x: 0.1, y: 0.1), topRight: Point(x: 0.3, y: 0.1),
                     bottomRight: Point(x: 0.3, y: 0.9), bottomLeft: Point(x: 0.1, y: 0.9))
        let r = DetectionResult(rows: [ShelfRow(index: 0, top: 0.1, bottom: 0.9)],
                                spines: [DetectedSpine(quad: q, row: 0, position: 0, confidence: 1, lying: false)])
        let o = Overlay.render(img, r)
        #expect(o.width == 200 && o.height == 100)
        func px(_ x: Int, _ y: Int) -> [UInt8] { Array(o.pixels[(y * 200 + x) * 3..<(y * 200 + x) * 3 + 3]) }
        #expect(px(20, 50) != [255, 255, 255])      // left edge of the quad
        #expect(px(150, 50) == [255, 255, 255])     // far from every mark
        // The number "1" sits at the centre on a dark plate.
        let centre = (35...45).flatMap { x in (45...55).map { y in px(x, y) } }
        #expect(centre.contains([0, 0, 0]))
    }
}
