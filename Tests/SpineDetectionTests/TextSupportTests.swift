import Foundation
import Testing
import ShelfImage
@testable import SpineDetection

/// The text cue's part in detection, on drawn shelves with hand-made text evidence.
@Suite struct TextSupportTests {
    /// Eleven books on one board, found by edges alone.
    private func shelf() -> DrawnShelf {
        var f = DrawnShelf(width: 640, height: 440)
        f.board(y: 330, thickness: 60)
        f.standing(from: 30, floorY: 330, widths: [48, 55, 42, 60, 50, 45, 58, 52, 47, 44, 56], heights: [230, 215, 240])
        return f
    }

    /// Text probability 0.9 over the middle of each given quad (normalized), 0 elsewhere, on a 160 x 110 grid.
    private func evidence(printedOn quads: [Quad]) -> TextEvidence {
        let w = 160, h = 110
        var prob = [Float](repeating: 0, count: w * h)
        for q in quads {
            let xs = q.points.map(\.x), ys = q.points.map(\.y)
            let cx = (xs.min()! + xs.max()!) / 2, cy = (ys.min()! + ys.max()!) / 2
            let halfW = (xs.max()! - xs.min()!) * 0.3, halfH = (ys.max()! - ys.min()!) * 0.3
            for y in Int((cy - halfH) * Double(h))..<Int((cy + halfH) * Double(h)) {
                for x in Int((cx - halfW) * Double(w))..<Int((cx + halfW) * Double(w)) { prob[y * w + x] = 0.9 }
            }
        }
        return TextEvidence(width: w, height: h, probability: prob, lines: [])
    }

    @Test func rowCuesWeighAnUnprintedBoxAgainstItsNeighbours() {
        let c = TextSupport.rowCues(printed: [0.2, 0.8, 0, 0.25, 0.005])
        #expect(c[0] == [0.2, 0, 0, 0], "a printed box at the row's end is not marked")
        #expect(c[1] == [0.5, 0, 0, 0], "the printed share is capped")
        // Three of the other four boxes carry print; the one between printed boxes is inside the printed run.
        #expect(c[2] == [0, 0.75, 0, 0])
        // The last box is at the row's end and beyond its last printed box.
        #expect(c[4] == [0.005, 0.75, 1, 1])
        // A row the text detector could not read says nothing against any box.
        #expect(TextSupport.rowCues(printed: [0, 0.01, 0]).allSatisfy { $0[1] == 0 && $0[3] == 0 })
        #expect(TextSupport.rowCues(printed: [0]) == [[0, 0, 1, 0]])
    }

    @Test func boxesBeyondTheRowsPrintedRunAreMarkedNotOnlyTheOutermost() {
        // A side panel, a post and the wall beyond the last printed book: three unprinted boxes past it.
        let c = TextSupport.rowCues(printed: [0, 0.3, 0, 0.2, 0, 0, 0])
        #expect(c.map { $0[3] } == [1, 0, 0, 0, 1, 1, 1])
        #expect(c.map { $0[2] } == [1, 0, 0, 0, 0, 0, 1], "only the outermost is the row's end")
        // One printed box makes no run to be outside of.
        #expect(TextSupport.rowCues(printed: [0, 0.3, 0]).allSatisfy { $0[3] == 0 })
    }

    @Test func aBoxWithoutPrintAmongPrintedOnesLosesConfidence() {
        let f = shelf()
        let plain = SpineDetector().detect(f.image)
        #expect(plain.spines.count >= 9, "\(plain.spines.count) spines without text")
        // Print on every found box but the fifth.
        let unprinted = plain.spines[4].quad
        let printed = plain.spines.enumerated().filter { $0.offset != 4 }.map(\.element.quad)
        let r = SpineDetector().detect(f.image, text: evidence(printedOn: printed))
        let others = r.spines.filter { PolygonIoU.iou($0.quad.points, unprinted.points) < 0.5 }
        #expect(others.count >= printed.count - 1, "printed boxes kept: \(others.count) of \(printed.count)")
        let lowestPrinted = others.map(\.confidence).min() ?? 0
        for s in r.spines where PolygonIoU.iou(s.quad.points, unprinted.points) >= 0.5 {
            #expect(s.confidence < lowestPrinted, "unprinted \(s.confidence) vs printed \(lowestPrinted)")
        }
    }

    @Test func withoutTextEvidenceTheTextModelIsNotUsed() {
        // No text detector ran: detection is what it was before the text cue, whatever the text model says.
        let f = shelf()
        var p = DetectorParameters.bundled
        p.textConfidenceModel = nil; p.textMinCalibratedConfidence = nil; p.boxClassifier = nil
        #expect(SpineDetector().detect(f.image) == SpineDetector(parameters: p).detect(f.image))
        #expect(DetectorParameters.bundled.textConfidenceModel?.count == SpineDetector.confidenceCueNames.count + 1)
    }

    /// Boxes of one row side by side, normalized to a square photo: x from `x0` over each width, y 0.2...0.8.
    private func row(_ x0: Double, widths: [Double]) -> ([RowSpines.Found], [Quad]) {
        var x = x0, found: [RowSpines.Found] = [], quads: [Quad] = []
        for w in widths {
            let q = Quad(topLeft: Point(x: x, y: 0.2), topRight: Point(x: x + w, y: 0.2),
                         bottomRight: Point(x: x + w, y: 0.8), bottomLeft: Point(x: x, y: 0.8))
            // The working frame: the same boxes at 640 x 640.
            let working = Quad(topLeft: Point(x: q.topLeft.x * 640, y: q.topLeft.y * 640), topRight: Point(x: q.topRight.x * 640, y: q.topRight.y * 640),
                               bottomRight: Point(x: q.bottomRight.x * 640, y: q.bottomRight.y * 640),
                               bottomLeft: Point(x: q.bottomLeft.x * 640, y: q.bottomLeft.y * 640))
            found.append(RowSpines.Found(quad: working, confidence: 0.6, lying: false, texture: 0.02, lumaSD: 20, chroma: 30))
            quads.append(q)
            x += w
        }
        return (found, quads)
    }

    /// A text line from (x, y0) running up to (x, y1) (as on a spine read bottom to top), `thickness` wide.
    private func upLine(x: Double, y0: Double, y1: Double, thickness: Double) -> TextLine {
        TextLine(quad: Quad(topLeft: Point(x: x - thickness / 2, y: y0), topRight: Point(x: x - thickness / 2, y: y1),
                            bottomRight: Point(x: x + thickness / 2, y: y1), bottomLeft: Point(x: x + thickness / 2, y: y0)), score: 0.8)
    }

    @Test func aTitleLineAcrossASplitJoinsIt() {
        // Two wide books, then one spine cut in two along its print (the two narrow pieces at 0.30 and 0.35).
        let (found, quads) = row(0.1, widths: [0.1, 0.1, 0.05, 0.05, 0.1])
        let title = upLine(x: 0.35, y0: 0.7, y1: 0.3, thickness: 0.04)
        let (joined, joinedQuads) = TextSupport.joiningSplits(found, quads, lines: [title], aspect: 1)
        #expect(joined.count == 4 && joinedQuads.count == 4)
        #expect(abs(joinedQuads[2].topLeft.x - 0.3) < 1e-9 && abs(joinedQuads[2].topRight.x - 0.4) < 1e-9)
        #expect(abs(joined[2].quad.bottomRight.x - 0.4 * 640) < 1e-9)
        #expect(joinedQuads[3] == quads[4])
    }

    @Test func linesThatDoNotCrossASplitLeaveItAlone() {
        let (found, quads) = row(0.1, widths: [0.1, 0.1, 0.05, 0.05, 0.1])
        // A title inside one piece; a line across the row (print on a lying book or a shelf label); and a
        // title crossing the side two ordinary spines share, which is their gap, not a split.
        let inside = upLine(x: 0.325, y0: 0.7, y1: 0.3, thickness: 0.03)
        let across = TextLine(quad: Quad(topLeft: Point(x: 0.28, y: 0.5), topRight: Point(x: 0.42, y: 0.5),
                                         bottomRight: Point(x: 0.42, y: 0.53), bottomLeft: Point(x: 0.28, y: 0.53)), score: 0.8)
        let wide = upLine(x: 0.2, y0: 0.7, y1: 0.3, thickness: 0.06)
        let (joined, _) = TextSupport.joiningSplits(found, quads, lines: [inside, across, wide], aspect: 1)
        #expect(joined.count == 5)
    }

    @Test func aTitleNoBoxCoversSeedsItsSpine() {
        // The boundary search found every book; one is taken away as if it had been missed, and its title
        // line (up the middle of the spine, two thirds of its height) is all that is left of it.
        guard let (maps, band, all, rest) = sixthBookMissed() else { return }
        let detector = SpineDetector()
        let missed = all[5].quad
        let xs = missed.points.map(\.x), ys = missed.points.map(\.y)
        let cx = (xs.min()! + xs.max()!) / 2, w = xs.max()! - xs.min()!
        let y0 = ys.max()! - (ys.max()! - ys.min()!) / 6, y1 = ys.min()! + (ys.max()! - ys.min()!) / 6
        let title = [Point(x: cx - w / 4, y: y0), Point(x: cx - w / 4, y: y1), Point(x: cx + w / 4, y: y1), Point(x: cx + w / 4, y: y0)]
        let seeded = TextSupport.seeded(rest, lines: [title], maps, band, ceiling: 0, detector.parameters)
        #expect(seeded.count == all.count)
        let best = seeded.map { PolygonIoU.iou($0.quad, missed) }.max() ?? 0
        #expect(best > 0.8, "best IoU \(best) with the missed spine")
        // Left to right, as the row's other boxes.
        let lefts = seeded.map { $0.quad.topLeft.x }
        #expect(lefts == lefts.sorted())
        // Its title again, now inside a box: nothing more is seeded; nor from a line across the row.
        #expect(TextSupport.seeded(all, lines: [title], maps, band, ceiling: 0, detector.parameters).count == all.count)
        let across = [Point(x: cx - 3 * w, y: 200), Point(x: cx + 3 * w, y: 200), Point(x: cx + 3 * w, y: 210), Point(x: cx - 3 * w, y: 210)]
        #expect(TextSupport.seeded(rest, lines: [across], maps, band, ceiling: 0, detector.parameters).count == rest.count)
    }

    @Test func aShortTitleInLargeTypeSeedsItsSpine() {
        // A wide book's title of a few letters in large type: the line is little more than twice as long as it
        // is thick, yet still runs up the spine.
        guard let (maps, band, all, rest) = sixthBookMissed() else { return }
        let detector = SpineDetector()
        let missed = all[5].quad
        let xs = missed.points.map(\.x), ys = missed.points.map(\.y)
        let cx = (xs.min()! + xs.max()!) / 2, cy = (ys.min()! + ys.max()!) / 2, w = xs.max()! - xs.min()!
        let thickness = 0.7 * w, length = 2.2 * thickness
        #expect(length >= 0.25 * Double(band.bottom - band.top + 1), "long enough for a title in its row")
        let title = [Point(x: cx - thickness / 2, y: cy + length / 2), Point(x: cx - thickness / 2, y: cy - length / 2),
                     Point(x: cx + thickness / 2, y: cy - length / 2), Point(x: cx + thickness / 2, y: cy + length / 2)]
        let seeded = TextSupport.seeded(rest, lines: [title], maps, band, ceiling: 0, detector.parameters)
        #expect(seeded.count == all.count)
        let best = seeded.map { PolygonIoU.iou($0.quad, missed) }.max() ?? 0
        #expect(best > 0.8, "best IoU \(best) with the missed spine")
        // Held to three times as long as thick, the line seeds nothing.
        var strict = detector.parameters
        strict.textSeedMinAspect = 3
        #expect(TextSupport.seeded(rest, lines: [title], maps, band, ceiling: 0, strict).count == rest.count)
    }

    /// The boundary search's boxes on `shelf()`, and the same without the sixth, as if it had been missed.
    private func sixthBookMissed() -> (EdgeMaps, RowFinder.Band, [RowSpines.Found], [RowSpines.Found])? {
        let detector = SpineDetector()
        let (maps, _) = detector.workingMaps(shelf().image)
        guard let band = RowFinder.rows(maps, detector.parameters).first else { Issue.record("no row"); return nil }
        let all = RowSpines.find(maps, band, ceiling: 0, detector.parameters)
        guard all.count >= 9 else { Issue.record("\(all.count) boxes, not 9 or more"); return nil }
        return (maps, band, all, all.enumerated().filter { $0.offset != 5 }.map(\.element))
    }

    @Test func aBoxTheFloorDropsGivesWayToATitleSeed() {
        // The edges cut one box across two books (the sixth and the seventh) whose confidence falls under
        // the floor; the sixth book's title is read. A box that will be reported keeps the seed out, one that
        // will be dropped gives way to it.
        guard let (maps, band, all, merged, cut) = sixthAndSeventhMerged() else { return }
        let detector = SpineDetector()
        let book = all[5].quad
        let title = title(on: book, halfWidth: 0.25)
        let kept = TextSupport.seeded(cut, dropped: cut.map { _ in false }, lines: [title], maps, band, ceiling: 0, detector.parameters)
        #expect(kept.map(\.quad) == cut.map(\.quad))
        let dropped = cut.indices.map { $0 == 5 }
        let seeded = TextSupport.seeded(cut, dropped: dropped, lines: [title], maps, band, ceiling: 0, detector.parameters)
        #expect(seeded.count == cut.count)
        #expect(!seeded.contains { $0.quad == merged.quad }, "the dropped box is replaced")
        let best = seeded.map { PolygonIoU.iou($0.quad, book) }.max() ?? 0
        #expect(best > 0.8, "best IoU \(best) with the titled book")
        let lefts = seeded.map { $0.quad.topLeft.x }
        #expect(lefts == lefts.sorted())
    }

    /// A title line up a standing box (working frame) at `share` of its width, `halfWidth` of its width either
    /// side, two thirds its height long.
    private func title(on q: Quad, at share: Double = 0.5, halfWidth: Double = 0.125) -> [Point] {
        let xs = q.points.map(\.x), ys = q.points.map(\.y)
        let w = xs.max()! - xs.min()!, cx = xs.min()! + share * w, h = halfWidth * w
        let y0 = ys.max()! - (ys.max()! - ys.min()!) / 6, y1 = ys.min()! + (ys.max()! - ys.min()!) / 6
        return [Point(x: cx - h, y: y0), Point(x: cx - h, y: y1), Point(x: cx + h, y: y1), Point(x: cx + h, y: y0)]
    }

    /// The drawn shelf's row as the edges cut it, and the same row with its sixth and seventh books in one box.
    private func sixthAndSeventhMerged() -> (EdgeMaps, RowFinder.Band, [RowSpines.Found], RowSpines.Found, [RowSpines.Found])? {
        let detector = SpineDetector()
        let (maps, _) = detector.workingMaps(shelf().image)
        guard let band = RowFinder.rows(maps, detector.parameters).first else { Issue.record("no row"); return nil }
        let all = RowSpines.find(maps, band, ceiling: 0, detector.parameters)
        guard all.count >= 9 else { Issue.record("\(all.count) boxes on the drawn row"); return nil }
        let a = all[5].quad, b = all[6].quad
        var merged = all[5]
        merged.quad = Quad(topLeft: a.topLeft, topRight: b.topRight, bottomRight: b.bottomRight, bottomLeft: a.bottomLeft)
        var cut = all
        cut.replaceSubrange(5...6, with: [merged])
        return (maps, band, all, merged, cut)
    }

    @Test func twoTitlesSideBySideSplitAMergedBoxAtTheEdgeBetweenThem() {
        // The edges missed the side the sixth and seventh books share: one box holds both, and both titles.
        guard let (maps, band, all, _, cut) = sixthAndSeventhMerged() else { return }
        let detector = SpineDetector()
        let a = all[5].quad, b = all[6].quad
        let split = TextSupport.splittingMerges(cut, lines: [title(on: a), title(on: b)], maps, band, detector.parameters)
        #expect(split.count == all.count)
        for book in [a, b] {
            let best = split.map { PolygonIoU.iou($0.quad, book) }.max() ?? 0
            #expect(best > 0.85, "best IoU \(best) with a merged book")
        }
        let lefts = split.map { $0.quad.topLeft.x }
        #expect(lefts == lefts.sorted())
        // A title and its author's name side by side on one wide cover: no edge between them, no split.
        guard let wide = all.indices.max(by: { all[$0].quad.topRight.x - all[$0].quad.topLeft.x < all[$1].quad.topRight.x - all[$1].quad.topLeft.x })
        else { return }
        let twoLines = [title(on: all[wide].quad, at: 0.3), title(on: all[wide].quad, at: 0.7)]
        #expect(TextSupport.splittingMerges(all, lines: twoLines, maps, band, detector.parameters).map(\.quad) == all.map(\.quad))
    }

    @Test func threeThinBooksWhoseTitleBoxesTouchAreCutApart() throws {
        // Three thin books of a row of them in one box, each title's box as wide as its book and a little more, so that
        // neighbours' boxes overlap as the text detector's do on thin books of one series pressed together.
        var shelf = DrawnShelf(width: 640, height: 440)
        shelf.board(y: 330, thickness: 60)
        shelf.standing(from: 60, floorY: 330, widths: [48, 22, 24, 20, 23, 21, 25, 22, 24, 50], heights: [230, 215, 240])
        let detector = SpineDetector()
        let (maps, _) = detector.workingMaps(shelf.image)
        let band = try #require(RowFinder.rows(maps, detector.parameters).first)
        let all = RowSpines.find(maps, band, ceiling: 0, detector.parameters)
        try #require(all.count == 10, "\(all.count) boxes on the drawn row")
        let books = all[2...4].map(\.quad)
        var merged = all[2]
        merged.quad = Quad(topLeft: books[0].topLeft, topRight: books[2].topRight, bottomRight: books[2].bottomRight,
                           bottomLeft: books[0].bottomLeft)
        var cut = all
        cut.replaceSubrange(2...4, with: [merged])
        let titles = books.map { title(on: $0, halfWidth: 0.55) }
        func found(_ p: DetectorParameters) -> Int {
            let split = TextSupport.splittingMerges(cut, lines: titles, maps, band, p)
            return books.filter { book in split.contains { PolygonIoU.iou($0.quad, book) > 0.8 } }.count
        }
        #expect(found(detector.parameters) == 3)
        let split = TextSupport.splittingMerges(cut, lines: titles, maps, band, detector.parameters)
        #expect(split.map { $0.quad.topLeft.x } == split.map { $0.quad.topLeft.x }.sorted())
        // Taking the titles' whole boxes, no gap is left between them to cut in; with one cut, one book stays merged.
        var whole = detector.parameters
        whole.textSplitMargin = 0
        #expect(found(whole) == 0)
        var once = detector.parameters
        once.textSplitCuts = 1
        #expect(found(once) == 1)
    }

    /// A row with a short stack of four books lying spine-on between standing ones, the wall above the stack
    /// empty; each lying spine's title runs across it. Returns the stack's books (working frame).
    private func stackShelf() -> (shelf: DrawnShelf, books: [Quad], titles: [[Point]]) {
        var f = DrawnShelf(width: 640, height: 440)
        f.board(y: 330, thickness: 60)
        f.standing(from: 30, floorY: 330, widths: [48, 55, 42, 60, 50], heights: [230, 215, 240])
        f.standing(from: 400, floorY: 330, widths: [45, 58, 52, 47, 44], heights: [225, 235], colourOffset: 5)
        let (books, titles) = drawStack(on: &f, centredAt: 345, floorY: 330, [(22, 88), (18, 80), (25, 94), (20, 85)], colour: 2)
        return (f, books, titles)
    }

    /// Books lying spine-on one on another from `floorY` up, each (thickness, length) centred at `x`, with a dark
    /// line along each top and a title across the middle of each. Returns the books and titles (working frame).
    private func drawStack(on f: inout DrawnShelf, centredAt x: Double, floorY: Double, _ sizes: [(Double, Double)],
                           colour: Int) -> (books: [Quad], titles: [[Point]]) {
        var books: [Quad] = [], titles: [[Point]] = []
        var top = floorY
        for (k, (thickness, length)) in sizes.enumerated() {
            top -= thickness
            let x0 = x - length / 2
            f.rect(x0, top, length, thickness, DrawnShelf.palette[(k + colour) % DrawnShelf.palette.count])
            f.rect(x0, top, length, 1.5, (15, 15, 15))
            books.append(Quad(topLeft: Point(x: x0, y: top), topRight: Point(x: x0 + length, y: top),
                              bottomRight: Point(x: x0 + length, y: top + thickness), bottomLeft: Point(x: x0, y: top + thickness)))
            let y0 = top + thickness * 0.3, y1 = top + thickness * 0.7
            titles.append([Point(x: x0 + 8, y: y0), Point(x: x0 + length - 8, y: y0), Point(x: x0 + length - 8, y: y1), Point(x: x0 + 8, y: y1)])
        }
        return (books, titles)
    }

    @Test func printAcrossTwoBooksOneAboveTheOtherShowsAStack() {
        let box = Quad(topLeft: Point(x: 0, y: 0), topRight: Point(x: 60, y: 0), bottomRight: Point(x: 60, y: 200), bottomLeft: Point(x: 0, y: 200))
        func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> [Point] {
            [Point(x: x0, y: y0), Point(x: x1, y: y0), Point(x: x1, y: y1), Point(x: x0, y: y1)]
        }
        let first = line(8, 150, 52, 160), second = line(10, 175, 50, 184)
        #expect(TextSupport.holdsStack(box, lines: [first, second], maxAngle: 35))
        // Two lines whose letters share a height (one book's title and its author's name), a single line, or
        // lines outside the box: no stack. The detector's boxes reach past the letters, so boxes overlapping by
        // a fifth of their height are still two books' titles.
        #expect(!TextSupport.holdsStack(box, lines: [first, line(30, 153, 50, 163)], maxAngle: 35))
        #expect(TextSupport.holdsStack(box, lines: [first, line(10, 158, 50, 168)], maxAngle: 35))
        #expect(!TextSupport.holdsStack(box, lines: [first], maxAngle: 35))
        #expect(!TextSupport.holdsStack(box, lines: [line(80, 150, 120, 160), line(80, 175, 120, 184)], maxAngle: 35))
        // A standing spine's title runs up it; marks across it beside that (a logo, a label) are no stack.
        let upright = line(25, 20, 35, 140)
        #expect(!TextSupport.holdsStack(box, lines: [first, second, upright], maxAngle: 35))
        #expect(!TextSupport.holdsStack(box, lines: [first, second], maxAngle: 0))
    }

    @Test func aStackTheRowBoxedAsOneSpineIsCutIntoItsBooks() {
        let (shelf, books, titles) = stackShelf()
        // The row finder's own narrow-stack search is off: print shows the stack here, whatever its edges show.
        var parameters = DetectorParameters.bundled
        parameters.narrowStackMinWidthRatio = nil
        let detector = SpineDetector(parameters: parameters)
        let (maps, _) = detector.workingMaps(shelf.image)
        guard let band = RowFinder.rows(maps, detector.parameters).first else { Issue.record("no row"); return }
        let found = RowSpines.find(maps, band, ceiling: 0, detector.parameters)
        // The row finder alone boxes the stack with the wall above it as one standing spine.
        let stackBox = found.firstIndex { f in !f.lying && books.allSatisfy { PolygonIoU.covered($0.points, by: f.quad.points) > 0.8 } }
        #expect(stackBox != nil, "boxes: \(found.map(\.quad))")
        let split = TextSupport.splittingStacks(found, lines: titles, maps, band, detector.parameters)
        let lying = split.filter(\.lying)
        #expect(lying.count == books.count, "lying boxes: \(lying.map(\.quad))")
        for book in books {
            let best = lying.map { PolygonIoU.iou($0.quad, book) }.max() ?? 0
            #expect(best > 0.6, "best IoU \(best) with a lying book")
        }
        #expect(split.filter { !$0.lying }.count == found.count - 1, "only the stack's box is cut")
        // Without print across it the box stands.
        #expect(TextSupport.splittingStacks(found, lines: [], maps, band, detector.parameters).map(\.quad) == found.map(\.quad))
    }

    /// Two short stacks side by side on a wide stretch of board between standing books, each book's title across
    /// it; the wall above them is empty. Returns both stacks' books and their titles (working frame).
    private func twoStacksShelf() -> (shelf: DrawnShelf, books: [Quad], titles: [[Point]]) {
        var f = DrawnShelf(width: 640, height: 440)
        f.board(y: 330, thickness: 60)
        f.standing(from: 20, floorY: 330, widths: [48, 55, 60], heights: [230, 215, 240])
        f.standing(from: 496, floorY: 330, widths: [45, 58], heights: [225, 235], colourOffset: 5)
        let first = drawStack(on: &f, centredAt: 260, floorY: 330, [(22, 140), (18, 140), (24, 140)], colour: 3)
        let second = drawStack(on: &f, centredAt: 411, floorY: 330, [(20, 150), (25, 150)], colour: 6)
        return (f, first.books + second.books, first.titles + second.titles)
    }

    @Test func twoStacksSideBySideOnAWideStretchAreBothCutIntoTheirBooks() {
        let (shelf, books, titles) = twoStacksShelf()
        let detector = SpineDetector()
        let (maps, _) = detector.workingMaps(shelf.image)
        guard let band = RowFinder.rows(maps, detector.parameters).first else { Issue.record("no row"); return }
        // One stretch too wide for a spine holds both: the row finder cuts one stack, then the other beside it.
        let lying = RowSpines.find(maps, band, ceiling: 0, lines: titles, detector.parameters).filter(\.lying)
        for book in books {
            let best = lying.map { PolygonIoU.iou($0.quad, book) }.max() ?? 0
            #expect(best > 0.6, "best IoU \(best) with a lying book; lying boxes: \(lying.map(\.quad))")
        }
    }

    @Test func aBoxReachingFarAboveItsPrintIsLoweredToItsBooksTopAStandingBookIsNot() {
        // A thin short book between a tall one and one a little taller than it, on a row of books.
        var f = DrawnShelf(width: 640, height: 440)
        f.board(y: 330, thickness: 60)
        f.standing(from: 30, floorY: 330, widths: [48, 55, 42, 60, 50], heights: [230, 215, 240, 230, 150])
        f.standing(from: 285, floorY: 330, widths: [16], heights: [120], colourOffset: 3)
        f.standing(from: 301, floorY: 330, widths: [52, 45, 58, 47], heights: [225, 235], colourOffset: 4)
        let detector = SpineDetector()
        let (maps, _) = detector.workingMaps(f.image)
        guard let band = RowFinder.rows(maps, detector.parameters).first else { Issue.record("no row"); return }
        func box(_ x0: Double, _ x1: Double, top: Double) -> RowSpines.Found {
            RowSpines.Found(quad: Quad(topLeft: Point(x: x0, y: top), topRight: Point(x: x1, y: top),
                                       bottomRight: Point(x: x1, y: 330), bottomLeft: Point(x: x0, y: 330)), confidence: 0.6, lying: false)
        }
        func upLine(_ x0: Double, _ x1: Double, _ y0: Double, _ y1: Double) -> [Point] {
            [Point(x: x0, y: y1), Point(x: x0, y: y0), Point(x: x1, y: y0), Point(x: x1, y: y1)]
        }
        // The thin book's box topped at its tall neighbours' height, its title low on it.
        let thin = box(285, 301, top: 100), tall = box(133, 175, top: 90)
        let lines = [upLine(289, 297, 240, 320), upLine(148, 160, 200, 320)]
        let out = TextSupport.loweringTops([thin, tall], lines: lines, maps, band, maxSideRatio: 0.7, maxAngle: 35, detector.parameters)
        let newTop = min(out[0].quad.topLeft.y, out[0].quad.topRight.y)
        #expect(abs(newTop - 210) <= 6, "thin book's top at \(newTop), drawn at 210")
        // The tall book's title starts as far below its top, but its sides run up to it: it keeps its top.
        #expect(out[1].quad == tall.quad)
        // Without print in the box, or with the rule off, nothing moves.
        #expect(TextSupport.loweringTops([thin], lines: [], maps, band, maxSideRatio: 0.7, maxAngle: 35, detector.parameters)[0].quad == thin.quad)
        #expect(TextSupport.loweringTops([thin], lines: lines, maps, band, maxSideRatio: 0, maxAngle: 35, detector.parameters)[0].quad == thin.quad)
    }
}
