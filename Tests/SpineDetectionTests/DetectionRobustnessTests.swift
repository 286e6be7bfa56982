import Foundation
import Testing
import ShelfImage
import ShelfScanTestSupport
@testable import SpineDetection

/// Bad input never crashes a scan: whatever photo and whatever text evidence the detector is handed
/// (a model misbehaving, a caller building evidence by hand), it answers with boxes inside the photo and
/// confidences that are probabilities. Cases are generated from fixed seeds, so a failure reproduces.
@Suite struct DetectionRobustnessTests {
    // MARK: Photos

    enum Photo: String, CaseIterable, Sendable {
        case onePixel, eightSquare, thinTall, thinWide, eightByTall, tallByEight, uniform, noise, shelf, fixture, tilted

        var image: RGBImage {
            switch self {
            case .onePixel: return RGBImage(width: 1, height: 1, fill: (10, 20, 30))
            case .eightSquare: return Self.noiseImage(width: 8, height: 8, seed: 2)
            case .thinTall: return Self.noiseImage(width: 3, height: 2000, seed: 3)
            case .thinWide: return Self.noiseImage(width: 2000, height: 3, seed: 4)
            case .eightByTall: return Self.noiseImage(width: 8, height: 600, seed: 5)
            case .tallByEight: return Self.noiseImage(width: 600, height: 8, seed: 6)
            case .uniform: return RGBImage(width: 200, height: 150, fill: (128, 128, 128))
            case .noise: return Self.noiseImage(width: 240, height: 180, seed: 7)
            case .shelf: return Self.drawnShelf().image
            case .fixture: return ShelfFixture.make(width: 320, height: 200, spineCount: 9, seed: 11).image
            case .tilted:
                // The drawn shelf turned 4 degrees: the detector levels it before finding rows (`Deskew`).
                let image = Self.drawnShelf().image
                let w = Double(image.width), h = Double(image.height), a = 4 * Double.pi / 180
                func turned(_ x: Double, _ y: Double) -> Point {
                    let dx = x - w / 2, dy = y - h / 2
                    return Point(x: w / 2 + dx * cos(a) - dy * sin(a), y: h / 2 + dx * sin(a) + dy * cos(a))
                }
                return image.warped(Quad(topLeft: turned(0, 0), topRight: turned(w, 0), bottomRight: turned(w, h), bottomLeft: turned(0, h)),
                                    width: image.width, height: image.height)
            }
        }

        static func noiseImage(width: Int, height: Int, seed: UInt64) -> RGBImage {
            var rng = SplitMix64(seed: seed)
            return RGBImage(width: width, height: height, pixels: (0..<(width * height * 3)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        }

        /// Two rows of standing books over boards, and a cover lying face up on the lower board.
        static func drawnShelf() -> DrawnShelf {
            var s = DrawnShelf(width: 320, height: 240)
            s.standing(from: 10, floorY: 100, widths: [22, 26, 20, 30, 24, 19, 25, 23, 28, 21], heights: [80, 75, 85])
            s.board(y: 100, thickness: 8)
            s.standing(from: 10, floorY: 220, widths: [24, 20, 28, 22, 26], heights: [90, 85, 95], colourOffset: 3)
            s.board(y: 220, thickness: 10)
            s.fill(Quad(topLeft: Point(x: 170, y: 160), topRight: Point(x: 290, y: 156),
                        bottomRight: Point(x: 294, y: 216), bottomLeft: Point(x: 168, y: 219)), (40, 90, 170))
            return s
        }
    }

    // MARK: Text evidence

    enum Evidence: String, CaseIterable, Sendable {
        case emptyGrid, mismatchedGrid, onePixelGrid, allOnes, allZeros, allNaN, negative, aboveOne, infinite, randomGrid
        case pointLines, collinearLines, outsideLines, nonFiniteLines, hugeLines, overlappingRows, everyAngle, biggerThanPhoto
        case coverPrint, randomLines

        var evidence: TextEvidence {
            let w = 64, h = 48
            switch self {
            case .emptyGrid: return TextEvidence(width: 0, height: 0, probability: [], lines: Self.coverLines)
            case .mismatchedGrid: return TextEvidence(width: 10, height: 10, probability: [0.9, 0.9, 0.9], lines: Self.coverLines)
            case .onePixelGrid: return TextEvidence(width: 1, height: 1, probability: [1], lines: Self.coverLines)
            case .allOnes: return Self.grid(w, h, { _, _ in 1 }, Self.coverLines)
            case .allZeros: return Self.grid(w, h, { _, _ in 0 }, Self.coverLines)
            case .allNaN: return Self.grid(w, h, { _, _ in .nan }, Self.coverLines)
            case .negative: return Self.grid(w, h, { _, _ in -3 }, Self.coverLines)
            case .aboveOne: return Self.grid(w, h, { x, y in (x + y) % 3 == 0 ? 7 : 0.5 }, Self.coverLines)
            case .infinite: return Self.grid(w, h, { x, _ in x % 2 == 0 ? .infinity : -.infinity }, Self.coverLines)
            case .randomGrid:
                var rng = SplitMix64(seed: 21)
                return Self.grid(w, h, { _, _ in Float(rng.next() % 1000) / 1000 }, Self.coverLines)
            case .pointLines:
                return Self.printed([Point(x: 0.5, y: 0.5), Point(x: 0, y: 0), Point(x: 1, y: 1)].map { p in Self.line(p, p, p, p) })
            case .collinearLines:
                return Self.printed([Self.line(Point(x: 0.1, y: 0.7), Point(x: 0.5, y: 0.7), Point(x: 0.9, y: 0.7), Point(x: 0.3, y: 0.7)),
                                     Self.line(Point(x: 0.2, y: 0.1), Point(x: 0.2, y: 0.5), Point(x: 0.2, y: 0.9), Point(x: 0.2, y: 0.3)),
                                     Self.line(Point(x: 0.1, y: 0.1), Point(x: 0.5, y: 0.5), Point(x: 0.9, y: 0.9), Point(x: 0.3, y: 0.3))])
            case .outsideLines:
                return Self.printed([Self.rect(-5, -5, 7, 7), Self.rect(-5, 0.4, 7, 0.6), Self.rect(0.4, -5, 0.6, 7), Self.rect(2, 2, 3, 3)])
            case .nonFiniteLines:
                let bad: [Double] = [.nan, .infinity, -.infinity]
                return Self.printed(bad.flatMap { v in
                    [Self.rect(v, 0.5, 0.8, 0.6), Self.rect(0.2, v, 0.8, 0.6), Self.rect(0.2, 0.5, v, 0.6), Self.rect(0.2, 0.5, 0.8, v),
                     Self.line(Point(x: 0.2, y: 0.5), Point(x: 0.8, y: 0.5), Point(x: 0.8, y: 0.6), Point(x: v, y: v))]
                } + Self.coverLines, score: .nan)
            case .hugeLines:
                return Self.printed([Self.rect(-1e300, 0.5, 1e300, 0.6), Self.rect(0.1, 0.1, 1e300, 1e300), Self.rect(0.5, 0.5, 0.5 + 1e-300, 0.6)])
            case .overlappingRows:
                // Hundreds of horizontal lines piled over each other across the lower row and its board.
                var rng = SplitMix64(seed: 31)
                return Self.printed((0..<300).map { _ in
                    let x = Double(rng.next() % 600) / 1000, y = 0.6 + Double(rng.next() % 300) / 1000
                    return Self.rect(x, y, x + 0.1 + Double(rng.next() % 300) / 1000, y + 0.02 + Double(rng.next() % 40) / 1000)
                })
            case .everyAngle:
                return Self.printed(stride(from: 0.0, to: 360, by: 7.5).map { deg in
                    let a = deg * .pi / 180, u = Point(x: cos(a), y: sin(a)), v = Point(x: -sin(a), y: cos(a))
                    let c = Point(x: 0.5 + 0.3 * cos(3 * a), y: 0.5 + 0.3 * sin(2 * a))
                    func p(_ s: Double, _ t: Double) -> Point { Point(x: c.x + s * 0.15 * u.x + t * 0.02 * v.x, y: c.y + s * 0.15 * u.y + t * 0.02 * v.y) }
                    return Self.line(p(-1, -1), p(1, -1), p(1, 1), p(-1, 1))
                })
            case .biggerThanPhoto:
                return Self.printed([Self.rect(-0.9, 0.7, 1.9, 0.85), Self.rect(-0.5, -0.5, 1.5, 1.5), Self.rect(0.3, -0.9, 0.4, 1.9)])
            case .coverPrint: return Self.printed(Self.coverLines)
            case .randomLines:
                var rng = SplitMix64(seed: 41)
                func r() -> Double { Double(rng.next() % 3000) / 1000 - 1 }
                return Self.printed((0..<60).map { _ in Self.line(Point(x: r(), y: r()), Point(x: r(), y: r()), Point(x: r(), y: r()), Point(x: r(), y: r())) })
            }
        }

        /// The lying cover's title lines on the drawn shelf, normalized.
        static let coverLines = [rect(0.59, 0.70, 0.84, 0.73), rect(0.6, 0.76, 0.78, 0.79), rect(0.63, 0.84, 0.75, 0.87)]

        static func line(_ a: Point, _ b: Point, _ c: Point, _ d: Point, score: Double = 0.9) -> TextLine {
            TextLine(quad: Quad(topLeft: a, topRight: b, bottomRight: c, bottomLeft: d), score: score)
        }

        static func rect(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> TextLine {
            line(Point(x: x0, y: y0), Point(x: x1, y: y0), Point(x: x1, y: y1), Point(x: x0, y: y1))
        }

        static func grid(_ w: Int, _ h: Int, _ value: (Int, Int) -> Float, _ lines: [TextLine]) -> TextEvidence {
            var p = [Float](repeating: 0, count: w * h)
            for y in 0..<h { for x in 0..<w { p[y * w + x] = value(x, y) } }
            return TextEvidence(width: w, height: h, probability: p, lines: lines)
        }

        /// A grid lit where the (finite) lines are, as the text detector's map is.
        static func printed(_ lines: [TextLine], score: Double = 0.9) -> TextEvidence {
            let lines = lines.map { TextLine(quad: $0.quad, score: score) }
            let w = 80, h = 60
            var p = [Float](repeating: 0, count: w * h)
            for l in lines where l.quad.points.allSatisfy({ $0.x.isFinite && $0.y.isFinite && abs($0.x) < 10 && abs($0.y) < 10 }) {
                for y in 0..<h { for x in 0..<w where TextEvidence.contains(l.quad.points, Point(x: (Double(x) + 0.5) / Double(w), y: (Double(y) + 0.5) / Double(h))) {
                    p[y * w + x] = 0.9
                } }
            }
            return TextEvidence(width: w, height: h, probability: p, lines: lines)
        }
    }

    // MARK: Checks

    /// What every detection must hold, whatever it was given.
    static func check(_ r: (result: DetectionResult, cues: [[Double]], appearance: [[Double]]), _ label: String) {
        let rows = r.result.rows
        for (i, row) in rows.enumerated() {
            #expect(row.index == i, "\(label): row \(i) has index \(row.index)")
            #expect(row.top.isFinite && row.bottom.isFinite && row.slope.isFinite, "\(label): row \(row)")
            #expect(row.top < row.bottom, "\(label): row \(row)")
        }
        for s in r.result.spines {
            #expect(s.quad.points.allSatisfy { $0.x.isFinite && $0.y.isFinite && (0...1).contains($0.x) && (0...1).contains($0.y) },
                    "\(label): quad \(s.quad)")
            #expect(s.confidence.isFinite && (0...1).contains(s.confidence), "\(label): confidence \(s.confidence)")
            #expect(rows.indices.contains(s.row), "\(label): spine in row \(s.row) of \(rows.count)")
            #expect(s.position >= 0, "\(label): position \(s.position)")
        }
        // Each standing box is placed in its row once.
        let standing = r.result.spines.filter { !$0.lying }
        for row in rows.indices {
            let positions = standing.filter { $0.row == row }.map(\.position)
            #expect(Set(positions).count == positions.count, "\(label): row \(row) positions \(positions)")
        }
        // The rows' boxes (standing, and lying books their stack search cut) come first, each with its cues; the
        // books found from print alone follow, all lying.
        let spines = r.result.spines
        #expect(r.cues.count >= standing.count && r.cues.count <= spines.count,
                "\(label): \(r.cues.count) cue sets for \(standing.count) standing boxes of \(spines.count)")
        let afterRows = spines.dropFirst(r.cues.count)
        #expect(afterRows.allSatisfy { $0.lying }, "\(label): a standing box after the rows' boxes")
        #expect(r.cues.allSatisfy { $0.count == SpineDetector.confidenceCueNames.count && $0.allSatisfy(\.isFinite) }, "\(label): cues \(r.cues)")
        #expect(r.appearance.count == r.cues.count && r.appearance.allSatisfy { $0.count == BoxAppearance.names.count && $0.allSatisfy(\.isFinite) },
                "\(label): appearance of \(r.appearance.count) boxes")
    }

    // MARK: Tests

    @Test(arguments: Photo.allCases)
    func anyPhotoWithoutText(_ photo: Photo) {
        Self.check(SpineDetector().detectWithCues(photo.image, text: nil), "\(photo)")
    }

    /// Every kind of bad evidence on the photos that reach the text code (rows found, a cover to find).
    @Test(arguments: Evidence.allCases)
    func badEvidenceOnShelves(_ evidence: Evidence) {
        let e = evidence.evidence
        for photo in [Photo.shelf, .tilted] {
            Self.check(SpineDetector().detectWithCues(photo.image, text: e), "\(photo) + \(evidence)")
        }
    }

    /// Every kind of bad evidence on the degenerate photos, paired in turn so each meets each kind.
    @Test(arguments: Photo.allCases.filter { $0 != .shelf && $0 != .tilted })
    func badEvidenceOnDegeneratePhotos(_ photo: Photo) {
        let image = photo.image
        let kinds = Evidence.allCases
        let offset = Photo.allCases.firstIndex(of: photo)!
        for k in 0..<5 {
            let evidence = kinds[(offset * 5 + k) % kinds.count]
            Self.check(SpineDetector().detectWithCues(image, text: evidence.evidence), "\(photo) + \(evidence)")
        }
    }

    /// Random lines and grids, mixing sane and broken values, over the drawn shelves.
    @Test(arguments: 0..<6)
    func fuzzedEvidence(_ seed: Int) {
        var rng = SplitMix64(seed: 1000 + UInt64(seed))
        let specials: [Double] = [.nan, .infinity, -.infinity, 1e300, -1e300, -5, 7, 0, 1, 0.5]
        func coordinate() -> Double {
            rng.next() % 8 == 0 ? specials[Int(rng.next() % UInt64(specials.count))] : Double(rng.next() % 1400) / 1000 - 0.2
        }
        func corner() -> Point { Point(x: coordinate(), y: coordinate()) }
        let w = Int(rng.next() % 40), h = Int(rng.next() % 40)
        let cellValues: [Float] = [.nan, .infinity, -1, 2, 0, 1, 0.31, 0.9]
        let probability = (0..<(w * h)).map { _ in cellValues[Int(rng.next() % UInt64(cellValues.count))] }
        var lines: [TextLine] = []
        for _ in 0..<Int(rng.next() % 40) {
            if rng.next() % 2 == 0 {
                // A roughly horizontal line of sane size, as a cover's print.
                let x = Double(rng.next() % 800) / 1000, y = Double(rng.next() % 900) / 1000
                lines.append(Evidence.rect(x, y, x + Double(rng.next() % 300) / 1000, y + Double(rng.next() % 50) / 1000))
            } else {
                lines.append(Evidence.line(corner(), corner(), corner(), corner(), score: coordinate()))
            }
        }
        let evidence = TextEvidence(width: w, height: h, probability: probability, lines: lines)
        for photo in [Photo.shelf, .tilted, .fixture] {
            Self.check(SpineDetector().detectWithCues(photo.image, text: evidence), "\(photo) + seed \(seed)")
        }
    }

    /// The cases above are not vacuous: the drawn shelves give rows (so text seeds, joins and row cues
    /// run), the turned one is levelled first, and the cover's print gives a lying box.
    @Test func theShelvesReachTheTextCode() {
        // Scored by the logistic model: the drawn books are of one flat colour without print, which the box
        // classifier takes for wall, and these shelves must keep their boxes for the text code to reach them.
        var parameters = DetectorParameters.bundled
        parameters.boxClassifier = nil
        let detector = SpineDetector(parameters: parameters)
        #expect(detector.workingMaps(Photo.tilted.image).1 != nil, "the turned shelf is levelled")
        for photo in [Photo.shelf, .tilted] {
            let r = detector.detectWithCues(photo.image, text: Evidence.coverPrint.evidence)
            #expect(r.result.rows.count >= 2, "\(photo): \(r.result.rows.count) rows")
            #expect(r.result.spines.filter { !$0.lying }.count >= 8, "\(photo): \(r.result.spines.count) boxes")
        }
    }

    @Test func evidenceIsCleanedAtTheBoundary() {
        // A grid that does not match its size (or whose size overflows) is dropped; the lines stay.
        let mismatched = TextEvidence(width: 10, height: 10, probability: [1, 1], lines: Evidence.coverLines)
        #expect(mismatched.width == 0 && mismatched.height == 0 && mismatched.probability.isEmpty)
        #expect(mismatched.lines.count == Evidence.coverLines.count)
        let overflowing = TextEvidence(width: Int.max, height: 2, probability: [], lines: [])
        #expect(overflowing.width == 0 && overflowing.probability.isEmpty)
        let negative = TextEvidence(width: -2, height: -3, probability: [1, 1, 1, 1, 1, 1], lines: [])
        #expect(negative.width == 0 && negative.probability.isEmpty)
        // Cells read as probabilities.
        let cells = TextEvidence(width: 3, height: 2, probability: [.nan, -1, 2, .infinity, -.infinity, 0.4], lines: [])
        #expect(cells.probability == [0, 0, 1, 1, 0, 0.4])
        // Lines with a corner not finite, or far off the photo, are dropped; scores are held to 0...1.
        let lines = TextEvidence(width: 0, height: 0, probability: [], lines: [
            Evidence.rect(0.1, 0.1, 0.5, .nan), Evidence.rect(-5, 0.1, 7, 0.2), Evidence.rect(0.1, 0.1, 1e300, 0.2),
            Evidence.rect(0.1, 0.1, .infinity, 0.2), Evidence.rect(-0.1, 0.2, 1.1, 0.3),
            Evidence.line(Point(x: 0.1, y: 0.1), Point(x: 0.9, y: 0.1), Point(x: 0.9, y: 0.2), Point(x: 0.1, y: 0.2), score: .nan),
            Evidence.line(Point(x: 0.1, y: 0.1), Point(x: 0.9, y: 0.1), Point(x: 0.9, y: 0.2), Point(x: 0.1, y: 0.2), score: 3),
        ])
        #expect(lines.lines.map(\.score) == [0.9, 0, 1])
        #expect(lines.lines.first?.quad == Evidence.rect(-0.1, 0.2, 1.1, 0.3).quad)
    }

    @Test func printedFractionOfAnyQuadIsAShare() {
        let grid = Evidence.grid(20, 10, { x, _ in x < 10 ? 1 : 0 }, [])
        #expect(grid.printedFraction(inside: Evidence.rect(0, 0, 0.5, 1).quad) == 1)
        #expect(grid.printedFraction(inside: Evidence.rect(0.5, 0, 1, 1).quad) == 0)
        let quads = [Evidence.rect(-1e300, -1e300, 1e300, 1e300), Evidence.rect(.nan, 0, 1, 1), Evidence.rect(0, 0, .infinity, 1),
                     Evidence.rect(-5, -5, 7, 7), Evidence.rect(3, 3, 4, 4), Evidence.rect(0.5, 0.5, 0.5, 0.5),
                     Evidence.line(Point(x: 0, y: 0), Point(x: 1, y: 1), Point(x: 0.5, y: 0.5), Point(x: 0.2, y: 0.2))].map(\.quad)
        for q in quads {
            for e in [grid, TextEvidence(width: 0, height: 0, probability: [], lines: []), Evidence.grid(1, 1, { _, _ in 1 }, [])] {
                let f = e.printedFraction(inside: q)
                #expect(f.isFinite && (0...1).contains(f), "\(q) on \(e.width)x\(e.height): \(f)")
            }
        }
        #expect(grid.printedFraction(inside: quads[0]) == 0.5)
        #expect(grid.printedFraction(inside: quads[4]) == 0)
    }

    /// The print blobs the lying-book finder reads off the grid are finite quads whatever the grid holds.
    @Test func printBlobsOfDegenerateGrids() {
        for e in [Evidence.allOnes, .allNaN, .aboveOne, .infinite, .emptyGrid, .onePixelGrid, .randomGrid].map(\.evidence) {
            for q in LyingBooks.printBlobs(e) {
                #expect(q.points.allSatisfy { $0.x.isFinite && $0.y.isFinite })
            }
        }
        #expect(LyingBooks.printBlobs(Evidence.allOnes.evidence).count == 1)
        #expect(LyingBooks.printBlobs(Evidence.allNaN.evidence).isEmpty)
    }
}
