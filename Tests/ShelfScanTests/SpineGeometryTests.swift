import ShelfImage
import ShelfScanTestSupport
import Testing
@testable import ShelfScan

struct SpineGeometryTests {
    @Test func normalizedQuadMapsToPixelsAndWidensAcrossTheSpine() {
        let quad = Quad(topLeft: Point(x: 0.25, y: 0.1), topRight: Point(x: 0.5, y: 0.1),
                        bottomRight: Point(x: 0.5, y: 0.9), bottomLeft: Point(x: 0.25, y: 0.9))
        let plain = SpineGeometry.pixelQuad(quad, width: 400, height: 200)
        #expect(plain.topLeft == Point(x: 100, y: 20))
        #expect(plain.bottomRight == Point(x: 200, y: 180))
        let widened = SpineGeometry.pixelQuad(quad, width: 400, height: 200, margin: 0.1)
        #expect(widened.topLeft == Point(x: 90, y: 20))
        #expect(widened.topRight == Point(x: 210, y: 20))
        // Clamped to the image: a spine at the photo's edge never samples outside it.
        let edge = Quad(topLeft: Point(x: 0, y: 0), topRight: Point(x: 0.1, y: 0), bottomRight: Point(x: 0.1, y: 1), bottomLeft: Point(x: 0, y: 1))
        #expect(SpineGeometry.pixelQuad(edge, width: 400, height: 200, margin: 0.5).topLeft.x == 0)
    }
}
