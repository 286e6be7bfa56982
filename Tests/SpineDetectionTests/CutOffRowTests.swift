import Foundation
import Testing
import ShelfImage
@testable import SpineDetection

/// A row the photo's bottom edge cuts off: its books run out of the picture, so no board shows under them,
/// as under a floor. Their titles running up the spines tell the two apart.
@Suite struct CutOffRowTests {
    /// A row of books on a board, and below it a second row whose feet lie past the photo's bottom edge.
    private struct Scene {
        var shelf = DrawnShelf(width: 640, height: 480)
        var cutOff: [Quad] = []

        init() {
            shelf.board(y: 230, thickness: 24)
            shelf.standing(from: 20, floorY: 230, widths: [44, 52, 40, 58, 48, 42, 54, 46, 60, 44, 50, 46], heights: [170, 160, 180])
            let above = shelf.spines.count
            // Feet at y 600: the photo (480 high) shows their upper 95 to 125 px.
            shelf.standing(from: 24, floorY: 600, widths: [50, 42, 56, 46, 52, 40, 58, 44, 48, 54, 46], heights: [220, 200, 210],
                           colourOffset: 4)
            cutOff = shelf.spines[above...].map { s in
                Quad(topLeft: s.topLeft, topRight: s.topRight, bottomRight: Point(x: s.bottomRight.x, y: 480),
                     bottomLeft: Point(x: s.bottomLeft.x, y: 480))
            }
        }

        /// A title running up each of the cut-off spines, normalized, as the text detector finds them.
        var titles: [TextLine] {
            cutOff.map { q in
                let cx = (q.topLeft.x + q.topRight.x) / 2, w = q.topRight.x - q.topLeft.x
                let x0 = (cx - 0.15 * w) / 640, x1 = (cx + 0.15 * w) / 640, y0 = (q.topLeft.y + 15) / 480, y1 = 470.0 / 480
                return TextLine(quad: Quad(topLeft: Point(x: x0, y: y0), topRight: Point(x: x1, y: y0),
                                           bottomRight: Point(x: x1, y: y1), bottomLeft: Point(x: x0, y: y1)), score: 0.9)
            }
        }
    }

    /// The text detector's map, lit where the lines are, and the lines.
    static func printed(_ lines: [TextLine]) -> TextEvidence {
        let w = 160, h = 120
        var p = [Float](repeating: 0, count: w * h)
        for l in lines {
            for y in 0..<h { for x in 0..<w where TextEvidence.contains(l.quad.points, Point(x: (Double(x) + 0.5) / Double(w), y: (Double(y) + 0.5) / Double(h))) {
                p[y * w + x] = 0.9
            } }
        }
        return TextEvidence(width: w, height: h, probability: p, lines: lines)
    }

    private func matched(_ result: DetectionResult, _ truth: [Quad]) -> Int {
        let spines = result.spines.map { s in s.quad.points.map { Point(x: $0.x * 640, y: $0.y * 480) } }
        return truth.filter { t in spines.contains { PolygonIoU.iou($0, t.points) > 0.5 } }.count
    }

    @Test func aRowCutOffWithTitlesRunningUpItIsSearched() {
        let scene = Scene()
        let p = DetectorParameters.bundled
        let maps = EdgeMaps(scene.shelf.image, edgeFloor: p.edgeFloor, edgeCap: p.edgeCap)
        let lines = scene.titles.map { $0.quad.points.map { Point(x: $0.x * 640, y: $0.y * 480) } }
        // Without print the band running out of the photo stays unsearched, as a floor; with it, it is a row.
        let withoutPrint = RowFinder.rows(maps, p, cutOff: { SpineDetector.holdsUprightPrint($0, lines: [], minLines: 2) })
        let withPrint = RowFinder.rows(maps, p, cutOff: { SpineDetector.holdsUprightPrint($0, lines: lines, minLines: 2) })
        #expect(!withoutPrint.contains { $0.bottom > 400 }, "\(withoutPrint)")
        #expect(withPrint.contains { $0.bottom > 470 && $0.top <= 400 }, "\(withPrint)")

        // The whole detector, handed the titles: most of the cut-off books are boxed, down to the photo's edge.
        let evidence = Self.printed(scene.titles)
        let result = SpineDetector().detect(scene.shelf.image, text: evidence)
        let found = matched(result, scene.cutOff)
        #expect(found >= scene.cutOff.count - 3, "\(found) of \(scene.cutOff.count) cut-off books found")
        var off = p
        off.footlessRowMinPrintLines = nil
        #expect(matched(SpineDetector(parameters: off).detect(scene.shelf.image, text: evidence), scene.cutOff) == 0)
    }

    @Test func aCutOffRowsBooksAreAsWideAsTheRowAboveAllows() throws {
        // A wide book (100 px) in the cut-off row: wider than the sliver in view (about 95 px) allows a standing
        // book to be, not than its row, as tall as the one above (about 170 px), does.
        var shelf = DrawnShelf(width: 640, height: 480)
        shelf.board(y: 230, thickness: 24)
        shelf.standing(from: 20, floorY: 230, widths: [44, 52, 40, 58, 48, 42, 54, 46, 60, 44, 50, 46], heights: [170, 160, 180])
        shelf.standing(from: 24, floorY: 600, widths: [50, 42, 56, 100, 46, 52, 40, 58, 44], heights: [215, 205, 210], colourOffset: 4)
        let wide = try #require(shelf.spines.last { $0.topRight.x - $0.topLeft.x > 90 })
        let p = DetectorParameters.bundled
        let maps = EdgeMaps(shelf.image, edgeFloor: p.edgeFloor, edgeCap: p.edgeCap)
        let band = RowFinder.Band(top: 388, bottom: 479)
        let visible = [wide.topLeft, wide.topRight, Point(x: wide.topRight.x, y: 480), Point(x: wide.topLeft.x, y: 480)]
        func standsWhole(_ found: [RowSpines.Found]) -> Bool {
            found.contains { !$0.lying && PolygonIoU.iou($0.quad.points, visible) > 0.7 }
        }
        let above = Double(RowFinder.rows(maps, p).first { $0.bottom < 240 }.map { $0.bottom - $0.top + 1 } ?? 170)
        #expect(standsWhole(RowSpines.find(maps, band, ceiling: 254, rowHeight: above, p)))
        #expect(!standsWhole(RowSpines.find(maps, band, ceiling: 254, p)))
    }

    /// A row whose tops lie past the photo's top edge, standing on a board, and a whole row below it.
    private struct TopCutScene {
        var shelf = DrawnShelf(width: 640, height: 480)
        var cutOff: [Quad] = []

        init(widths: [Double] = [50, 42, 56, 46, 52, 40, 58, 44, 48, 54, 46]) {
            // Feet at y 100: the photo shows their lower 100 px of 200 to 220.
            shelf.standing(from: 24, floorY: 100, widths: widths, heights: [220, 200, 210], colourOffset: 4)
            cutOff = shelf.spines.map { s in
                Quad(topLeft: Point(x: s.bottomLeft.x, y: 0), topRight: Point(x: s.bottomRight.x, y: 0),
                     bottomRight: s.bottomRight, bottomLeft: s.bottomLeft)
            }
            shelf.board(y: 100, thickness: 24)
            shelf.standing(from: 20, floorY: 420, widths: [44, 52, 40, 58, 48, 42, 54, 46, 60, 44, 50, 46], heights: [210, 200, 220])
            shelf.board(y: 420, thickness: 24)
        }

        /// A title running down each cut-off spine's part in view, normalized, as the text detector finds them.
        var titles: [TextLine] {
            cutOff.map { q in
                let cx = (q.topLeft.x + q.topRight.x) / 2, w = q.topRight.x - q.topLeft.x
                let x0 = (cx - 0.15 * w) / 640, x1 = (cx + 0.15 * w) / 640, y0 = 4.0 / 480, y1 = 85.0 / 480
                return TextLine(quad: Quad(topLeft: Point(x: x0, y: y0), topRight: Point(x: x1, y: y0),
                                           bottomRight: Point(x: x1, y: y1), bottomLeft: Point(x: x0, y: y1)), score: 0.9)
            }
        }
    }

    @Test func aRowCutOffByThePhotosTopIsBoxedAsTallAsTheRowBelow() {
        // Books 56 to 70 px wide, of which about 100 px show: too wide for spines that short, not for spines of
        // the 200-220 px the row below stands.
        let scene = TopCutScene(widths: [50, 64, 56, 46, 70, 40, 58, 66, 48, 54])
        let evidence = Self.printed(scene.titles)
        let p = DetectorParameters.bundled
        let found = matched(SpineDetector(parameters: p).detect(scene.shelf.image, text: evidence), scene.cutOff)
        var off = p
        off.topCutRows = false
        off.cutRowsScoredWhole = false
        let without = matched(SpineDetector(parameters: off).detect(scene.shelf.image, text: evidence), scene.cutOff)
        #expect(found >= scene.cutOff.count - 2, "\(found) of \(scene.cutOff.count) cut-off books found")
        #expect(without <= found - 2, "\(found) with the rules, \(without) without")
    }

    @Test func aBookTallerThanThePhotoRunsUpToItsTopEdgeNotToItsSticker() {
        // One row seen close up, its feet at y 400 and its tops out of the picture; a pale call-number sticker
        // across each spine at y 160-200, whose top edge is the strongest line across the books.
        var shelf = DrawnShelf(width: 640, height: 480)
        let widths: [Double] = [50, 42, 56, 46, 52, 40, 58, 44, 48, 54, 46]
        shelf.standing(from: 24, floorY: 400, widths: widths, heights: [640, 620, 660])
        shelf.board(y: 400, thickness: 40)
        let books = shelf.spines.map { s in
            Quad(topLeft: Point(x: s.bottomLeft.x, y: 0), topRight: Point(x: s.bottomRight.x, y: 0), bottomRight: s.bottomRight, bottomLeft: s.bottomLeft)
        }
        for q in books { shelf.rect(q.topLeft.x + 4, 160, q.topRight.x - q.topLeft.x - 8, 40, (235, 235, 225)) }
        let titles = books.map { q in
            let cx = (q.topLeft.x + q.topRight.x) / 2, w = q.topRight.x - q.topLeft.x
            let x0 = (cx - 0.15 * w) / 640, x1 = (cx + 0.15 * w) / 640, y0 = 20.0 / 480, y1 = 150.0 / 480
            return TextLine(quad: Quad(topLeft: Point(x: x0, y: y0), topRight: Point(x: x1, y: y0),
                                       bottomRight: Point(x: x1, y: y1), bottomLeft: Point(x: x0, y: y1)), score: 0.9)
        }
        let evidence = Self.printed(titles)
        func tops(_ p: DetectorParameters) -> [Int] {
            SpineDetector(parameters: p).detect(shelf.image, text: evidence).spines.map { Int($0.quad.points.map(\.y).min()! * 480) }
        }
        let with = tops(DetectorParameters.bundled)
        var off = DetectorParameters.bundled
        off.topsAtPhotoEdge = false
        let without = tops(off)
        #expect(with.count >= books.count - 1 && with.filter { $0 < 12 }.count >= books.count - 1, "tops \(with)")
        #expect(without.filter { $0 < 12 }.count <= books.count / 2, "tops without the rule \(without)")
    }

    @Test func aLabelStripAcrossAWidePhotosRowDoesNotCutItInTwo() throws {
        // A photo three times as wide as it is tall, of one row whose books run out of its top; a strip of pale
        // call-number labels 4 px high crosses every spine at y 150.
        var shelf = DrawnShelf(width: 960, height: 320)
        shelf.standing(from: 20, floorY: 290, widths: [40, 34, 46, 38, 42, 36, 48, 40, 44, 38, 42, 36, 46, 40, 44, 38, 42, 36, 48, 40, 44, 38],
                       heights: [420, 400, 440])
        shelf.board(y: 290, thickness: 30)
        shelf.rect(0, 150, 960, 4, (238, 238, 230))
        let detector = SpineDetector()
        let (maps, _) = detector.workingMaps(shelf.image)
        let rows = RowFinder.rows(maps, detector.parameters)
        #expect(rows.count == 1, "bands \(rows.map { ($0.top, $0.bottom) }) in a working frame \(maps.height) px high")
        var byHeight = detector.parameters
        byHeight.rowScaleByWidth = false
        #expect(RowFinder.rows(maps, byHeight).count == 2, "by the photo's height alone the strip parts the row")
    }

    @Test func aBoxAtTheEndOfPrintRunningAcrossIsAPieceOfALyingBook() {
        // A lying book's title, 240 px long and 20 thick, from x 380 to 620 at y 30-50.
        func line(_ x0: Double, _ x1: Double, _ y0: Double, _ y1: Double) -> LyingBooks.Line {
            LyingBooks.Line(centre: Point(x: (x0 + x1) / 2, y: (y0 + y1) / 2), along: Point(x: 1, y: 0), length: x1 - x0,
                            thickness: y1 - y0, corners: [Point(x: x0, y: y0), Point(x: x1, y: y0), Point(x: x1, y: y1), Point(x: x0, y: y1)])
        }
        func box(_ x0: Double, _ x1: Double) -> Quad {
            Quad(topLeft: Point(x: x0, y: 20), topRight: Point(x: x1, y: 20), bottomRight: Point(x: x1, y: 55), bottomLeft: Point(x: x0, y: 55))
        }
        let title = [line(380, 620, 30, 50)]
        #expect(SpineDetector.underPrintAcross(box(350, 375), title), "its logo end, within the line's thickness")
        #expect(SpineDetector.underPrintAcross(box(450, 480), title), "under the title")
        #expect(!SpineDetector.underPrintAcross(box(300, 330), title), "a spine beside the lying book")
        // A standing spine's own word across it is not twice as long as the spine is wide.
        #expect(!SpineDetector.underPrintAcross(box(100, 140), [line(105, 135, 30, 40)]))
    }

    @Test func aFloorFillingHalfThePhotoIsNoCloseUpWhereTheTextCueRan() {
        // A bookcase's row at the top, and under it floorboards running to the photo's bottom edge: 260 of 480 px.
        var shelf = DrawnShelf(width: 640, height: 480)
        shelf.standing(from: 20, floorY: 200, widths: [44, 52, 40, 58, 48, 42, 54, 46, 60, 44, 50, 46], heights: [170, 160, 180])
        shelf.board(y: 200, thickness: 20)
        shelf.rect(0, 220, 640, 260, (150, 110, 70))
        for k in 0..<16 { shelf.rect(Double(k) * 40 + 6, 220, 22, 260, (110, 75, 45)) }
        let titles = shelf.spines.map { q in
            let cx = (q.topLeft.x + q.topRight.x) / 2, w = q.topRight.x - q.topLeft.x
            let x0 = (cx - 0.15 * w) / 640, x1 = (cx + 0.15 * w) / 640, y0 = (q.topLeft.y + 15) / 480, y1 = (q.bottomLeft.y - 15) / 480
            return TextLine(quad: Quad(topLeft: Point(x: x0, y: y0), topRight: Point(x: x1, y: y0),
                                       bottomRight: Point(x: x1, y: y1), bottomLeft: Point(x: x0, y: y1)), score: 0.9)
        }
        let p = DetectorParameters.bundled
        let maps = EdgeMaps(shelf.image, edgeFloor: p.edgeFloor, edgeCap: p.edgeCap)
        let lines = titles.map { $0.quad.points.map { Point(x: $0.x * 640, y: $0.y * 480) } }
        let cutOff = { (b: RowFinder.Band) in SpineDetector.holdsUprightPrint(b, lines: lines, minLines: 2) }
        // Its height alone makes the floor a close-up of a row; its print (none) does not.
        #expect(RowFinder.rows(maps, p, cutOff: cutOff, byHeight: true).contains { $0.top > 200 })
        #expect(!RowFinder.rows(maps, p, cutOff: cutOff, byHeight: false).contains { $0.top > 200 })
        let evidence = Self.printed(titles)
        let onFloor = { (r: DetectionResult) in r.spines.filter { s in s.quad.points.allSatisfy { $0.y > 225.0 / 480 } }.count }
        // The whole detector: no box on the floor, the books above found.
        let result = SpineDetector(parameters: p).detect(shelf.image, text: evidence)
        #expect(onFloor(result) == 0)
        #expect(matched(result, shelf.spines) >= shelf.spines.count - 2)
    }

    @Test func printLyingAcrossAFloorDoesNotMakeItARow() {
        let scene = Scene()
        let p = DetectorParameters.bundled
        let maps = EdgeMaps(scene.shelf.image, edgeFloor: p.edgeFloor, edgeCap: p.edgeCap)
        // Words across the band (a mat's lettering, a newspaper) and a single upright line are not a row's titles.
        let across = (0..<4).map { k -> [Point] in
            let x0 = 40.0 + 140 * Double(k), y = 420.0
            return [Point(x: x0, y: y), Point(x: x0 + 100, y: y), Point(x: x0 + 100, y: y + 14), Point(x: x0, y: y + 14)]
        }
        let one = [[Point(x: 300, y: 380), Point(x: 310, y: 380), Point(x: 310, y: 470), Point(x: 300, y: 470)]]
        for lines in [across, one] {
            let bands = RowFinder.rows(maps, p, cutOff: { SpineDetector.holdsUprightPrint($0, lines: lines, minLines: 2) })
            #expect(!bands.contains { $0.bottom > 400 }, "\(bands)")
        }
    }
}
