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
        let base: [Double] = [0.55, 0.6, log(0.09), log(0.09) * log(0.09), 0.9, 0]
        var stronger = base; stronger[0] = 0.7
        var weakRow = base; weakRow[1] = 0.45
        let c = SpineDetector.calibrated(base, w)
        #expect(c > 0 && c < 1)
        #expect(SpineDetector.calibrated(stronger, w) > c)
        #expect(SpineDetector.calibrated(weakRow, w) < c)
        // Bias only: the logistic of the bias.
        #expect(abs(SpineDetector.calibrated([1, 2], [0]) - 0.5) < 1e-12)
    }

    @Test func everyConfidenceIsAProbability() {
        var f = DrawnShelf(width: 640, height: 420)
        f.board(y: 380, thickness: 40)
        f.standing(from: 40, floorY: 380, widths: [45, 52, 40, 60, 48, 42, 55, 50, 44], heights: [300, 290, 310])
        let (r, cues) = SpineDetector().detectWithCues(f.image)
        #expect(!r.spines.isEmpty)
        #expect(cues.count == r.spines.count)
        for s in r.spines { #expect((0...1).contains(s.confidence)) }
        for c in cues { #expect(c.count == SpineDetector.confidenceCueNames.count) }
    }
}
