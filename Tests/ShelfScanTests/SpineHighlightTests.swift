import Foundation
import Library
import LibraryCore
import ShelfImage
import ShelfScan
import ShelfScanTestSupport
import Testing

@Suite struct SpineHighlightTests {
    @Test func aLargePhotoIsShrunkToTwoThousandPixelsWithTheSpineOutlined() throws {
        // Given a 4100x1000 grey photo and a spine box in its middle
        let dir = try ScratchDirectory.make("highlight")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("wide.jpg").path
        try Data(try RGBImage(width: 4100, height: 1000, fill: (128, 128, 128)).jpegData(quality: 80)).write(to: URL(fileURLWithPath: path))
        let place = ShelfPlace(photoNumber: 1, photoPath: path, photoContentHash: "h", shelf: 1, fromLeft: 1, lying: false,
                               polygon: [[0.5, 0.2], [0.55, 0.2], [0.55, 0.8], [0.5, 0.8]], boundingBox: nil)

        // When it is highlighted
        let image = try SpineHighlight.image(place)

        // Then the long side is 2000 px, the outline sits on the box edge, and the grey elsewhere is untouched
        #expect(image.width == 2000 && (487...488).contains(image.height))
        let edge = (244 * 2000 + 1000) * 3, away = (244 * 2000 + 300) * 3
        #expect(image.pixels[edge] > 200 && image.pixels[edge + 2] < 80)
        #expect(abs(Int(image.pixels[away]) - 128) < 8)
    }

    @Test func aPhotoThatMovedNamesItsPath() {
        let place = ShelfPlace(photoNumber: 2, photoPath: "/nowhere/shelf.jpg", photoContentHash: "h", shelf: 1, fromLeft: 1,
                               lying: false, polygon: [], boundingBox: nil)
        #expect { try SpineHighlight.image(place) } throws: { "\($0)".contains("/nowhere/shelf.jpg") }
        #expect(SpineHighlight.Format(fileName: "a.JPEG") == .jpeg && SpineHighlight.Format(fileName: "b.png") == .png)
        #expect(SpineHighlight.Format(fileName: "c.gif") == nil)
    }
}
