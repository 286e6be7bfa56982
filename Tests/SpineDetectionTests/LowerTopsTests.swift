import Foundation
import Testing
import ShelfImage
@testable import SpineDetection

/// A row of three books on a board, 640 px wide (the detector's working size, so boxes are in image pixels): two
/// tall ones and, between them, a short one (150 px) whose box is drawn up to the row's top, as the row's top
/// search leaves it when both its sides run on up as its neighbours'.
private struct ShortBookShelf {
    var shelf = DrawnShelf(width: 640, height: 420)
    /// The short book as drawn, and its box reaching up to the row's top.
    let book: Quad, tooTall: Quad
    let band = RowFinder.Band(top: 60, bottom: 379)

    init(printedBandsAbove: Bool = false) {
        shelf.board(y: 380, thickness: 40)
        shelf.standing(from: 200, floorY: 380, widths: [50, 44, 50], heights: [320, 150])
        book = shelf.spines[1]
        tooTall = Quad(topLeft: Point(x: book.topLeft.x, y: 60), topRight: Point(x: book.topRight.x, y: 60),
                       bottomRight: book.bottomRight, bottomLeft: book.bottomLeft)
        if printedBandsAbove {
            // Over the wall above the short book, thin dark strokes as print leaves: what is above its "top" is busy.
            for y in stride(from: 70.0, to: 220, by: 6) { shelf.rect(book.topLeft.x + 6, y, 32, 2, (30, 30, 35)) }
        }
    }

    var maps: EdgeMaps { SpineDetector().workingMaps(shelf.image).0 }
    var found: RowSpines.Found { RowSpines.Found(quad: tooTall, confidence: 0.5, lying: false) }
}

@Suite struct LowerTopsTests {
    let p = DetectorParameters.bundled

    @Test func aShortBooksBoxReachingIntoTheWallGetsATwinAtItsOwnTop() throws {
        let f = ShortBookShelf()
        let coverage = try #require(p.lowerTopMinCoverage), texture = try #require(p.lowerTopMaxTextureAbove)
        let twin = try #require(LowerTops.twin(f.maps, f.found, f.band, lines: [], minCoverage: coverage, maxTextureAbove: texture))
        let top = min(twin.quad.topLeft.y, twin.quad.topRight.y)
        #expect(abs(top - f.book.topLeft.y) <= 3, "twin's top \(top), the book's \(f.book.topLeft.y)")
        #expect(PolygonIoU.iou(twin.quad, f.book) > 0.9)
        #expect(PolygonIoU.iou(f.tooTall, f.book) < 0.5, "the first box alone would miss the book")
        // Only the top moves: the sides and the foot stay.
        #expect(twin.quad.bottomLeft == f.tooTall.bottomLeft && twin.quad.bottomRight == f.tooTall.bottomRight)
        #expect(!twin.lying)
    }

    @Test func printAboveTheLowerEdgeKeepsTheBoxAsItIs() throws {
        let f = ShortBookShelf()
        let coverage = try #require(p.lowerTopMinCoverage), texture = try #require(p.lowerTopMaxTextureAbove)
        // A text line inside the box starting well above the short book's top: the book would go on up there.
        let x0 = f.book.topLeft.x + 10, x1 = f.book.topRight.x - 10
        let title = [Point(x: x0, y: 150), Point(x: x1, y: 150), Point(x: x1, y: 300), Point(x: x0, y: 300)]
        #expect(LowerTops.twin(f.maps, f.found, f.band, lines: [title], minCoverage: coverage, maxTextureAbove: texture) == nil)
        // A line wholly below the book's top (its own title) does not.
        let own = [Point(x: x0, y: 260), Point(x: x1, y: 260), Point(x: x1, y: 340), Point(x: x0, y: 340)]
        #expect(LowerTops.twin(f.maps, f.found, f.band, lines: [own], minCoverage: coverage, maxTextureAbove: texture) != nil)
    }

    @Test func aBusyStretchAboveTheEdgeIsNoWall() throws {
        let f = ShortBookShelf(printedBandsAbove: true)
        let coverage = try #require(p.lowerTopMinCoverage), texture = try #require(p.lowerTopMaxTextureAbove)
        #expect(LowerTops.twin(f.maps, f.found, f.band, lines: [], minCoverage: coverage, maxTextureAbove: texture) == nil)
        // It is the texture that says so: the book's top edge is as clear as on the bare wall.
        #expect(LowerTops.twin(f.maps, f.found, f.band, lines: [], minCoverage: coverage, maxTextureAbove: .infinity) != nil)
        // Lying boxes have no top to lower.
        var lying = f.found
        lying.lying = true
        #expect(LowerTops.twin(ShortBookShelf().maps, lying, f.band, lines: [], minCoverage: coverage, maxTextureAbove: texture) == nil)
    }

    @Test func aDroppedBoxOverAShortStackIsCutIntoItsLyingBooks() throws {
        var shelf = DrawnShelf(width: 640, height: 420)
        shelf.board(y: 380, thickness: 40)
        shelf.standing(from: 100, floorY: 380, widths: [50, 44], heights: [320, 300])
        shelf.standing(from: 330, floorY: 380, widths: [48, 52], heights: [310, 320], colourOffset: 2)
        // Three books lying one on another between them, 120 px long, 30 px thick, a dark seam under each.
        let colours: [(UInt8, UInt8, UInt8)] = [(180, 40, 40), (40, 120, 60), (60, 60, 160)]
        var books: [Quad] = []
        for (k, c) in colours.enumerated() {
            let y = 380 - Double(k + 1) * 30
            shelf.rect(200, y, 120, 30, c)
            shelf.rect(200, y + 28, 120, 2, (15, 15, 15))
            books.append(Quad(topLeft: Point(x: 200, y: y), topRight: Point(x: 320, y: y),
                              bottomRight: Point(x: 320, y: y + 30), bottomLeft: Point(x: 200, y: y + 30)))
        }
        let maps = SpineDetector().workingMaps(shelf.image).0
        let band = RowFinder.Band(top: 60, bottom: 379)
        let box = RowSpines.Found(quad: Quad(topLeft: Point(x: 198, y: 60), topRight: Point(x: 322, y: 60),
                                             bottomRight: Point(x: 322, y: 380), bottomLeft: Point(x: 198, y: 380)),
                                  confidence: 0.2, lying: false)
        let cut = LowerTops.stack(maps, box, band, p)
        #expect(cut.count >= 2, "boxes \(cut.map(\.quad))")
        #expect(cut.allSatisfy { $0.lying })
        let matched = books.filter { book in cut.contains { PolygonIoU.iou($0.quad, book) > 0.5 } }
        #expect(matched.count >= 2, "matched \(matched.count) of 3")
        // A box over plain wall cuts into nothing.
        let wall = RowSpines.Found(quad: Quad(topLeft: Point(x: 420, y: 60), topRight: Point(x: 560, y: 60),
                                              bottomRight: Point(x: 560, y: 380), bottomLeft: Point(x: 420, y: 380)),
                                   confidence: 0.2, lying: false)
        #expect(LowerTops.stack(maps, wall, band, p).isEmpty)
    }
}
