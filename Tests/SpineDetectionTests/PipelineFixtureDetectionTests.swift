import Foundation
import ShelfImage
import ShelfScanTestSupport
import Testing
@testable import SpineDetection

struct PipelineFixtureDetectionTests {
    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func findsEveryDrawnSpineOnceInOrder(seed: UInt64) {
        // Given a shelf of 12 to 16 upright spines on a dark back panel (fewer would make each as wide as a
        // box: a third to a half of its height, where the detector's confidence rightly doubts a plain one)
        let fixture = ShelfFixture.make(width: 960, height: 540, spineCount: 12 + Int(seed % 5), seed: seed)
        // When detected
        let result = SpineDetector().detect(fixture.image)
        // Then each drawn spine is found once, left to right, in one row, with a box over it
        #expect(result.spines.count == fixture.spines.count)
        #expect(result.rows.count == 1)
        for (found, drawn) in zip(result.spines, fixture.spines) {
            let truth = [Point(x: Double(drawn.x), y: Double(drawn.y)), Point(x: Double(drawn.x + drawn.width), y: Double(drawn.y)),
                         Point(x: Double(drawn.x + drawn.width), y: Double(drawn.y + drawn.height)),
                         Point(x: Double(drawn.x), y: Double(drawn.y + drawn.height))]
            let quad = found.quad.points.map { Point(x: $0.x * 960, y: $0.y * 540) }
            #expect(PolygonIoU.iou(quad, truth) >= 0.7, "spine at x=\(drawn.x)")
            #expect(found.row == 0)
            #expect((0...1).contains(found.confidence))
            #expect(!found.lying)
        }
        #expect(result.spines.map(\.position) == Array(result.spines.indices))
    }

    @Test func positionsCountTheKeptSpinesOfEachRowWithoutGaps() {
        // Given the spines kept of two rows, their first positions left with gaps where boxes were dropped
        let quad = Quad(topLeft: Point(x: 0, y: 0), topRight: Point(x: 0.1, y: 0), bottomRight: Point(x: 0.1, y: 1), bottomLeft: Point(x: 0, y: 1))
        let kept = [(0, 0), (0, 2), (1, 1), (0, 5), (1, 4), (1, 5)].map {
            DetectedSpine(quad: quad, row: $0.0, position: $0.1, confidence: 0.9, lying: false)
        }
        // When numbered
        let numbered = SpineDetector.numbered(kept)
        // Then each row counts 0, 1, 2, ... in the order given, and nothing else changes
        #expect(numbered.map(\.position) == [0, 1, 0, 2, 1, 2])
        #expect(numbered.map(\.row) == kept.map(\.row))
        #expect(numbered.map(\.quad) == kept.map(\.quad))
    }

    @Test func followsTheTiltOfLeaningSpines() {
        // Given spines leaning 8 degrees to the right, each with a title band, resting against each other
        var image = RGBImage(width: 900, height: 500, fill: (92, 72, 58))
        image.fillRect(x: 0, y: 430, width: 900, height: 70, color: (150, 110, 70))
        let colors: [(UInt8, UInt8, UInt8)] = [(200, 40, 40), (40, 90, 170), (230, 200, 60), (40, 140, 80), (235, 235, 225)]
        let slope = tan(8 * Double.pi / 180)
        var drawn: [[Point]] = []
        for (i, color) in colors.enumerated() {
            let bottomLeft = 120.0 + Double(i) * 124, width = 120.0, top = 90.0, bottom = 430.0
            let shift = (bottom - top) * slope
            let corners = [(bottomLeft + shift, top), (bottomLeft + shift + width, top), (bottomLeft + width, bottom), (bottomLeft, bottom)]
            image.fillQuad(corners, color: color)
            let band = colors[(i + 2) % colors.count]
            let bandShift = 150 * slope
            image.fillQuad([(bottomLeft + 30 + bandShift + 60 * slope, 150), (bottomLeft + 90 + bandShift + 60 * slope, 150),
                            (bottomLeft + 90 + bandShift, 210), (bottomLeft + 30 + bandShift, 210)], color: band)
            drawn.append(corners.map { Point(x: $0.0, y: $0.1) })
        }
        let result = SpineDetector().detect(image)
        #expect(result.spines.count == drawn.count)
        for (found, truth) in zip(result.spines, drawn) {
            let quad = found.quad.points.map { Point(x: $0.x * 900, y: $0.y * 500) }
            #expect(PolygonIoU.iou(quad, truth) >= 0.7)
            // The quad leans the same way: its top edge lies to the right of its bottom edge.
            #expect(quad[0].x > quad[3].x + 10)
        }
    }

    @Test func aUniformImageHasNoSpines() {
        for fill: (UInt8, UInt8, UInt8) in [(0, 0, 0), (255, 255, 255), (120, 90, 60)] {
            let result = SpineDetector().detect(RGBImage(width: 640, height: 480, fill: fill))
            #expect(result.spines.isEmpty)
        }
    }

    @Test func degenerateSizesDoNotCrash() {
        for (w, h) in [(1, 1), (3, 500), (500, 3), (15, 15), (16, 16), (17, 2000), (2000, 17)] {
            let result = SpineDetector().detect(RGBImage(width: w, height: h, fill: (90, 90, 90)))
            #expect(result.spines.allSatisfy { $0.quad.points.allSatisfy { (0...1).contains($0.x) && (0...1).contains($0.y) } })
        }
    }

    @Test func parametersComeFromTheVersionedModelFile() throws {
        let parameters = try DetectorParameters.load(file: "detector-v2.json")
        #expect(parameters.version == "detector-v2.28")
        #expect(parameters == DetectorParameters.bundled)
        #expect(parameters.minWidthRatio < parameters.widthRatioMedian && parameters.widthRatioMedian < parameters.maxWidthRatio)
    }
}

struct DetectionScoringTests {
    let square = [Point(x: 0, y: 0), Point(x: 2, y: 0), Point(x: 2, y: 2), Point(x: 0, y: 2)]

    @Test func polygonIoU() {
        #expect(PolygonIoU.iou(square, square) == 1)
        let shifted = square.map { Point(x: $0.x + 1, y: $0.y) }
        #expect(abs(PolygonIoU.iou(square, shifted) - 1.0 / 3.0) < 1e-9)
        let far = square.map { Point(x: $0.x + 10, y: $0.y) }
        #expect(PolygonIoU.iou(square, far) == 0)
        // Winding does not matter; a diamond inside the square covers half of it.
        let diamond = [Point(x: 1, y: 0), Point(x: 0, y: 1), Point(x: 1, y: 2), Point(x: 2, y: 1)]
        #expect(abs(PolygonIoU.iou(square, diamond) - 0.5) < 1e-9)
    }

    @Test func partialSpinesAreDontCare() {
        let a = square, b = square.map { Point(x: $0.x + 5, y: $0.y) }, c = square.map { Point(x: $0.x + 10, y: $0.y) }
        // Detections on a (a hit), on b (partial: ignored), and one on nothing (a false positive); c is missed.
        let far = square.map { Point(x: $0.x + 50, y: $0.y) }
        let score = DetectionScore.score(detections: [a, b, far], truth: [(a, false), (b, true), (c, false)])
        #expect(score.truePositives == 1)
        #expect(score.falsePositives == 1)
        #expect(score.falseNegatives == 1)
        #expect(score.f1 == 0.5)
    }
}
