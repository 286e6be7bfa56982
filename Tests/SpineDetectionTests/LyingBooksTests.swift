import Foundation
import Testing
import ShelfImage
@testable import SpineDetection

/// A row of standing books above a board, and on the board a book lying face up: a blue cover with
/// three light title lines, as the text detector would report them.
private struct CoverOnBoard {
    var shelf: DrawnShelf
    let cover = Quad(topLeft: Point(x: 300, y: 270), topRight: Point(x: 540, y: 262),
                     bottomRight: Point(x: 548, y: 432), bottomLeft: Point(x: 296, y: 440))
    /// Title, author and publisher lines on the cover, in pixels.
    var printLines: [Quad] = []

    init(withStandingBooks: Bool = true) {
        shelf = DrawnShelf(width: 640, height: 480)
        shelf.rect(0, 200, 640, 280, (200, 170, 130))
        if withStandingBooks {
            shelf.standing(from: 20, floorY: 200, widths: [44, 52, 40, 60, 48, 38, 50, 46], heights: [160, 150, 170])
        }
        shelf.fill(cover, (40, 90, 170))
        for (y, x0, x1) in [(300.0, 330.0, 500.0), (330, 340, 470), (395, 360, 440)] {
            let line = Quad(topLeft: Point(x: x0, y: y), topRight: Point(x: x1, y: y),
                            bottomRight: Point(x: x1, y: y + 14), bottomLeft: Point(x: x0, y: y + 14))
            shelf.fill(line, (235, 235, 225))
            printLines.append(line)
        }
    }

    func evidence(_ lines: [Quad]) -> TextEvidence { textEvidence(lines, on: shelf.image) }

    func normalizedCover() -> [Point] {
        cover.points.map { Point(x: $0.x / Double(shelf.image.width), y: $0.y / Double(shelf.image.height)) }
    }
}

/// Text evidence for `lines` (pixel quads of `image`): a 160 x 120 probability grid lit where they are.
private func textEvidence(_ lines: [Quad], on image: RGBImage) -> TextEvidence {
    let w = 160, h = 120
    let sx = Double(image.width), sy = Double(image.height)
    var probability = [Float](repeating: 0, count: w * h)
    var normalizedLines: [TextLine] = []
    for q in lines {
        let n = Quad(topLeft: Point(x: q.topLeft.x / sx, y: q.topLeft.y / sy), topRight: Point(x: q.topRight.x / sx, y: q.topRight.y / sy),
                     bottomRight: Point(x: q.bottomRight.x / sx, y: q.bottomRight.y / sy),
                     bottomLeft: Point(x: q.bottomLeft.x / sx, y: q.bottomLeft.y / sy))
        normalizedLines.append(TextLine(quad: n, score: 0.9))
        for y in 0..<h { for x in 0..<w where TextEvidence.contains(n.points, Point(x: (Double(x) + 0.5) / Double(w), y: (Double(y) + 0.5) / Double(h))) {
            probability[y * w + x] = 0.9
        } }
    }
    return TextEvidence(width: w, height: h, probability: probability, lines: normalizedLines)
}

@Suite struct LyingBooksTests {
    /// Lines without a probability grid (an empty one, as `TextEvidence` keeps when the model's map is
    /// unusable): the cover's outline is still searched, and the print beyond each side reads as none.
    @Test func aCoverWithoutAProbabilityGrid() {
        let f = CoverOnBoard()
        let lines = f.evidence(f.printLines).lines
        var patched = f
        // Around the cover a ground of four colours, so no side's far strip matches the ground and each
        // search weighs the print beyond its candidate lines.
        patched.shelf.rect(0, 205, 290, 275, (90, 60, 40))
        patched.shelf.rect(555, 205, 85, 275, (230, 230, 230))
        patched.shelf.rect(290, 205, 265, 52, (150, 40, 40))
        patched.shelf.rect(290, 445, 265, 35, (30, 30, 30))
        for image in [f.shelf.image, patched.shelf.image] {
            for evidence in [TextEvidence(width: 0, height: 0, probability: [], lines: lines),
                             TextEvidence(width: 1, height: 1, probability: [0], lines: lines)] {
                let r = SpineDetector().detect(image, text: evidence)
                // Print is what makes a lying box sure: with none on the grid, no cover is claimed.
                #expect(r.spines.filter(\.lying).isEmpty, "lying boxes: \(r.spines.filter(\.lying).map(\.quad))")
                #expect(!r.spines.isEmpty)
            }
        }
    }

    @Test func findsACoverLyingFaceUpFromItsPrint() {
        let f = CoverOnBoard()
        let r = SpineDetector().detect(f.shelf.image, text: f.evidence(f.printLines))
        let lying = r.spines.filter(\.lying)
        #expect(lying.count == 1, "lying boxes: \(lying.map(\.quad))")
        guard let box = lying.first else { return }
        #expect(PolygonIoU.iou(box.quad.points, f.normalizedCover()) > 0.8)
        // A face-up cover stands as it reads: its top edge is the one above the title.
        #expect(box.quad.topLeft.y < box.quad.bottomLeft.y && box.quad.topLeft.x < box.quad.topRight.x)
        #expect(box.confidence >= 0.5 && box.confidence <= 1)
        // It is added beside the standing books, never over one of them.
        for s in r.spines where !s.lying { #expect(PolygonIoU.iou(s.quad.points, box.quad.points) == 0) }
    }

    @Test func aCoverAloneOnABoardIsARowOfItsOwn() {
        // Nothing stands beside it, so the row finder finds no band: the cover's row is still one of `rows`.
        let f = CoverOnBoard(withStandingBooks: false)
        let r = SpineDetector().detect(f.shelf.image, text: f.evidence(f.printLines))
        let lying = r.spines.filter(\.lying)
        #expect(lying.count == 1, "lying boxes: \(lying.map(\.quad))")
        #expect(!r.rows.isEmpty)
        #expect(r.spines.allSatisfy { $0.row >= 0 && $0.row < r.rows.count })
        if let box = lying.first { #expect(PolygonIoU.iou(box.quad.points, f.normalizedCover()) > 0.8) }
    }

    @Test func addsNothingWithoutTextEvidence() {
        let f = CoverOnBoard()
        let plain = SpineDetector().detect(f.shelf.image)
        #expect(plain.spines.allSatisfy { !$0.lying })
        // The standing books' boxes are the same whether or not the finder ran (their confidence is not: with
        // text evidence it is the model that weighs print). The logistic model weighs them here: the box
        // classifier never saw books of one flat colour without print and takes them for wall (see
        // BoxClassifierTests for what it does with printed ones).
        var parameters = DetectorParameters.bundled
        parameters.boxClassifier = nil
        let withText = SpineDetector(parameters: parameters).detect(f.shelf.image, text: f.evidence(f.printLines))
        #expect(withText.spines.filter { !$0.lying }.map(\.quad) == plain.spines.map(\.quad))
    }

    @Test func addsNothingWhenTurnedOff() {
        let f = CoverOnBoard()
        var p = DetectorParameters.bundled
        p.lyingTextMaxAngle = nil
        let r = SpineDetector(parameters: p).detect(f.shelf.image, text: f.evidence(f.printLines))
        #expect(r.spines.allSatisfy { !$0.lying })
    }

    @Test func printOnStandingBooksAddsNothing() {
        let f = CoverOnBoard()
        // Horizontal lines of print across three standing spines (a series' band, a sticker row): the
        // standing boxes already hold them.
        let lines = [Quad(topLeft: Point(x: 70, y: 120), topRight: Point(x: 100, y: 120),
                          bottomRight: Point(x: 100, y: 128), bottomLeft: Point(x: 70, y: 128)),
                     Quad(topLeft: Point(x: 125, y: 120), topRight: Point(x: 150, y: 120),
                          bottomRight: Point(x: 150, y: 128), bottomLeft: Point(x: 125, y: 128)),
                     Quad(topLeft: Point(x: 170, y: 120), topRight: Point(x: 205, y: 120),
                          bottomRight: Point(x: 205, y: 128), bottomLeft: Point(x: 170, y: 128))]
        let r = SpineDetector().detect(f.shelf.image, text: f.evidence(lines))
        #expect(r.spines.allSatisfy { !$0.lying })
    }

    @Test func cutsAStackSeenSpineOnIntoOneBookPerLineOfPrint() {
        // Two books lying one on the other on a board, each spine with its title across it, their lines
        // of print close enough to be one cluster; the seam between the spines parts them.
        var shelf = DrawnShelf(width: 640, height: 480)
        shelf.rect(0, 400, 640, 80, (200, 170, 130))
        let books = [Quad(topLeft: Point(x: 200, y: 330), topRight: Point(x: 500, y: 330),
                          bottomRight: Point(x: 500, y: 365), bottomLeft: Point(x: 200, y: 365)),
                     Quad(topLeft: Point(x: 190, y: 365), topRight: Point(x: 510, y: 365),
                          bottomRight: Point(x: 510, y: 400), bottomLeft: Point(x: 190, y: 400))]
        shelf.fill(books[0], (180, 40, 40))
        shelf.fill(books[1], (40, 90, 170))
        shelf.rect(190, 364, 320, 2, (15, 15, 15))
        var lines: [Quad] = []
        for (y, x0, x1) in [(343.0, 260.0, 440.0), (370, 250, 450)] {
            let line = Quad(topLeft: Point(x: x0, y: y), topRight: Point(x: x1, y: y),
                            bottomRight: Point(x: x1, y: y + 15), bottomLeft: Point(x: x0, y: y + 15))
            shelf.fill(line, (240, 240, 230))
            lines.append(line)
        }
        let p = DetectorParameters.bundled
        let maps = EdgeMaps(shelf.image, edgeFloor: p.edgeFloor, edgeCap: p.edgeCap)
        let found = LyingBooks.find(maps, deskew: nil, text: textEvidence(lines, on: shelf.image), standing: [], p)
        #expect(found.count == 2, "found \(found.map(\.seen))")
        for book in books {
            let best = found.map { PolygonIoU.iou($0.seen, book) }.max() ?? 0
            #expect(best > 0.7, "best IoU \(best) for \(book) in \(found.map(\.seen))")
        }
        // Seen spine-on, each is turned upright with its head at the left end.
        for b in found {
            #expect(b.spineOn)
            #expect(b.quad.topLeft == b.seen.bottomLeft && b.quad.topRight == b.seen.topLeft)
        }
    }

    @Test func cutsAStaggeredStackWhoseLinesOfPrintOverlapIntoItsBooks() {
        // Four books of different lengths lying staggered on a board, a dark seam on the wall high above them.
        // The text detector's boxes reach past the letters, so two neighbouring books' lines overlap a little
        // across; the seams between the spines run only where the books lie over one another.
        var shelf = DrawnShelf(width: 640, height: 480)
        shelf.rect(0, 400, 640, 80, (200, 170, 130))
        shelf.rect(0, 300, 640, 3, (30, 25, 20))
        let sizes: [(x: Double, length: Double, thickness: Double)] = [(240, 170, 16), (226, 190, 20), (250, 165, 14), (232, 185, 18)]
        var books: [Quad] = [], lines: [Quad] = []
        var bottom = 400.0
        for (k, s) in sizes.enumerated().reversed() {
            let top = bottom - s.thickness
            let book = Quad(topLeft: Point(x: s.x, y: top), topRight: Point(x: s.x + s.length, y: top),
                            bottomRight: Point(x: s.x + s.length, y: bottom), bottomLeft: Point(x: s.x, y: bottom))
            shelf.fill(book, DrawnShelf.palette[k % DrawnShelf.palette.count])
            shelf.rect(s.x, top, s.length, 1.5, (15, 15, 15))
            shelf.rect(s.x + 25, top + 0.3 * s.thickness, s.length - 60, 0.4 * s.thickness, (245, 245, 240))
            books.insert(book, at: 0)
            lines.insert(Quad(topLeft: Point(x: s.x + 20, y: top + 1), topRight: Point(x: s.x + s.length - 30, y: top + 1),
                              bottomRight: Point(x: s.x + s.length - 30, y: bottom + 1), bottomLeft: Point(x: s.x + 20, y: bottom + 1)), at: 0)
            bottom = top
        }
        let p = DetectorParameters.bundled
        let maps = EdgeMaps(shelf.image, edgeFloor: p.edgeFloor, edgeCap: p.edgeCap)
        let found = LyingBooks.find(maps, deskew: nil, text: textEvidence(lines, on: shelf.image), standing: [], p)
        #expect(found.count == books.count, "found \(found.map(\.seen))")
        for book in books {
            let best = found.map { PolygonIoU.iou($0.seen, book) }.max() ?? 0
            #expect(best > 0.5, "best IoU \(best) for \(book)")
        }
        #expect(found.allSatisfy { $0.spineOn })
    }

    /// A shelf whose lower board holds two stacks of books lying spine-on and nothing standing, a painted back
    /// behind them; the text detector found the print of only some of the books.
    private struct StacksOnABoard {
        var shelf = DrawnShelf(width: 640, height: 480)
        var books: [Quad] = []
        var printLines: [Quad] = []

        init() {
            shelf.standing(from: 20, floorY: 190, widths: [44, 52, 40, 60, 48, 38, 50, 46, 42, 56, 40], heights: [150, 140, 160])
            shelf.board(y: 190, thickness: 22)
            shelf.board(y: 430, thickness: 30)
            // (left end, length, thickness, print found): staggered, in different colours, bottom book first.
            let stacks: [[(x: Double, length: Double, thickness: Double, printed: Bool)]] = [
                [(90, 190, 22, true), (100, 170, 18, false), (84, 200, 26, true), (96, 180, 16, false)],
                [(380, 170, 24, false), (372, 185, 20, true), (390, 160, 22, false)],
            ]
            for (n, stack) in stacks.enumerated() {
                var bottom = 430.0
                for (k, b) in stack.enumerated() {
                    let top = bottom - b.thickness
                    let book = Quad(topLeft: Point(x: b.x, y: top), topRight: Point(x: b.x + b.length, y: top),
                                    bottomRight: Point(x: b.x + b.length, y: bottom), bottomLeft: Point(x: b.x, y: bottom))
                    shelf.fill(book, DrawnShelf.palette[(3 * n + k) % DrawnShelf.palette.count])
                    shelf.rect(b.x, top, b.length, 1.5, (15, 15, 15))
                    // Every spine carries its title; the text detector reports only some of them.
                    let line = Quad(topLeft: Point(x: b.x + 25, y: top + 0.3 * b.thickness), topRight: Point(x: b.x + b.length - 35, y: top + 0.3 * b.thickness),
                                    bottomRight: Point(x: b.x + b.length - 35, y: top + 0.7 * b.thickness), bottomLeft: Point(x: b.x + 25, y: top + 0.7 * b.thickness))
                    shelf.fill(line, (245, 245, 240))
                    if b.printed { printLines.append(line) }
                    books.append(book)
                    bottom = top - 1
                }
            }
        }

        func normalized(_ q: Quad) -> [Point] {
            q.points.map { Point(x: $0.x / Double(shelf.image.width), y: $0.y / Double(shelf.image.height)) }
        }
    }

    @Test func aBoardOfStacksWithNothingStandingIsARowOfLyingBooks() {
        let f = StacksOnABoard()
        let p = DetectorParameters.bundled
        let maps = EdgeMaps(f.shelf.image, edgeFloor: p.edgeFloor, edgeCap: p.edgeCap)
        let text = textEvidence(f.printLines, on: f.shelf.image)
        // The row finder sees the standing row only; the board under the print becomes a row of its own.
        let rows = RowFinder.rows(maps, p)
        #expect(rows.count == 1 && rows.allSatisfy { $0.bottom < 200 }, "rows \(rows)")
        let boards = LyingBooks.boardBands(maps, deskew: nil, text: text, bands: rows, p)
        #expect(boards.count == 1, "boards \(boards)")
        if let board = boards.first {
            #expect(abs(board.bottom - 430) <= 3, "board \(board)")
            #expect(board.top > rows[0].bottom && board.top < 430 - 26 - 22 - 18 - 16)
        }
        func found(_ p: DetectorParameters) -> [Int] {
            let lying = SpineDetector(parameters: p).detect(f.shelf.image, text: text).spines.filter(\.lying)
            return f.books.indices.filter { k in lying.contains { PolygonIoU.iou($0.quad.points, f.normalized(f.books[k])) > 0.5 } }
        }
        // Books whose print went unseen are cut from the stack by their edges (the second of the first stack
        // among them); without the board's row, the print alone finds none of these books.
        let withBoards = found(p)
        #expect(withBoards.count >= 4 && withBoards.contains(1), "books found: \(withBoards)")
        var without = p
        without.boardRows = false
        #expect(found(without).isEmpty)
    }

    @Test func levellingRoundTrips() {
        let d = Deskew(angle: 0.05, centre: Point(x: 320, y: 240))
        let p = Point(x: 100, y: 400)
        let back = d.source(d.levelled(p))
        #expect(abs(back.x - p.x) < 1e-9 && abs(back.y - p.y) < 1e-9)
    }
}
