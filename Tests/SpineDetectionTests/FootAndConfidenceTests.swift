import Foundation
import Testing
import ShelfImage
@testable import SpineDetection

/// A spine's own foot, and confidence as a fitted model of the box's cues.
@Suite struct FootAndConfidenceTests {
    @Test func aBookStandingForwardKeepsItsFoot() {
        // Eleven books on one board; the seventh stands 24 px further down (forward on the board), so its
        // foot is below where the row as a whole ends.
        var f = DrawnShelf(width: 640, height: 440)
        f.board(y: 330, thickness: 60)
        let widths: [Double] = [48, 55, 42, 60, 50, 45, 58, 52, 47, 44, 56]
        f.standing(from: 30, floorY: 300, widths: Array(widths[0..<6]), heights: [230, 215, 240])
        var x = 30 + widths[0..<6].reduce(0, +)
        f.standing(from: x, floorY: 324, widths: [widths[6]], heights: [250], colourOffset: 6)
        x += widths[6]
        f.standing(from: x, floorY: 300, widths: Array(widths[7...]), heights: [225, 235], colourOffset: 7)
        let forward = f.spines[6]
        let r = SpineDetector().detect(f.image)
        let truth = forward.points.map { Point(x: $0.x / 640, y: $0.y / 440) }
        let best = r.spines.map { PolygonIoU.iou($0.quad.points, truth) }.max() ?? 0
        #expect(best > 0.8, "best IoU \(best) for the book standing forward")
        let match = r.spines.max { PolygonIoU.iou($0.quad.points, truth) < PolygonIoU.iou($1.quad.points, truth) }
        if let m = match {
            // Its foot is found within a few pixels of 324, not cut at the others' 300.
            #expect(abs(m.quad.bottomLeft.y * 440 - 324) < 8, "foot at \(m.quad.bottomLeft.y * 440)")
        }
    }

    @Test func theFootIsTheBandsBottomWithoutEvidenceBelow() {
        // Below the band: a plain board, no side edges continue, so the foot stays where the band ends.
        var f = DrawnShelf(width: 400, height: 300)
        f.board(y: 240, thickness: 60)
        f.standing(from: 100, floorY: 240, widths: [60], heights: [180])
        let maps = EdgeMaps(f.image, edgeFloor: 6, edgeCap: 24)
        let band = RowFinder.Band(top: 60, bottom: 239)
        let foot = RowSpines.foot(maps, band, left: .init(x: 100, slope: 0), right: .init(x: 160, slope: 0),
                                  yc: 150, reach: 40, .bundled)
        #expect(abs(foot - 240) <= 2, "foot \(foot)")
    }

    @Test func confidenceModelReadsAsOddsAndRisesWithEvidence() {
        let w = DetectorParameters.bundled.confidenceModel ?? []
        #expect(w.count == SpineDetector.confidenceCueNames.count + 1)
        // The same box with stronger boundaries, or in a row that looks more like books, is more likely right.
        let base: [Double] = [0.55, 0.6, 0, 0, 0.9, 0, 0.5]
        var stronger = base; stronger[0] = 0.7
        var weakRow = base; weakRow[1] = 0.45
        let c = SpineDetector.calibrated(base, w)
        #expect(c > 0 && c < 1)
        #expect(SpineDetector.calibrated(stronger, w) > c)
        #expect(SpineDetector.calibrated(weakRow, w) < c)
        // Bias only: the logistic of the bias.
        #expect(abs(SpineDetector.calibrated([1, 2], [0]) - 0.5) < 1e-12)
    }

    @Test func aPanelsSidesRunThroughTheRowABooksEnd() {
        // A side panel running the photo's whole height, a book standing on the board and, beside it, a
        // short book between two taller ones: all boxed over the same band, but only the panel's sides go on
        // both above its top and through the board.
        var f = DrawnShelf(width: 480, height: 320)
        f.board(y: 240, thickness: 50)
        f.rect(40, 0, 40, 320, (150, 110, 70))
        f.standing(from: 200, floorY: 240, widths: [50], heights: [160])
        f.standing(from: 300, floorY: 240, widths: [40, 50, 40], heights: [230, 160, 230], colourOffset: 2)
        let maps = EdgeMaps(f.image, edgeFloor: 6, edgeCap: 24)
        func box(_ x0: Double, _ x1: Double) -> RowSpines.Found {
            RowSpines.Found(quad: Quad(topLeft: Point(x: x0, y: 80), topRight: Point(x: x1, y: 80),
                                       bottomRight: Point(x: x1, y: 240), bottomLeft: Point(x: x0, y: 240)), confidence: 0.6, lying: false)
        }
        let panel = SpineDetector.sidesRunThrough(maps, box(40, 80), rowHeight: 160)
        let book = SpineDetector.sidesRunThrough(maps, box(200, 250), rowHeight: 160)
        let shortBook = SpineDetector.sidesRunThrough(maps, box(340, 390), rowHeight: 160)
        #expect(panel > 0.7, "panel \(panel)")
        #expect(book < 0.3, "book \(book)")
        #expect(shortBook < 0.3, "a short book between taller ones \(shortBook)")
        // A lying book is measured along another axis: no cue.
        var lying = box(200, 250); lying.lying = true
        #expect(SpineDetector.sidesRunThrough(maps, lying, rowHeight: 160) == 0)
        // A box off the map or not a number is no evidence either, and no trap.
        #expect(SpineDetector.sidesRunThrough(maps, box(.nan, 80), rowHeight: 160) == 0)
        #expect(SpineDetector.sidesRunThrough(maps, box(-1e300, 1e300), rowHeight: 160) == 0)
        #expect(SpineDetector.sidesRunThrough(maps, box(900, 950), rowHeight: 160) == 0)
    }

    @Test func boxesOfOneColourAreAlikeBooksOfManyAreNot() {
        func found(_ r: Double, _ g: Double, _ b: Double) -> RowSpines.Found {
            RowSpines.Found(quad: Quad(topLeft: Point(x: 0, y: 0), topRight: Point(x: 1, y: 0),
                                       bottomRight: Point(x: 1, y: 1), bottomLeft: Point(x: 0, y: 1)),
                            confidence: 0.6, lying: false, colour: SIMD3(r, g, b))
        }
        // Two stripes of one wallpaper, then a red and a blue book.
        let like = SpineDetector.likeNeighbours([found(120, 100, 80), found(124, 98, 82), found(200, 40, 40), found(40, 60, 180)])
        #expect(like[0] > 0.9 && like[1] > 0.9)
        #expect(like[2] == 0 && like[3] == 0)
        #expect(SpineDetector.likeNeighbours([found(1, 2, 3)]) == [0], "a box alone has no neighbour to be like")
    }

    @Test func aPictureFrameCutIntoThreeIsDroppedWholeAWideBookIsNot() {
        func box(_ x0: Double, _ x1: Double, _ c: SIMD3<Double>) -> RowSpines.Found {
            RowSpines.Found(quad: Quad(topLeft: Point(x: x0, y: 20), topRight: Point(x: x1, y: 20),
                                       bottomRight: Point(x: x1, y: 120), bottomLeft: Point(x: x0, y: 120)),
                            confidence: 0.6, lying: false, colour: c)
        }
        let frame = SIMD3<Double>(40, 30, 25), picture = SIMD3<Double>(120, 140, 190), book = SIMD3<Double>(200, 40, 40)
        // A book, the frame's left side, its picture, its right side (a shade off: grain), a book.
        let row = [box(0, 12, book), box(12, 18, frame), box(18, 70, picture), box(70, 76, frame + 20), box(76, 90, book)]
        #expect(SpineDetector.framedPictures(row, printed: [0.1, 0, 0, 0, 0.1], rowHeight: 100) == [1, 2, 3])
        // The wide box carries a title: a wide book between two thin ones of one colour.
        #expect(SpineDetector.framedPictures(row, printed: [0.1, 0, 0.2, 0, 0.1], rowHeight: 100).isEmpty)
        // Sides of different colours are two books; a narrow middle is a book between them.
        var unlike = row
        unlike[3] = box(70, 76, book)
        #expect(SpineDetector.framedPictures(unlike, printed: [0.1, 0, 0, 0, 0.1], rowHeight: 100).isEmpty)
        #expect(SpineDetector.framedPictures(row, printed: [0.1, 0, 0, 0, 0.1], rowHeight: 300).isEmpty)
    }

    @Test func everyConfidenceIsAProbability() {
        var f = DrawnShelf(width: 640, height: 420)
        f.board(y: 380, thickness: 40)
        f.standing(from: 40, floorY: 380, widths: [45, 52, 40, 60, 48, 42, 55, 50, 44], heights: [300, 290, 310])
        let (r, cues, _) = SpineDetector().detectWithCues(f.image)
        #expect(!r.spines.isEmpty)
        #expect(cues.count == r.spines.count)
        for s in r.spines { #expect((0...1).contains(s.confidence)) }
        for c in cues { #expect(c.count == SpineDetector.confidenceCueNames.count) }
    }

    /// A lying book's edge crosses the whole stack in one run; a line of print is many short strokes,
    /// so only the former may cut a stack into books.
    @Test func longEdgesCutStacksPrintDoesNot() {
        var f = DrawnShelf(width: 200, height: 120)
        f.rect(20, 20, 160, 40, (40, 40, 45))
        f.rect(20, 60, 160, 40, (200, 60, 50))
        // Print on the dark book: ten letters with gaps.
        for k in 0..<10 { f.rect(30 + Double(k) * 15, 34, 8, 10, (240, 240, 240)) }
        let maps = EdgeMaps(f.image, edgeFloor: 6, edgeCap: 24)
        let cov = RowSpines.longestRunCoverage(maps, RowFinder.Band(top: 10, bottom: 110), x0: 20, x1: 179)
        #expect(cov[60 - 10] > 0.9, "edge between the books \(cov[50])")
        #expect(cov[34 - 10] < 0.3, "top of the print \(cov[24])")
    }
}
