import Foundation
import ShelfImage

/// How the text detector's evidence bears on the spines found by edges alone.
///
/// Print is absolute evidence only where the text detector can see it at all: on a dense shelf of thin
/// spines photographed from afar their titles are a few pixels high at the cue's resolution and most true
/// spines read as unprinted. So a box is judged against its neighbours: a box without print among
/// printed ones (a cabinet side, a post, the wall beyond the last book) is suspicious; one among others
/// the detector could not read either tells nothing.
enum TextSupport {
    /// A box counts as carrying print from this share of its area on: a title covers a good part of a
    /// spine, a stray detection on wood grain a speck.
    static let printedFloor = 0.02

    /// Cues per box of one row, in the order they end `SpineDetector.confidenceCueNames`, from the share
    /// of each box the text detector called print.
    ///
    /// - `printed`: the box's own share, capped at 0.5 (beyond it a box is no more a spine).
    /// - `unprintedRow`: for a box without print, the share of the other boxes of its row that carry
    ///   print (1: every other box does); 0 for a printed box and in a row the detector could not read.
    /// - `unprintedRowEnd`: 1 for a box without print at either end of its row, where cabinet sides, posts,
    ///   bookends and the wall beyond the last book are met (on their own, row ends are no worse than
    ///   other boxes: the cue weighed nothing without print).
    /// - `outsidePrintRun`: 1 for a box without print beyond the row's first or last printed box, in a row
    ///   where at least two boxes carry print: a cabinet often shows its side panel, its post and the wall
    ///   beyond as several boxes, and only the outermost is the row's end.
    static func rowCues(printed: [Double]) -> [[Double]] {
        let printedInRow = printed.filter { $0 >= printedFloor }.count
        let first = printed.firstIndex { $0 >= printedFloor }, last = printed.lastIndex { $0 >= printedFloor }
        return printed.enumerated().map { k, p in
            guard p < printedFloor else { return [min(0.5, p), 0, 0, 0] }
            let end = k == 0 || k == printed.count - 1
            let outside = printedInRow >= 2 && (k < (first ?? 0) || k > (last ?? printed.count))
            return [p, printed.count > 1 ? Double(printedInRow) / Double(printed.count - 1) : 0, end ? 1 : 0, outside ? 1 : 0]
        }
    }
}

extension TextSupport {
    /// A spine's title runs along it in one line; two boxes a title line crosses from one into the other
    /// are one spine cut along its print (a title's edge, a colour band), so they are joined. Only lines
    /// along the boxes' axis count: a line across a row may run over several thin spines.
    ///
    /// `found` and `quads` are one row's boxes left to right, in the working frame and normalized to the
    /// photo; `aspect` is the photo's width over its height, so that angles are measured undistorted.
    static func joiningSplits(_ found: [RowSpines.Found], _ quads: [Quad], lines: [TextLine], aspect: Double,
                              maxAlongAngleDegrees: Double = 10, minShare: Double = 0.3) -> ([RowSpines.Found], [Quad]) {
        var found = found, quads = quads
        guard !lines.isEmpty else { return (found, quads) }
        func iso(_ p: Point) -> Point { Point(x: p.x * aspect, y: p.y) }
        let cosMax = cos(maxAlongAngleDegrees * .pi / 180)
        // A spine cut in two leaves two pieces narrower than the row's typical spine.
        let widths = found.filter { !$0.lying }.map { width($0.quad) }.sorted()
        guard !widths.isEmpty else { return (found, quads) }
        let typical = widths[widths.count / 2]
        var k = 0
        while k + 1 < found.count {
            guard !found[k].lying, !found[k + 1].lying, width(found[k].quad) < typical, width(found[k + 1].quad) < typical,
                  crossed(left: quads[k].points.map(iso), right: quads[k + 1].points.map(iso),
                          lines: lines.map { $0.quad.points.map(iso) }, cosMax: cosMax, minShare: minShare) else { k += 1; continue }
            let a = found[k], b = found[k + 1]
            let wa = width(a.quad), wb = width(b.quad), wsum = max(1e-9, wa + wb)
            func mix(_ x: Double, _ y: Double) -> Double { (x * wa + y * wb) / wsum }
            found[k] = RowSpines.Found(quad: Quad(topLeft: a.quad.topLeft, topRight: b.quad.topRight,
                                                  bottomRight: b.quad.bottomRight, bottomLeft: a.quad.bottomLeft),
                                       confidence: (a.confidence + b.confidence) / 2, lying: false,
                                       texture: mix(a.texture, b.texture), lumaSD: mix(a.lumaSD, b.lumaSD), chroma: mix(a.chroma, b.chroma),
                                       colour: (a.colour * wa + b.colour * wb) / wsum)
            quads[k] = Quad(topLeft: quads[k].topLeft, topRight: quads[k + 1].topRight,
                            bottomRight: quads[k + 1].bottomRight, bottomLeft: quads[k].bottomLeft)
            found.remove(at: k + 1); quads.remove(at: k + 1)
        }
        return (found, quads)
    }

    /// Whether a text line along the two boxes' axis lies across the side they share, with at least
    /// `minShare` of its thickness on either side and within the two boxes' extent along the axis.
    static func crossed(left: [Point], right: [Point], lines: [[Point]], cosMax: Double, minShare: Double) -> Bool {
        // The shared side, from its foot to its top, and the axis it runs along.
        let foot = mid(left[2], right[3]), top = mid(left[1], right[0])
        let axisLength = hypot(top.x - foot.x, top.y - foot.y)
        guard axisLength > 0 else { return false }
        let ax = Point(x: (top.x - foot.x) / axisLength, y: (top.y - foot.y) / axisLength)
        let across = Point(x: -ax.y, y: ax.x)
        // Each box's far side, measured across from the shared one: a line must stay inside the pair.
        func reach(_ p: Point) -> Double { abs((p.x - foot.x) * across.x + (p.y - foot.y) * across.y) }
        let leftReach = reach(mid(left[0], left[3])), rightReach = reach(mid(right[1], right[2]))
        for line in lines {
            let dx = line[1].x - line[0].x, dy = line[1].y - line[0].y
            let length = hypot(dx, dy)
            guard length > 0, abs((dx * ax.x + dy * ax.y) / length) >= cosMax else { continue }
            let offsets = line.map { ($0.x - foot.x) * across.x + ($0.y - foot.y) * across.y }
            let along = line.map { ($0.x - foot.x) * ax.x + ($0.y - foot.y) * ax.y }
            guard let lo = offsets.min(), let hi = offsets.max(), hi - lo > 0,
                  along.min()! > -0.1 * axisLength, along.max()! < 1.1 * axisLength else { continue }
            // `across` points from the left box into the right one when the axis runs upwards (y down).
            let leftPart = across.x < 0 ? hi : -lo, rightPart = across.x < 0 ? -lo : hi
            let thickness = hi - lo
            if leftPart >= minShare * thickness, rightPart >= minShare * thickness,
               leftPart <= leftReach + 0.1 * thickness, rightPart <= rightReach + 0.1 * thickness { return true }
        }
        return false
    }

    private static func mid(_ a: Point, _ b: Point) -> Point { Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2) }

    /// A box's width across its sides (the mean of its top and bottom edges).
    static func width(_ q: Quad) -> Double {
        (hypot(q.topRight.x - q.topLeft.x, q.topRight.y - q.topLeft.y) + hypot(q.bottomRight.x - q.bottomLeft.x, q.bottomRight.y - q.bottomLeft.y)) / 2
    }
}

extension TextSupport {
    /// Spines the boundary search missed whose title the text detector read: a book leaning further than
    /// the row's tilt search reaches, or one whose sides are faint. A title line running up a spine gives
    /// the spine's axis; its sides are the strongest edges parallel to it either side of the line, and
    /// its top and foot are found as for any spine.
    ///
    /// `lines`: the photo's text lines in the working frame (levelled when the photo was). Lines inside a
    /// box already found (one that will be reported), across the row, short, or outside the row's band are
    /// passed over.
    ///
    /// `dropped[k]`: box k of `found` falls below the confidence floor and will not be reported (absent:
    /// none will). Such a box stands for no spine, so it does not keep a title's seed out; the seed takes
    /// its place.
    static func seeded(_ found: [RowSpines.Found], dropped: [Bool]? = nil, lines: [[Point]], _ m: EdgeMaps, _ band: RowFinder.Band,
                       ceiling: Int, _ p: DetectorParameters) -> [RowSpines.Found] {
        let rowH = Double(band.bottom - band.top + 1)
        let yc = Double(band.top + band.bottom) / 2
        var out = found
        let candidates = lines.compactMap { line -> (centre: Point, slope: Double, length: Double, thickness: Double)? in
            let along = Point(x: line[1].x - line[0].x, y: line[1].y - line[0].y)
            let length = hypot(along.x, along.y)
            let thickness = hypot(line[3].x - line[0].x, line[3].y - line[0].y)
            // Up or down a standing spine, within the tilt a book leaning on its neighbour takes.
            guard length > 0, abs(along.y) / length >= cos(50 * .pi / 180), length >= (p.textSeedMinAspect ?? 3) * thickness,
                  length >= 0.25 * rowH else { return nil }
            let centre = TextEvidence.centre(line)
            guard centre.y > Double(band.top), centre.y < Double(band.bottom) else { return nil }
            return (centre, along.x / along.y, length, thickness)
        }.sorted { $0.length > $1.length }
        var doomed = dropped?.count == found.count ? dropped! : [Bool](repeating: false, count: found.count)
        for c in candidates {
            let q = out.map { $0.quad.points }
            // A box holding the line's centre already stands for its spine.
            let holding = q.indices.filter { TextEvidence.contains(q[$0], c.centre) }
            if holding.contains(where: { !doomed[$0] }) { continue }
            // Horizontal half-width of the line, then the side searched from it outwards.
            let half = c.thickness / 2 * (1 + c.slope * c.slope).squareRoot()
            let xAtYc = c.centre.x + (yc - c.centre.y) * c.slope
            func side(_ direction: Double) -> (x: Double, strength: Double) {
                var best = (x: xAtYc + direction * half, strength: 0.0)
                var d = half * 0.9
                while d <= half * 3.5 {
                    let x = xAtYc + direction * d
                    let s = edgeAlong(m, RowSpines.Line(x: x, slope: c.slope), yc: yc, top: band.top, bottom: band.bottom)
                    if s > best.strength { best = (x, s) }
                    d += 1
                }
                return best
            }
            let l = side(-1), r = side(1)
            let width = r.x - l.x
            guard min(l.strength, r.strength) >= 0.3, width / rowH >= p.minWidthRatio, width / rowH <= p.maxWidthRatio else { continue }
            let left = RowSpines.Line(x: l.x, slope: c.slope), right = RowSpines.Line(x: r.x, slope: c.slope)
            let reach = max(ceiling, band.top - Int(p.topReach * rowH))
            var (top, bottom) = RowSpines.verticalExtent(m, RowFinder.Band(top: reach, bottom: band.bottom), left: left, right: right, yc: yc, p)
            if let footReach = p.footReach, footReach > 0 {
                bottom = RowSpines.foot(m, band, left: left, right: right, yc: yc, reach: Int(footReach * rowH), p)
            }
            let quad = RowSpines.quad(left: left, right: right, top: top, bottom: bottom, yc: yc)
            // Not over a box already found: this one is there for a spine the others left out.
            guard PolygonIoU.area(quad.points) > 0 else { continue }
            let over = Set(holding + q.indices.filter { PolygonIoU.covered(quad.points, by: q[$0]) > 0.3 })
            guard over.allSatisfy({ doomed[$0] }) else { continue }
            let inside = RowSpines.interior(m, top: Int(top), bottom: Int(bottom) - 1, left: left, right: right, yc: yc)
            for k in over.sorted(by: >) { out.remove(at: k); doomed.remove(at: k) }
            out.append(RowSpines.Found(quad: quad, confidence: (l.strength + r.strength) / 2, lying: false, inside: inside))
            doomed.append(false)
        }
        guard out.map(\.quad) != found.map(\.quad) else { return found }
        func key(_ f: RowSpines.Found) -> Double { min(f.quad.topLeft.x, f.quad.bottomLeft.x, f.quad.topRight.x, f.quad.bottomRight.x) }
        return out.sorted { key($0) < key($1) }
    }

    /// Mean strength of the edge running along `line` over the band's rows (the strongest of three pixels
    /// across it, so a line a pixel off still counts). Any orientation counts: a steeply leaning side is
    /// split between the vertical and the horizontal edge map.
    static func edgeAlong(_ m: EdgeMaps, _ line: RowSpines.Line, yc: Double, top: Int, bottom: Int) -> Double {
        var sum = 0.0, n = 0
        m.vertical.withUnsafeBufferPointer { V in m.horizontal.withUnsafeBufferPointer { Hm in
            for y in max(0, top)...min(m.height - 1, bottom) {
                let x = Int(line.at(Double(y), yc).rounded())
                var best: Float = 0
                for dx in -1...1 where x + dx >= 0 && x + dx < m.width {
                    let i = y * m.width + x + dx
                    best = max(best, max(V[i], Hm[i]))
                }
                sum += Double(best); n += 1
            }
        }}
        return n == 0 ? 0 : sum / Double(n)
    }
}

extension TextSupport {
    /// A box holding a stack seen spine-on by its print (see `holdsStack`) is cut along its height as the
    /// row finder cuts a wide stack (`RowSpines.lyingStack`, over the box's own columns); two or more books
    /// replace it. The row finder sends only pieces wider than `maxWidthRatio` there, and a short stack
    /// with the empty space above it is not one: nothing stands beside it to cut it off.
    static func splittingStacks(_ found: [RowSpines.Found], lines: [[Point]], _ m: EdgeMaps, _ band: RowFinder.Band,
                                _ p: DetectorParameters) -> [RowSpines.Found] {
        let yc = Double(band.top + band.bottom) / 2
        var out: [RowSpines.Found] = []
        for f in found {
            guard !f.lying, holdsStack(f.quad, lines: lines, maxAngle: p.lyingTextMaxAngle ?? 0) else { out.append(f); continue }
            let (left, right) = RowSpines.Line.sides(of: f.quad, yc: yc)
            let stack = RowSpines.lyingStack(m, band, left: left, right: right, yc: yc, byPrint: true, p)
            if stack.books.count >= 2 { out += stack.books } else { out.append(f) }
        }
        return out
    }

    /// A text line's angle from horizontal (0...90 degrees, along its longer side), its length and its thickness;
    /// nil for a blot (a letter or a logo, no longer than 1.5 times its thickness), which runs either way.
    static func lineShape(_ c: [Point]) -> (angle: Double, length: Double, thickness: Double)? {
        let first = hypot(c[1].x - c[0].x, c[1].y - c[0].y), second = hypot(c[3].x - c[0].x, c[3].y - c[0].y)
        let (dx, dy, length, thickness) = first >= second ? (c[1].x - c[0].x, c[1].y - c[0].y, first, second)
                                                            : (c[3].x - c[0].x, c[3].y - c[0].y, second, first)
        guard thickness > 0, length >= 1.5 * thickness else { return nil }
        return (atan2(abs(dy), abs(dx)) * 180 / .pi, length, thickness)
    }

    /// Whether a box holds a stack seen spine-on rather than one standing book: print runs across it (within
    /// `maxAngle` of horizontal) in two or more rows, one above the other, that do not overlap (two books'
    /// titles; a title and its author's name on one lying book share a height), and hardly any runs up it. A
    /// standing spine's print runs up it; its horizontal marks (a publisher's logo, a library label) sit beside
    /// a long title. `lines`: corners in the working frame.
    static func holdsStack(_ box: Quad, lines: [[Point]], maxAngle: Double) -> Bool {
        guard maxAngle > 0 else { return false }
        var across: [ClosedRange<Double>] = []
        var flat = 0.0, upright = 0.0
        for c in lines where c.count == 4 {
            guard TextEvidence.contains(box.points, TextEvidence.centre(c)), let (angle, length, _) = lineShape(c) else { continue }
            if angle <= maxAngle {
                flat += length
                // The middle 60% of the line's height: the detector's box reaches past the letters, so the boxes of
                // two thin books' titles overlap where the letters do not.
                let y0 = c.map(\.y).min()!, y1 = c.map(\.y).max()!, trim = 0.2 * (y1 - y0)
                across.append((y0 + trim)...(y1 - trim))
            } else if angle >= 90 - maxAngle {
                upright += length
            }
        }
        guard !across.isEmpty, upright <= 0.25 * flat else { return false }
        across.sort { $0.lowerBound < $1.lowerBound }
        var rows = 1, reach = across[0].upperBound
        for line in across.dropFirst() {
            if line.lowerBound >= reach { rows += 1 }
            reach = max(reach, line.upperBound)
        }
        return rows >= 2
    }
}

extension TextSupport {
    /// Two title lines side by side along one box, with a clear edge parallel to its sides between them, are
    /// two spines the boundary search merged (books leaning together, or a faint seam): the box is split
    /// along that edge. A wider box than the row's typical spine only; the edge must stand out as a seeded
    /// spine's sides must, so a title and its author's name on one cover do not split it.
    ///
    /// Each title counts by its letters, not by the text detector's box, which reaches past them
    /// (`textSplitMargin`): on thin books of one series pressed together, neighbours' boxes touch or overlap,
    /// and no gap between titles was left to cut in. A piece still wider than the typical spine, holding two
    /// titles, is split again, up to `textSplitCuts` cuts per box: three books boxed together.
    ///
    /// `found`: one row's boxes left to right and `lines` the photo's text lines, both in the working frame.
    static func splittingMerges(_ found: [RowSpines.Found], lines: [[Point]], _ m: EdgeMaps, _ band: RowFinder.Band,
                                _ p: DetectorParameters, maxAlongAngleDegrees: Double = 10) -> [RowSpines.Found] {
        let widths = found.filter { !$0.lying }.map { width($0.quad) }.sorted()
        guard !widths.isEmpty, !lines.isEmpty else { return found }
        let typical = widths[widths.count / 2]
        let rowH = Double(band.bottom - band.top + 1)
        let yc = Double(band.top + band.bottom) / 2
        let cosMax = cos(maxAlongAngleDegrees * .pi / 180)
        let margin = p.textSplitMargin ?? 0
        func side(_ top: Point, _ bottom: Point) -> RowSpines.Line { RowSpines.Line(through: top, bottom, yc: yc) }
        /// The box cut in two along the strongest edge between two of its titles, or nil.
        func split(_ f: RowSpines.Found) -> (RowSpines.Found, RowSpines.Found)? {
            guard !f.lying, width(f.quad) > typical else { return nil }
            let q = f.quad
            let left = side(q.topLeft, q.bottomLeft), right = side(q.topRight, q.bottomRight)
            let slope = (left.slope + right.slope) / 2
            let axis = Point(x: slope / (1 + slope * slope).squareRoot(), y: 1 / (1 + slope * slope).squareRoot())
            // Each title's letters across, as x at the row's middle height along the box's slope.
            let spans = lines.compactMap { line -> ClosedRange<Double>? in
                let dx = line[1].x - line[0].x, dy = line[1].y - line[0].y
                let length = hypot(dx, dy), thickness = hypot(line[3].x - line[0].x, line[3].y - line[0].y)
                let centre = TextEvidence.centre(line)
                guard length > 0, abs(dx * axis.x + dy * axis.y) / length >= cosMax, length >= 3 * thickness,
                      TextEvidence.contains(q.points, centre) else { return nil }
                let xs = line.map { $0.x + (yc - $0.y) * slope }
                let inset = margin * (xs.max()! - xs.min()!)
                return (xs.min()! + inset)...(xs.max()! - inset)
            }.sorted { $0.lowerBound < $1.lowerBound }
            let minWidth = p.minWidthRatio * rowH
            var best: (x: Double, strength: Double)?
            for (a, b) in zip(spans, spans.dropFirst()) where b.lowerBound - a.upperBound > 2 {
                for x in stride(from: (max(a.upperBound, left.x + minWidth) + 1).rounded(), through: (min(b.lowerBound, right.x - minWidth) - 1).rounded(), by: 1) {
                    let s = edgeAlong(m, RowSpines.Line(x: x, slope: slope), yc: yc, top: band.top, bottom: band.bottom)
                    if s > (best?.strength ?? 0.3) { best = (x, s) }
                }
            }
            guard let cut = best else { return nil }
            let line = RowSpines.Line(x: cut.x, slope: slope)
            var l = f, r = f
            l.quad = Quad(topLeft: q.topLeft, topRight: Point(x: line.at(q.topRight.y, yc), y: q.topRight.y),
                          bottomRight: Point(x: line.at(q.bottomRight.y, yc), y: q.bottomRight.y), bottomLeft: q.bottomLeft)
            r.quad = Quad(topLeft: Point(x: line.at(q.topLeft.y, yc), y: q.topLeft.y), topRight: q.topRight,
                          bottomRight: q.bottomRight, bottomLeft: Point(x: line.at(q.bottomLeft.y, yc), y: q.bottomLeft.y))
            func measure(_ piece: inout RowSpines.Found) {
                let pq = piece.quad
                piece.measured(RowSpines.interior(m, top: Int(pq.topLeft.y), bottom: Int(pq.bottomLeft.y) - 1,
                                                  left: side(pq.topLeft, pq.bottomLeft), right: side(pq.topRight, pq.bottomRight), yc: yc))
            }
            measure(&l); measure(&r)
            return (l, r)
        }
        var out: [RowSpines.Found] = []
        for f in found {
            // Left to right: a piece is cut again while cuts are left, its left part before its right.
            var pending = [f], cuts = 0
            while let piece = pending.popLast() {
                if cuts < max(1, p.textSplitCuts ?? 1), let (l, r) = split(piece) {
                    cuts += 1
                    pending.append(r); pending.append(l)
                } else {
                    out.append(piece)
                }
            }
        }
        return out
    }
}

extension TextSupport {
    /// A box whose print (running up it) starts far below its top, more than a third of its height, may reach
    /// past its book into the wall above: a thin book's own top edge is short and faint, and the row's top
    /// search took a longer one higher up (the board's shadow, a taller neighbour's top). Its top is searched
    /// again between its old top and its print, and moved there when above the new top one of its sides is
    /// weaker than `maxSideRatio` times below it. `lines`: corners in the working frame.
    static func loweringTops(_ found: [RowSpines.Found], lines: [[Point]], _ m: EdgeMaps, _ band: RowFinder.Band,
                             maxSideRatio: Double, maxAngle: Double, _ p: DetectorParameters) -> [RowSpines.Found] {
        let yc = Double(band.top + band.bottom) / 2
        return found.map { f in
            guard !f.lying else { return f }
            let q = f.quad
            var printTop = Double.infinity
            for c in lines where c.count == 4 {
                guard TextEvidence.contains(q.points, TextEvidence.centre(c)), let (angle, _, _) = lineShape(c), angle >= 90 - maxAngle else { continue }
                printTop = min(printTop, c.map(\.y).min()!)
            }
            let top = min(q.topLeft.y, q.topRight.y), foot = max(q.bottomLeft.y, q.bottomRight.y)
            guard printTop.isFinite, printTop - top > 0.35 * (foot - top) else { return f }
            let (left, right) = RowSpines.Line.sides(of: q, yc: yc)
            let from = Int(top) + 3, to = Int(printTop) - 1
            guard to - from >= 6 else { return f }
            let (newTop, _) = RowSpines.verticalExtent(m, RowFinder.Band(top: from, bottom: to), left: left, right: right, yc: yc,
                                                       searched: 1, p)
            guard newTop > Double(from) else { return f }
            // A book's sides run on up to its top (a band or a logo across its upper part is no top); above a
            // top found too high, one side at least is wall.
            let sidesAbove = [left, right].map { side -> Double in
                let below = edgeAlong(m, side, yc: yc, top: Int(newTop) + 1, bottom: Int(foot) - 1)
                return below > 0 ? edgeAlong(m, side, yc: yc, top: Int(top) + 1, bottom: Int(newTop) - 1) / below : 1
            }
            guard sidesAbove.min()! < maxSideRatio else { return f }
            var g = f
            g.quad = Quad(topLeft: Point(x: left.at(newTop, yc), y: newTop), topRight: Point(x: right.at(newTop, yc), y: newTop),
                          bottomRight: q.bottomRight, bottomLeft: q.bottomLeft)
            g.measured(RowSpines.interior(m, top: Int(newTop), bottom: Int(foot) - 1, left: left, right: right, yc: yc))
            return g
        }
    }
}
