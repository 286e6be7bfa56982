import Foundation
import Testing
import ShelfImage
@testable import SpineDetection

/// The row-level cue: a band is kept only when its spines, as a whole, have clear boundaries.
@Suite struct RowSupportTests {
    private func found(_ confidence: Double, lying: Bool = false) -> RowSpines.Found {
        RowSpines.Found(quad: Quad(topLeft: Point(x: 0, y: 0), topRight: Point(x: 1, y: 0),
                                   bottomRight: Point(x: 1, y: 1), bottomLeft: Point(x: 0, y: 1)),
                        confidence: confidence, lying: lying)
    }

    @Test func supportIsTheMedianStandingConfidence() {
        // One strong cut among weak ones does not make a row of books.
        #expect(SpineDetector.rowSupport([found(0.9), found(0.2), found(0.25), found(0.3), found(0.1)]) == 0.25)
        #expect(abs(SpineDetector.rowSupport([found(0.6), found(0.7)]) - 0.65) < 1e-9)
        // Lying books do not vote while standing ones are there; a stack alone is judged on its own.
        #expect(SpineDetector.rowSupport([found(0.6), found(0.1, lying: true), found(0.1, lying: true)]) == 0.6)
        #expect(SpineDetector.rowSupport([found(0.3, lying: true)]) == 0.3)
        #expect(SpineDetector.rowSupport([]) == 0)
    }

    @Test func aWeakRowKeepsItsLyingBooksOnly() {
        // Stray pieces between face-out pictures, and a stack the row's search cut into two books.
        let row = [found(0.2), found(0.3), found(0.7, lying: true), found(0.8, lying: true), found(0.25)]
        let support = SpineDetector.rowSupport(row)
        var p = DetectorParameters.bundled
        #expect(support < p.rowMinSupport!)
        let kept = SpineDetector.supported(row, support: support, p)
        #expect(kept.count == 2 && kept.allSatisfy(\.lying))
        p.weakRowsKeepLying = false
        #expect(SpineDetector.supported(row, support: support, p).isEmpty)
        // A supported row keeps every box, standing or lying.
        #expect(SpineDetector.supported(row, support: p.rowMinSupport!, p).count == row.count)
    }

    @Test func noSpinesOnAPavementBelowTheShelf() {
        // Books on a board in the upper part; below it a grey pavement crossed by faint, irregular cracks.
        var f = DrawnShelf(width: 640, height: 560)
        f.board(y: 300, thickness: 40)
        f.standing(from: 30, floorY: 300, widths: [48, 55, 42, 60, 50, 45, 58, 52, 47, 44, 56], heights: [240, 225, 250])
        f.rect(0, 340, 640, 220, (120, 118, 112))
        var rng = SplitMix(seed: 7)
        var x = 10.0
        while x < 630 {
            let shade = UInt8(95 + rng.next() % 12)
            let drift = Double(rng.next() % 21) - 10
            f.fill(Quad(topLeft: Point(x: x, y: 350), topRight: Point(x: x + 2, y: 350),
                        bottomRight: Point(x: x + 2 + drift, y: 560), bottomLeft: Point(x: x + drift, y: 560)), (shade, shade, shade))
            x += 18 + Double(rng.next() % 40)
        }
        let r = SpineDetector().detect(f.image)
        let onPavement = r.spines.filter { $0.boundingBox.y > 345.0 / 560 }
        #expect(onPavement.isEmpty, "\(onPavement.count) boxes on the pavement")
        // The books above are still found.
        let truth = f.spines.map { q in (q.points.map { Point(x: $0.x / 640, y: $0.y / 560) }, false) }
        let s = DetectionScore.score(detections: r.spines.map(\.quad.points), truth: truth)
        #expect(s.hits >= f.spines.count - 1, "hits \(s.hits) of \(f.spines.count)")
    }

    @Test func aTiledFloorRunningOutOfThePhotoIsNoRow() {
        // Books on a board; below it a tiled floor whose joints are as strong and regular as spine boundaries,
        // running on out of the photo's bottom edge: nothing stands on anything there.
        let f = Self.booksAboveATiledFloor(board: 40)
        let truth = f.spines.map { q in (q.points.map { Point(x: $0.x / 640, y: $0.y / 560) }, false) }
        let r = SpineDetector().detect(f.image)
        #expect(r.spines.filter { $0.boundingBox.y > 345.0 / 560 }.isEmpty)
        #expect(DetectionScore.score(detections: r.spines.map(\.quad.points), truth: truth).hits >= f.spines.count - 1)
        // The floor's joints make it a band of vertical edges like a row of books; it is not searched because
        // it runs out of the photo.
        var p = DetectorParameters.bundled
        let maps = SpineDetector(parameters: p).workingMaps(f.image).0
        #expect(RowFinder.rows(maps, p).allSatisfy { $0.bottom < maps.height - 3 })
        p.rowsNeedVisibleFeet = false
        #expect(RowFinder.rows(maps, p).contains { $0.bottom >= maps.height - 3 && $0.top > maps.height / 2 })
    }

    @Test func booksOnAThinBoardAboveATiledFloorAreStillARow() {
        // The board is so thin that the floor's band of edges comes within the gap that closes glare streaks
        // across books: the row and the floor must not become one band that runs out of the photo and is dropped.
        let f = Self.booksAboveATiledFloor(board: 10)
        let truth = f.spines.map { q in (q.points.map { Point(x: $0.x / 640, y: $0.y / 560) }, false) }
        let r = SpineDetector().detect(f.image)
        #expect(r.spines.filter { $0.boundingBox.y > 315.0 / 560 }.isEmpty)
        let hits = DetectionScore.score(detections: r.spines.map(\.quad.points), truth: truth).hits
        #expect(hits >= f.spines.count - 1, "hits \(hits) of \(f.spines.count)")
        let p = DetectorParameters.bundled
        let maps = SpineDetector(parameters: p).workingMaps(f.image).0
        #expect(RowFinder.rows(maps, p).contains { abs($0.bottom - 300 * maps.height / 560) < maps.height / 40 })
    }

    @Test func aCloseUpOfOneRowWithItsBoardAtThePhotosEdgeIsFound() {
        // One row photographed close up: the books fill the picture and their board is a strip three pixels
        // high at its bottom edge, within the gap that joins bands. The band runs out of the photo like a
        // floor, but it fills most of it, so it is searched.
        var f = DrawnShelf(width: 640, height: 420)
        f.board(y: 417, thickness: 3)
        f.standing(from: 12, floorY: 417, widths: [48, 55, 42, 60, 50, 45, 58, 52, 47, 44, 56, 49], heights: [380, 365, 395])
        let truth = f.spines.map { q in (q.points.map { Point(x: $0.x / 640, y: $0.y / 420) }, false) }
        let r = SpineDetector().detect(f.image)
        let hits = DetectionScore.score(detections: r.spines.map(\.quad.points), truth: truth).hits
        #expect(hits >= f.spines.count - 1, "hits \(hits) of \(f.spines.count)")
        // Without the close-up rule the one band runs out of the photo and nothing is searched.
        var p = DetectorParameters.bundled
        p.footlessRowMinHeight = nil
        #expect(SpineDetector(parameters: p).detect(f.image).spines.isEmpty)
    }

    /// Eleven books standing on a board at y 300 of a 640 × 560 picture, a tiled floor from the board's
    /// underside to the bottom edge.
    static func booksAboveATiledFloor(board thickness: Double) -> DrawnShelf {
        var f = DrawnShelf(width: 640, height: 560)
        f.board(y: 300, thickness: thickness)
        f.standing(from: 30, floorY: 300, widths: [48, 55, 42, 60, 50, 45, 58, 52, 47, 44, 56], heights: [240, 225, 250])
        var rng = SplitMix(seed: 11)
        let floorTop = 300 + thickness
        for x in stride(from: 0.0, to: 640, by: 30) {
            for y in stride(from: floorTop, to: 560, by: 45) {
                let shade = UInt8(120 + rng.next() % 60)
                f.rect(x + 3, y + 3, 27, 42, (shade, shade &+ 15, shade &+ 8))
            }
            f.rect(x, floorTop, 3, 560 - floorTop, (60, 70, 65))
        }
        return f
    }
}

/// A small deterministic generator, so the drawn cracks are the same on every run.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
