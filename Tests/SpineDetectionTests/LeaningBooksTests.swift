import Foundation
import Testing
import ShelfImage
@testable import SpineDetection

/// A row of upright books with an empty stretch of board in it, where one book leans far over (25 degrees) on
/// its foot's corner, a title printed along it; the same stretch with print-like stripes across the wall and no
/// book.
private struct LeaningShelf {
    var shelf = DrawnShelf(width: 640, height: 420)
    var book: Quad?

    init(leaning: Bool) {
        shelf.board(y: 380, thickness: 40)
        shelf.standing(from: 20, floorY: 380, widths: [44, 52, 40, 60, 48], heights: [300, 290, 310])
        shelf.standing(from: 430, floorY: 380, widths: [46, 50, 42, 58], heights: [295, 305], colourOffset: 3)
        if leaning {
            // 40 px wide, 280 px long, turned 25 degrees to the right about its foot's left corner at (290, 380).
            let a = 25 * Double.pi / 180
            let u = Point(x: sin(a), y: -cos(a)), n = Point(x: cos(a), y: sin(a))
            let foot = Point(x: 290, y: 380)
            func at(_ along: Double, _ across: Double) -> Point {
                Point(x: foot.x + u.x * along + n.x * across, y: foot.y + u.y * along + n.y * across)
            }
            let q = Quad(topLeft: at(280, 0), topRight: at(280, 40), bottomRight: at(0, 40), bottomLeft: at(0, 0))
            shelf.fill(q, (40, 90, 170))
            // Its title: light strokes along it, which cross any line along the book both ways.
            for k in stride(from: 40.0, to: 240, by: 14) {
                shelf.fill(Quad(topLeft: at(k + 8, 14), topRight: at(k + 8, 26), bottomRight: at(k, 26), bottomLeft: at(k, 14)), (235, 235, 225))
            }
            book = q
        } else {
            for x in stride(from: 285.0, to: 400, by: 9) { shelf.rect(x, 150, 3, 200, (170, 160, 150)) }
        }
    }

    /// The working maps, the row and the upright books' boxes as the row finder keeps them.
    func row() -> (EdgeMaps, RowFinder.Band, [Quad])? {
        let detector = SpineDetector()
        let (maps, deskew) = detector.workingMaps(shelf.image)
        guard deskew == nil, let band = RowFinder.rows(maps, detector.parameters).first else { return nil }
        let scale = Double(maps.width) / Double(shelf.image.width)
        let upright = shelf.spines.map { q in
            Quad(topLeft: Point(x: q.topLeft.x * scale, y: q.topLeft.y * scale), topRight: Point(x: q.topRight.x * scale, y: q.topRight.y * scale),
                 bottomRight: Point(x: q.bottomRight.x * scale, y: q.bottomRight.y * scale),
                 bottomLeft: Point(x: q.bottomLeft.x * scale, y: q.bottomLeft.y * scale))
        }
        return (maps, band, upright)
    }
}

@Suite struct LeaningBooksTests {
    @Test func findsABookLeaningPastTheRowsTiltSearchAsOneTurnedBox() throws {
        let f = LeaningShelf(leaning: true)
        let (maps, band, upright) = try #require(f.row())
        let book = try #require(f.book)
        let found = LeaningBooks.proposals(maps, band, ceiling: 0, kept: upright)
        #expect(found.count == 1, "proposals \(found.map(\.quad))")
        let best = found.map { PolygonIoU.iou($0.quad, book) }.max() ?? 0
        #expect(best > 0.6, "best IoU \(best) with the leaning book")
        // Turned as the book is: its long sides lean 25 degrees, not upright.
        if let q = found.first?.quad {
            let lean = atan2(q.topLeft.x - q.bottomLeft.x, q.bottomLeft.y - q.topLeft.y) * 180 / .pi
            #expect(abs(lean - 25) < 5, "lean \(lean)")
        }
    }

    @Test func stripesOnTheWallAndStandingBooksAreNoLeaningBook() throws {
        let f = LeaningShelf(leaning: false)
        let (maps, band, upright) = try #require(f.row())
        #expect(LeaningBooks.proposals(maps, band, ceiling: 0, kept: upright).isEmpty)
        // Where the upright books stand, nothing is searched: their stretch is covered.
        let g = LeaningShelf(leaning: true)
        let (maps2, band2, _) = try #require(g.row())
        let everything = Quad(topLeft: Point(x: 0, y: 0), topRight: Point(x: 640, y: 0),
                              bottomRight: Point(x: 640, y: 420), bottomLeft: Point(x: 0, y: 420))
        #expect(LeaningBooks.proposals(maps2, band2, ceiling: 0, kept: [everything]).isEmpty)
    }

    @Test func theStepAcrossASideKeepsItsSignAlongItAndPrintAveragesOut() throws {
        let f = LeaningShelf(leaning: true)
        let (maps, band, _) = try #require(f.row())
        let book = try #require(f.book)
        let scale = Double(maps.width) / 640
        let yc = Double(band.top + band.bottom) / 2
        let slope = tan(25 * Double.pi / 180)
        // The book's left side, and a line down its middle through the title's strokes, at the row's middle.
        let leftX = (book.bottomLeft.x + (yc / scale - book.bottomLeft.y) * -slope) * scale
        let side = LeaningBooks.step(maps, RowSpines.Line(x: leftX, slope: -slope), yc: yc, top: band.top + 40, bottom: band.bottom - 10)
        let middle = LeaningBooks.step(maps, RowSpines.Line(x: leftX + 20 / cos(25 * Double.pi / 180) * scale, slope: -slope), yc: yc,
                                       top: band.top + 40, bottom: band.bottom - 10)
        #expect(side > 0.5, "side \(side)")
        #expect(middle < 0.5 * side, "middle \(middle), side \(side)")
    }
}

extension LeaningBooksTests {
    @Test func theRowAtATimeStepsAgreeWithTheStepOfEachLine() throws {
        let f = LeaningShelf(leaning: true)
        let (maps, band, _) = try #require(f.row())
        let yc = Double(band.top + band.bottom) / 2
        let book = -tan(25 * Double.pi / 180)
        for slope in [-0.6, book, 0.3] {
            let fast = LeaningBooks.steps(maps, slope: slope, x0: 250, x1: 440, yc: yc, top: band.top + 130, bottom: band.bottom - 30)
            let slow = (250...440).map { LeaningBooks.step(maps, RowSpines.Line(x: Double($0), slope: slope), yc: yc, top: band.top + 130, bottom: band.bottom - 30) }
            #expect(fast.count == slow.count)
            // Equal but where a sample's position rounds a tie the other way.
            let off = zip(fast, slow).filter { abs($0 - $1) > 1e-4 }.count
            #expect(off <= 2, "\(off) columns differ at slope \(slope)")
            if slope == book { #expect(fast.max()! > 0.5, "the book's sides") }
        }
    }
}
