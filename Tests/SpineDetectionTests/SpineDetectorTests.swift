import Foundation
import Testing
import ShelfImage
@testable import SpineDetection

/// Normalized versions of pixel quads, for IoU against detections.
private func normalized(_ q: Quad, _ img: RGBImage) -> [Point] {
    q.points.map { Point(x: $0.x / Double(img.width), y: $0.y / Double(img.height)) }
}

private func score(_ r: DetectionResult, _ truth: [Quad], _ img: RGBImage) -> DetectionScore {
    DetectionScore.score(detections: r.spines.map(\.quad.points), truth: truth.map { (normalized($0, img), false) })
}

@Suite struct SpineDetectorTests {
    @Test func findsEveryUprightSpineOnOneShelf() {
        let f = twelveSpines()
        let widths = f.spines
        let r = SpineDetector().detect(f.image)
        let s = score(r, f.spines, f.image)
        #expect(r.rows.count == 1)
        #expect(s.hits >= widths.count - 1, "hits \(s.hits) of \(widths.count), detections \(r.spines.count)")
        #expect(s.falsePositives <= 1)
        // Reading order: positions count up from the left.
        let xs = r.spines.map { $0.boundingBox.x }
        #expect(xs == xs.sorted())
        #expect(r.spines.map(\.position) == Array(0..<r.spines.count))
    }

    @Test func followsTiltedSpines() {
        var f = DrawnShelf(width: 640, height: 420)
        f.board(y: 380, thickness: 40)
        let widths: [Double] = [45, 52, 40, 60, 48, 42, 55, 50, 44]
        f.standing(from: 40, floorY: 380, widths: widths, heights: [300, 290, 310], lean: 0.12)
        let r = SpineDetector().detect(f.image)
        let s = score(r, f.spines, f.image)
        #expect(s.hits >= widths.count - 1, "hits \(s.hits) of \(widths.count), detections \(r.spines.count)")
        #expect(s.meanIoU > 0.7)
        // The quads lean the same way as the books: top edge right of the bottom edge.
        let leaning = r.spines.filter { $0.quad.topLeft.x > $0.quad.bottomLeft.x }.count
        #expect(leaning >= r.spines.count - 1)
    }

    @Test func findsTwoRows() {
        var f = DrawnShelf(width: 480, height: 640)
        f.board(y: 290, thickness: 30)
        f.board(y: 600, thickness: 40)
        f.standing(from: 20, floorY: 290, widths: [40, 50, 36, 60, 45, 52, 38, 44], heights: [220, 240, 210])
        f.standing(from: 30, floorY: 600, widths: [55, 42, 48, 60, 36, 50, 46], heights: [230, 250, 215], colourOffset: 3)
        let r = SpineDetector().detect(f.image)
        #expect(r.rows.count == 2)
        let s = score(r, f.spines, f.image)
        #expect(s.hits >= f.spines.count - 2, "hits \(s.hits) of \(f.spines.count)")
        #expect(Set(r.spines.map(\.row)) == [0, 1])
    }

    @Test func splitsALyingStackIntoBooks() {
        var f = DrawnShelf(width: 640, height: 420)
        f.board(y: 380, thickness: 40)
        f.standing(from: 20, floorY: 380, widths: [44, 52, 40, 60, 48, 38], heights: [300, 290, 310])
        // Five books lying flat, 230 px long, 26-40 px thick, stacked on the board.
        var y = 380.0
        var lying: [Quad] = []
        for (k, t) in [34.0, 28, 40, 26, 36].enumerated() {
            f.rect(330, y - t, 230, t, DrawnShelf.palette[(k + 5) % DrawnShelf.palette.count])
            f.rect(330, y - 1.5, 230, 1.5, (15, 15, 15))
            lying.append(Quad(topLeft: Point(x: 330, y: y), topRight: Point(x: 330, y: y - t),
                              bottomRight: Point(x: 560, y: y - t), bottomLeft: Point(x: 560, y: y)))
            y -= t
        }
        let r = SpineDetector().detect(f.image)
        let flat = r.spines.filter(\.lying)
        let s = DetectionScore.score(detections: flat.map(\.quad.points), truth: lying.map { (normalized($0, f.image), false) })
        #expect(s.hits >= 4, "lying hits \(s.hits) of 5, lying detections \(flat.count)")
        #expect(flat.allSatisfy { $0.row == 0 })
        let upright = score(DetectionResult(rows: r.rows, spines: r.spines.filter { !$0.lying }), Array(f.spines.prefix(6)), f.image)
        #expect(upright.hits >= 5)
    }

    /// Three books lying flat between standing ones, their stack no wider than a thick book stands (half the
    /// row's height) and without print: too narrow to be searched as a wide piece, cut into its books all the same.
    @Test func splitsAShortNarrowStackIntoBooks() {
        var f = DrawnShelf(width: 640, height: 420)
        f.board(y: 380, thickness: 40)
        f.standing(from: 20, floorY: 380, widths: [44, 52, 40, 60, 48], heights: [300, 290, 310])
        f.standing(from: 420, floorY: 380, widths: [46, 50, 42, 58], heights: [295, 305], colourOffset: 3)
        var y = 380.0
        var lying: [Quad] = []
        for (k, t) in [30.0, 24, 34].enumerated() {
            f.rect(300, y - t, 120, t, DrawnShelf.palette[(k + 6) % DrawnShelf.palette.count])
            f.rect(300, y - t, 120, 1.5, (15, 15, 15))
            lying.append(Quad(topLeft: Point(x: 300, y: y), topRight: Point(x: 300, y: y - t),
                              bottomRight: Point(x: 420, y: y - t), bottomLeft: Point(x: 420, y: y)))
            y -= t
        }
        let flat = SpineDetector().detect(f.image).spines.filter(\.lying)
        let s = DetectionScore.score(detections: flat.map(\.quad.points), truth: lying.map { (normalized($0, f.image), false) })
        #expect(s.hits >= 2, "lying hits \(s.hits) of 3, lying detections \(flat.count)")
        // Without the narrow stack search no book lies there.
        var parameters = DetectorParameters.bundled
        parameters.narrowStackMinWidthRatio = nil
        let before = SpineDetector(parameters: parameters).detect(f.image).spines.filter(\.lying)
        #expect(DetectionScore.score(detections: before.map(\.quad.points), truth: lying.map { (normalized($0, f.image), false) }).hits == 0)
    }

    /// A title block printed on a wide spine has long vertical edges and a strong colour change, but its
    /// edges stop short of the board; a boundary between books runs down to it.
    @Test func titleBlocksDoNotSplitWideSpines() {
        var f = DrawnShelf(width: 640, height: 420)
        f.board(y: 380, thickness: 40)
        let widths: [Double] = [70, 84, 66, 90, 76, 80]
        f.standing(from: 30, floorY: 380, widths: widths, heights: [300, 285, 310])
        for q in f.spines {
            let x = q.topLeft.x, w = q.topRight.x - q.topLeft.x, top = q.topLeft.y
            f.rect(x + w * 0.25, top + 15, w * 0.5, 380 - 70 - (top + 15), (245, 240, 225))
        }
        let r = SpineDetector().detect(f.image)
        let s = score(r, f.spines, f.image)
        #expect(s.hits >= widths.count - 1, "hits \(s.hits) of \(widths.count), detections \(r.spines.count)")
        #expect(s.falsePositives <= 1, "detections \(r.spines.count)")
    }

    /// Twelve upright spines of mixed widths and heights on one board.
    private func twelveSpines() -> DrawnShelf {
        var f = DrawnShelf(width: 640, height: 420)
        f.board(y: 380, thickness: 40)
        f.standing(from: 20, floorY: 380, widths: [38, 52, 30, 61, 44, 35, 70, 48, 40, 55, 33, 46], heights: [300, 280, 310, 265])
        return f
    }

    /// `altered` (the same shelf, photographed worse) is cut like the original: at most one hit lost
    /// and one false positive gained.
    private func expectCutLikeTheOriginal(_ f: DrawnShelf, _ altered: RGBImage, _ what: String) {
        let original = score(SpineDetector().detect(f.image), f.spines, f.image)
        let worse = score(SpineDetector().detect(altered), f.spines, altered)
        #expect(worse.hits >= original.hits - 1, "\(what) hits \(worse.hits), original \(original.hits)")
        #expect(worse.falsePositives <= original.falsePositives + 1, "\(what)")
    }

    /// A box blur of radius `r`, per channel.
    private func blurred(_ img: RGBImage, radius r: Int) -> RGBImage {
        let w = img.width, h = img.height
        var out = img
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<3 {
                    var sum = 0, n = 0
                    for dy in -r...r where y + dy >= 0 && y + dy < h {
                        for dx in -r...r where x + dx >= 0 && x + dx < w { sum += Int(img.pixels[((y + dy) * w + x + dx) * 3 + c]); n += 1 }
                    }
                    out.pixels[(y * w + x) * 3 + c] = UInt8(sum / n)
                }
            }
        }
        return out
    }

    /// Soft focus and haze weaken every boundary of a row alike; a blurred, low-contrast copy of a shelf
    /// is still cut like the original. The blur is a 5-px box applied twice (a 9-px triangle, as a
    /// defocused lens spreads an edge; some 50 px on the 12 MP photo).
    @Test func softFocusAndHazeDoNotChangeTheCut() {
        let f = twelveSpines()
        var hazy = blurred(blurred(f.image, radius: 2), radius: 2)
        for i in hazy.pixels.indices { hazy.pixels[i] = UInt8(110 + Int(hazy.pixels[i]) * 40 / 100) }
        expectCutLikeTheOriginal(f, hazy, "hazy")
    }

    /// The edge floor and the cue scales are absolute, so the working image is stretched to full contrast
    /// first: an underexposed photo of a shelf is cut like a well-exposed one.
    @Test func underexposedShelfIsCutLikeTheOriginal() {
        let f = twelveSpines()
        var dark = f.image
        for i in dark.pixels.indices { dark.pixels[i] = UInt8(Int(dark.pixels[i]) * 12 / 100) }
        expectCutLikeTheOriginal(f, dark, "underexposed")
    }

    /// Dim, flat light (an indoor shelf in the evening): 6% of the contrast, dark. The stretch must bring the
    /// spines' edges back over the edge floor; at a gain of 2 (detector v2.19) 5 of the 12 were found.
    @Test func dimFlatShelfIsCutLikeTheOriginal() {
        let f = twelveSpines()
        var dim = f.image
        for i in dim.pixels.indices { dim.pixels[i] = UInt8(40 + Int(dim.pixels[i]) * 6 / 100) }
        expectCutLikeTheOriginal(f, dim, "dim and flat")
    }

    @Test func stretchLeavesAFullRangeImageAloneAndNeverClips() {
        var img = RGBImage(width: 64, height: 8)
        for x in 0..<64 { for y in 0..<8 { img.pixels[(y * 64 + x) * 3] = UInt8(x * 4); img.pixels[(y * 64 + x) * 3 + 1] = UInt8(x * 4); img.pixels[(y * 64 + x) * 3 + 2] = UInt8(x * 4) } }
        #expect(SpineDetector.stretched(img, maxGain: 2) == img)
        var dim = img
        for i in dim.pixels.indices { dim.pixels[i] = 100 + dim.pixels[i] / 8 }   // 100...131
        let s = SpineDetector.stretched(dim, maxGain: 2)
        let before = Set(dim.pixels).count, after = Set(s.pixels).count
        #expect(after == before)                                  // order kept, no two levels merged
        #expect((s.pixels.max()! - s.pixels.min()!) > (dim.pixels.max()! - dim.pixels.min()!))
        #expect(SpineDetector.stretched(RGBImage(width: 5, height: 5, fill: (r: 90, g: 90, b: 90)), maxGain: 2).pixels.allSatisfy { $0 == 90 })
    }

    /// A photo taken 5 or 10 degrees off level (a phone held casually): the roll is found from the shelf lines
    /// and undone, and the quads come back in the photo's own frame, on the tilted spines.
    @Test(arguments: [5.0, 10.0])
    func aPhotoTakenOffLevelIsLevelledAndMappedBack(degrees: Double) throws {
        var f = DrawnShelf(width: 640, height: 480)
        f.board(y: 210, thickness: 24)
        f.board(y: 440, thickness: 40)
        f.standing(from: 30, floorY: 210, widths: [40, 52, 36, 58, 45, 50, 38, 44, 60, 42], heights: [170, 160, 180])
        f.standing(from: 40, floorY: 440, widths: [55, 42, 48, 60, 36, 50, 46, 52, 40], heights: [180, 170, 190], colourOffset: 3)
        let deskew = Deskew(angle: degrees * .pi / 180, centre: Point(x: 320, y: 240))
        // Render the shelf turned: each pixel of the photo shows the shelf at the levelled position.
        let inverse = Deskew(angle: -deskew.angle, centre: deskew.centre)
        let photo = inverse.levelled(f.image, width: f.image.width, height: f.image.height)
        let truth = f.spines.map { q in
            Quad(topLeft: deskew.source(q.topLeft), topRight: deskew.source(q.topRight),
                 bottomRight: deskew.source(q.bottomRight), bottomLeft: deskew.source(q.bottomLeft))
        }
        let found = try #require(SpineDetector().workingMaps(photo).1)
        #expect(abs(found.angle * 180 / .pi - degrees) <= 0.5)
        let r = SpineDetector().detect(photo)
        let s = score(r, truth, photo)
        #expect(r.rows.count == 2)
        // Row lines come back tilted with the photo (normalized slope: tan of the roll scaled by width / height).
        let expected: Double = Foundation.tan(degrees * Double.pi / 180) * 640 / 480
        for row in r.rows { #expect(abs(row.slope - expected) < 0.02, "\(row.slope)") }
        #expect(s.hits >= truth.count - 2, "hits \(s.hits) of \(truth.count), detections \(r.spines.count)")
        #expect(s.meanIoU > 0.7)
    }

    @Test func aLevelPhotoIsNotTurned() {
        #expect(SpineDetector().workingMaps(twelveSpines().image).1 == nil)
    }

    @Test func uniformImageHasNoSpines() {
        let r = SpineDetector().detect(RGBImage(width: 800, height: 600, fill: (r: 128, g: 128, b: 128)))
        #expect(r.spines.isEmpty)
        #expect(r.rows.isEmpty)
    }

    @Test(arguments: [(0, 0), (1, 1), (1, 500), (500, 1), (7, 7), (8, 8), (3, 2000), (40, 30)])
    func tinyAndDegenerateSizesDoNotCrash(size: (Int, Int)) {
        var img = RGBImage(width: size.0, height: size.1)
        for i in stride(from: 0, to: img.pixels.count, by: 7) { img.pixels[i] = UInt8(i % 251) }
        let r = SpineDetector().detect(img)
        for s in r.spines {
            for p in s.quad.points { #expect((0...1).contains(p.x) && (0...1).contains(p.y)) }
        }
    }

    @Test func coordinatesAreIndependentOfInputScale() {
        var f = DrawnShelf(width: 1280, height: 840)
        f.board(y: 760, thickness: 80)
        f.standing(from: 40, floorY: 760, widths: [80, 104, 66, 120, 90, 76, 140, 96], heights: [600, 560, 620])
        let big = SpineDetector().detect(f.image)
        let small = SpineDetector().detect(f.image.downscaled(maxSide: 640))
        #expect(big.spines.count == small.spines.count)
        for (a, b) in zip(big.spines, small.spines) { #expect(PolygonIoU.iou(a.quad, b.quad) > 0.8) }
    }

    @Test func bundledParametersLoadFromModels() {
        #expect(DetectorParameters.bundled.version == "detector-v2.28")
        #expect(DetectorParameters.bundled == DetectorParameters.fallback)
    }
}
