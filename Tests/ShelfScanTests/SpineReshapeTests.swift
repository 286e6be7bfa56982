import BookModel
import ShelfImage
import Testing
@testable import ShelfScan

/// Splits and joins as the review cuts them, on boxes as the detector gives them: a lying book's quad and crop
/// are turned upright like a standing one's, so a cut falls between the books of a lying stack.
@Suite struct SpineReshapeTests {
    /// A two-book stack lying across x 0.2-0.8 of the photo, y 0.4-0.6: the upper book 0.4-0.5, the lower
    /// 0.5-0.6. Turned upright, its top-left corner is the box's bottom-left in the photo.
    static let stack = [[0.2, 0.6], [0.2, 0.4], [0.8, 0.4], [0.8, 0.6]]

    static func work(polygon: [[Double]], lying: Bool, title: String = Work.unreadTitle) -> Work {
        var work = Work(title: title)
        work.boundingBox = BoundingBox(enclosing: polygon)
        work.spine = SpineProvenance(photoContentHash: "h", lying: lying, polygon: polygon)
        return work
    }

    /// A crop as the pipeline stores it for the stack: standing, its two books side by side (the lower one,
    /// dark, on the left; the upper one, light, on the right), 4% margin each side.
    static func standingCrop() throws -> RGBImage {
        var crop = RGBImage(width: 108, height: 400, fill: (40, 40, 40))
        for y in 0..<400 { for x in 54..<108 { for k in 0..<3 { crop.pixels[(y * 108 + x) * 3 + k] = 220 } } }
        return crop
    }

    @Test func aLyingStackIsCutBetweenItsBooks() throws {
        let pieces = try SpineReshape.split(Self.work(polygon: Self.stack, lying: true), crop: Self.standingCrop(), at: 0.5)
        #expect(pieces.count == 2)
        // Each piece spans the stack's whole length (x 0.2-0.8) and one book's thickness: the lower book first.
        let boxes = pieces.map(\.boundingBox)
        for box in boxes { #expect(abs(box.x - 0.2) < 1e-9 && abs(box.width - 0.6) < 1e-9 && abs(box.height - 0.1) < 1e-9) }
        #expect(abs(boxes[0].y - 0.5) < 1e-9 && abs(boxes[1].y - 0.4) < 1e-9)
        // The crops are the two books: the dark one, then the light one, each the stack's full length.
        let crops = try pieces.map { try ImageDecoder.decode($0.cropJPEG) }
        #expect(crops.map(\.height) == [400, 400])
        #expect(crops[0].pixels[(200 * crops[0].width + crops[0].width / 2) * 3] < 80)
        #expect(crops[1].pixels[(200 * crops[1].width + crops[1].width / 2) * 3] > 180)
    }

    @Test func twoBooksOfALyingStackJoinIntoTheStack() throws {
        let upper = Self.work(polygon: [[0.2, 0.5], [0.2, 0.4], [0.8, 0.4], [0.8, 0.5]], lying: true, title: "Upper")
        let lower = Self.work(polygon: [[0.2, 0.6], [0.2, 0.5], [0.8, 0.5], [0.8, 0.6]], lying: true)
        let dark = RGBImage(width: 50, height: 400, fill: (40, 40, 40)), light = RGBImage(width: 50, height: 400, fill: (220, 220, 220))
        // In shelf order (the upper book first), as the review joins them.
        let piece = try SpineReshape.join(upper, lower, crops: (light, dark))
        #expect(piece.polygon == Self.stack)
        #expect(piece.title == "Upper")
        let crop = try ImageDecoder.decode(piece.cropJPEG)
        #expect(crop.width == 100 && crop.height == 400)
        #expect(crop.pixels[(200 * 100 + 25) * 3] < 80 && crop.pixels[(200 * 100 + 75) * 3] > 180)
        // Standing books join left to right, whichever is named first.
        let left = Self.work(polygon: [[0.1, 0.1], [0.2, 0.1], [0.2, 0.9], [0.1, 0.9]], lying: false)
        let right = Self.work(polygon: [[0.2, 0.1], [0.3, 0.1], [0.3, 0.9], [0.2, 0.9]], lying: false)
        let joined = try SpineReshape.join(right, left, crops: (light, dark))
        #expect(joined.polygon == [[0.1, 0.1], [0.3, 0.1], [0.3, 0.9], [0.1, 0.9]])
    }

    @Test func aLyingBoxWithoutItsPolygonIsTurnedAsTheDetectorTurnsIt() throws {
        var work = Self.work(polygon: [], lying: true)
        work.boundingBox = BoundingBox(x: 0.25, y: 0.5, width: 0.5, height: 0.25)
        #expect(SpineReshape.quad(work) == [[0.25, 0.75], [0.25, 0.5], [0.75, 0.5], [0.75, 0.75]])
        work.spine?.lying = false
        #expect(SpineReshape.quad(work) == [[0.25, 0.5], [0.75, 0.5], [0.75, 0.75], [0.25, 0.75]])
    }
}
