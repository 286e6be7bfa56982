import Foundation
import ShelfImage

/// Turns one shelf row into spine quads (working-image pixels): boundaries by DP, each spine's top found
/// where a horizontal edge crosses it, and wide pieces with horizontal structure split as lying stacks.
enum RowSpines {
    /// `texture`: edge density inside the box (print, shading), 0 for a plain panel or wall; `lumaSD` and
    /// `chroma`: its spread of brightness and its mean saturation (a cabinet side, a post or a wall is
    /// grey or one flat colour, a cover is printed).
    struct Found {
        var quad: Quad; var confidence: Double; var lying: Bool; var texture: Double = 0
        var lumaSD: Double = 0; var chroma: Double = 0
        /// Mean red, green and blue inside the box (0...255), to tell a run of like boxes (panel grain,
        /// wallpaper stripes) from books, which rarely match both neighbours.
        var colour: SIMD3<Double> = .zero

        init(quad: Quad, confidence: Double, lying: Bool, texture: Double = 0, lumaSD: Double = 0, chroma: Double = 0,
             colour: SIMD3<Double> = .zero) {
            self.quad = quad; self.confidence = confidence; self.lying = lying
            self.texture = texture; self.lumaSD = lumaSD; self.chroma = chroma; self.colour = colour
        }

        /// A box with what `interior` measured inside it.
        init(quad: Quad, confidence: Double, lying: Bool, inside: Interior) {
            self.init(quad: quad, confidence: confidence, lying: lying)
            measured(inside)
        }

        /// Takes what `interior` measured inside the box (after its quad changed).
        mutating func measured(_ inside: Interior) {
            texture = inside.edgeDensity; lumaSD = inside.lumaSD; chroma = inside.chroma; colour = inside.colour
        }
    }

    /// What `interior` measures inside a piece.
    typealias Interior = (lumaSD: Double, edgeDensity: Double, chroma: Double, colour: SIMD3<Double>)

    /// A boundary line: x at the row's middle height and its slope dx/dy.
    struct Line {
        var x: Double
        var slope: Double
        func at(_ y: Double, _ yc: Double) -> Double { x + (y - yc) * slope }
        /// The line through a side's two ends (a level side counts as upright), as crossing height `yc`.
        init(x: Double, slope: Double) { self.x = x; self.slope = slope }
        init(through top: Point, _ bottom: Point, yc: Double) {
            let slope = bottom.y != top.y ? (bottom.x - top.x) / (bottom.y - top.y) : 0
            self.init(x: top.x + (yc - top.y) * slope, slope: slope)
        }
        /// A box's left and right sides.
        static func sides(of q: Quad, yc: Double) -> (left: Line, right: Line) {
            (Line(through: q.topLeft, q.bottomLeft, yc: yc), Line(through: q.topRight, q.bottomRight, yc: yc))
        }
    }

    /// The box between two sides from `top` down to `bottom`.
    static func quad(left: Line, right: Line, top: Double, bottom: Double, yc: Double) -> Quad {
        Quad(topLeft: Point(x: left.at(top, yc), y: top), topRight: Point(x: right.at(top, yc), y: top),
             bottomRight: Point(x: right.at(bottom, yc), y: bottom), bottomLeft: Point(x: left.at(bottom, yc), y: bottom))
    }

    /// `ceiling`: the lowest pixel row the spine tops may reach up to (just below the row above). `lines`: the
    /// text detector's lines (corners, working frame), which show a wide piece's stack by its print.
    /// `rowHeight`: how tall the row's books stand when more of them stands than the band shows (a row the photo's
    /// bottom or top edge cuts off): the widths a spine may have are judged against it. Nil: the band's height.
    static func find(_ m: EdgeMaps, _ band: RowFinder.Band, ceiling: Int, lines: [[Point]] = [], rowHeight: Double? = nil,
                     _ p: DetectorParameters) -> [Found] {
        let w = m.width
        let rowH = max(rowHeight ?? 0, Double(band.bottom - band.top + 1))
        let prof = BoundaryScorer.profile(m, top: band.top, bottom: band.bottom, p)
        let prior = Segmenter.Prior(length: rowH, median: p.widthRatioMedian, logSigma: p.widthRatioLogSigma,
                                    weight: p.widthPriorWeight, threshold: threshold(prof.score, p),
                                    minRatio: p.minWidthRatio, maxRatio: p.maxWidthRatio,
                                    peakRadius: Int(p.peakRadius.rounded()))
        let cuts = Segmenter.cuts(suppressingStacks(m, band, prof.score, p), lo: 0, hi: w - 1, prior)
        let found = pieces(cuts, m, band, ceiling: ceiling, prof: prof, prior: prior, retry: true, lines: lines, p)
        return p.stacksInFront == true ? inFront(m, band, found, p) : found
    }

    /// Stacks of books lying in front of the row, hiding the feet of the books standing behind them. The row's
    /// boundaries run down through such a stack, so the books behind get boxes reaching the board and the stack
    /// is cut into narrow "standing" pieces. What shows it: long horizontal edges low in the row, longer than
    /// any standing book is wide and running across several of the row's boxes (a standing row has none; a
    /// lying book's edges run its whole length). The boxes behind it end at its top, boxes hidden nearly whole
    /// are dropped, and the stack itself is cut into its books as the rows' stacks are.
    static func inFront(_ m: EdgeMaps, _ band: RowFinder.Band, _ found: [Found], _ p: DetectorParameters) -> [Found] {
        let w = m.width, h = m.height
        let rowH = Double(band.bottom - band.top + 1)
        let minLength = Int(0.6 * rowH)
        let y0 = band.top + Int(0.35 * rowH), y1 = band.bottom - max(2, Int(0.04 * rowH))
        guard y1 > y0, minLength > 4 else { return found }
        // Long horizontal runs, one per edge (the ±1 row bridging makes each edge three rows deep).
        var lines: [(y: Int, x0: Int, x1: Int)] = []
        m.horizontal.withUnsafeBufferPointer { H in
            for y in y0...y1 {
                var start = -1, last = -1
                for x in 0...w {
                    var lit = false
                    if x < w { for d in -1...1 where y + d >= 0 && y + d < h && H[(y + d) * w + x] > 0.25 { lit = true; break } }
                    if lit { if start < 0 { start = x }; last = x } else if start >= 0 && x - last > 2 || x == w {
                        if start >= 0, last - start + 1 >= minLength {
                            if let prev = lines.last, y - prev.y <= 2, min(prev.x1, last) - max(prev.x0, start) > minLength / 2 {
                                lines[lines.count - 1] = (y, min(prev.x0, start), max(prev.x1, last))
                            } else {
                                lines.append((y, start, last))
                            }
                        }
                        start = -1
                    }
                }
            }
        }
        guard lines.count >= 2 else { return found }
        // Lines over one another along most of the shorter one's length are one stack's.
        var stacks: [[(y: Int, x0: Int, x1: Int)]] = []
        for l in lines {
            if let k = stacks.firstIndex(where: { s in s.contains { o in Double(min(o.x1, l.x1) - max(o.x0, l.x0)) >= 0.6 * Double(min(o.x1 - o.x0, l.x1 - l.x0)) } }) {
                stacks[k].append(l)
            } else {
                stacks.append([l])
            }
        }
        var out = found
        var books: [Found] = []
        for s in stacks where s.count >= 2 {
            let top = s.map(\.y).min()!, x0 = s.map(\.x0).min()!, x1 = s.map(\.x1).max()!
            guard Double(band.bottom - top) >= 0.08 * rowH else { continue }
            func centre(_ f: Found) -> Double { f.quad.points.map(\.x).reduce(0, +) / 4 }
            let behind = out.indices.filter { !out[$0].lying && (Double(x0)...Double(x1)).contains(centre(out[$0])) }
            // In front of a row: across at least two of its boxes, not a stack the row's cuts already found.
            guard behind.count >= 2, !out.contains(where: { $0.lying && (Double(x0)...Double(x1)).contains(centre($0)) }) else { continue }
            // The boundaries of the books behind stop at its top: a standing row's run on down through any line
            // across it (a band printed at one height on every spine, a shadow).
            let strip = RowFinder.Band(top: min(band.bottom, top + 2), bottom: max(top + 2, band.bottom - 1))
            let inset = (x1 - x0) / 8
            let through = ((x0 + inset)...(x1 - inset)).filter { verticalRun(m, strip, x: $0) >= 0.6 * Double(strip.bottom - strip.top + 1) }
            var crossings = 0, previous = -10
            for x in through { if x - previous > 3 { crossings += 1 }; previous = x }
            guard crossings * 4 <= behind.count else { continue }
            // And it parts into lying books, two at least: a box or a picture frame standing low in the row has
            // long edges across it and no boundary inside it too, but no books.
            let sub = RowFinder.Band(top: max(band.top, top - 2), bottom: band.bottom)
            let stack = lyingStack(m, sub, left: Line(x: Double(x0), slope: 0), right: Line(x: Double(x1 + 1), slope: 0),
                                   yc: Double(sub.top + sub.bottom) / 2, byPrint: true, rowHeight: rowH, p)
            guard stack.books.count >= 2 else { continue }
            var drop: [Int] = []
            for k in behind {
                let q = out[k].quad
                let boxTop = min(q.topLeft.y, q.topRight.y)
                if Double(top) - boxTop < 0.3 * (Double(band.bottom) - boxTop) { drop.append(k); continue }
                out[k].quad = Quad(topLeft: q.topLeft, topRight: q.topRight,
                                   bottomRight: Point(x: q.topRight.x + (q.bottomRight.x - q.topRight.x) * (Double(top) - q.topRight.y) / max(1, q.bottomRight.y - q.topRight.y), y: Double(top)),
                                   bottomLeft: Point(x: q.topLeft.x + (q.bottomLeft.x - q.topLeft.x) * (Double(top) - q.topLeft.y) / max(1, q.bottomLeft.y - q.topLeft.y), y: Double(top)))
            }
            for k in drop.sorted(by: >) { out.remove(at: k) }
            books += stack.books
        }
        guard !books.isEmpty || out.count != found.count else { return out }
        func key(_ f: Found) -> Double { min(f.quad.topLeft.x, f.quad.bottomLeft.x, f.quad.topRight.x, f.quad.bottomRight.x) }
        return (out + books).enumerated().sorted { (key($0.element), $0.offset) < (key($1.element), $1.offset) }.map(\.element)
    }

    /// The boundary threshold for one row. Soft focus, haze or a dim shelf lower every boundary's score
    /// in a row alike, so the threshold follows the row's clear boundaries (a high quantile of its peak
    /// scores), never above the fixed one. Peaks under `relativeFloor` of the fixed threshold (noise,
    /// print) do not count, or a row of few wide books would have its reference set by its print.
    static func threshold(_ score: [Double], _ p: DetectorParameters) -> Double {
        guard p.relativeThreshold > 0 else { return p.boundaryThreshold }
        var peaks: [Double] = []
        let floor = p.relativeFloor * p.boundaryThreshold
        for x in 1..<max(1, score.count - 1) where score[x] >= score[x - 1] && score[x] > score[x + 1] && score[x] >= floor {
            peaks.append(score[x])
        }
        guard peaks.count >= 2 else { return p.boundaryThreshold }
        peaks.sort()
        let ref = peaks[min(peaks.count - 1, Int(Double(peaks.count) * p.rowReferenceQuantile))]
        return min(p.boundaryThreshold, p.relativeThreshold * ref)
    }

    /// Turns consecutive cuts into spines. A piece too wide for one spine is a lying stack, or holds
    /// spines whose boundaries fell under the threshold: what the stack leaves beside it, or the whole
    /// piece, is cut once more (`retry`) with the threshold lowered, since a piece that wide is known to
    /// hold at least one boundary.
    private static func pieces(_ cuts: [Int], _ m: EdgeMaps, _ band: RowFinder.Band, ceiling: Int,
                               prof: BoundaryProfile, prior: Segmenter.Prior, retry: Bool, lines: [[Point]],
                               _ p: DetectorParameters) -> [Found] {
        let w = m.width
        let rowH = Double(band.bottom - band.top + 1)
        // The height the widths are judged against: the prior's, which is the band's, or the whole row's where the
        // photo cuts it off (`find`'s `rowHeight`).
        let widthH = prior.length
        let yc = Double(band.top + band.bottom) / 2
        var out: [Found] = []
        for k in 0..<(cuts.count - 1) {
            let a = cuts[k], b = cuts[k + 1]
            let edgeA = a == 0, edgeB = b == w - 1
            let left0 = Line(x: Double(a) + (edgeA ? 0 : 0.5), slope: edgeA ? prof.rowSlope : prof.slope[a])
            let right0 = Line(x: Double(b) + (edgeB ? 1 : 0.5), slope: edgeB ? prof.rowSlope : prof.slope[b])
            var left = left0, right = right0
            // Two lines that would cross inside the row cannot bound one book: keep them parallel.
            let halfH = rowH / 2
            if min(right.at(yc - halfH, yc) - left.at(yc - halfH, yc), right.at(yc + halfH, yc) - left.at(yc + halfH, yc))
                < 0.5 * (right.x - left.x) {
                let s = (left.slope + right.slope) / 2
                left.slope = s; right.slope = s
            }
            let width = right.x - left.x
            let sa = edgeA ? 0.5 : prof.score[a], sb = edgeB ? 0.5 : prof.score[b]
            if width / widthH > p.maxWidthRatio {
                // Print across the piece in rows one above the other shows a stack as well as its edges do.
                let byPrint = p.lyingStacksByPrint == true && !lines.isEmpty
                    && TextSupport.holdsStack(quad(left: left, right: right, top: Double(band.top), bottom: Double(band.bottom), yc: yc),
                                              lines: lines, maxAngle: p.lyingTextMaxAngle ?? 0)
                let stack = lyingStack(m, band, left: left, right: right, yc: yc, byPrint: byPrint, p)
                out += stack.books
                // Beside a stack found by its print may stand another (two short stacks side by side on an
                // empty stretch of board): what is left is searched as fully as the whole piece was.
                guard retry || (byPrint && !stack.books.isEmpty) else { continue }
                var rest: [(Int, Int)] = [(a, b)]
                if let span = stack.span { rest = [(a, max(a, span.lowerBound)), (min(b, span.upperBound), b)] }
                var lowered = prior
                lowered.threshold *= stack.span == nil ? p.wideRetryThresholdFactor : 1
                for (lo, hi) in rest where Double(hi - lo) / widthH >= p.gapMaxWidthRatio {
                    let sub = Segmenter.cuts(prof.score, lo: lo, hi: hi, lowered)
                    out += pieces(sub, m, band, ceiling: ceiling, prof: prof, prior: prior,
                                  retry: byPrint && !stack.books.isEmpty, lines: lines, p)
                }
                continue
            }
            // A short stack of two or three books is no wider than a thick book stands: tried as a stack on
            // its edges alone (lying boxes at least two, or it stands).
            if let ratio = p.narrowStackMinWidthRatio, width / widthH >= ratio {
                let stack = lyingStack(m, band, left: left, right: right, yc: yc, p)
                if stack.books.count >= 2 { out += stack.books; continue }
            }
            // Slivers: the shadow or panel showing between two books, bounded by both their edges.
            if width / widthH < p.gapMaxWidthRatio { continue }
            // A book's two sides are parallel; a wedge between sides leaning differently is the gap left
            // beside a leaning book.
            if abs(atan(left0.slope) - atan(right0.slope)) * 180 / .pi > p.maxSideAngleDegrees { continue }
            let reach = max(ceiling, band.top - Int(p.topReach * rowH))
            let atPhotoTop = p.topsAtPhotoEdge == true && reach <= 0 && RowFinder.runsOutOfTop(band, height: m.height)
            var (top, bottom) = verticalExtent(m, RowFinder.Band(top: reach, bottom: band.bottom), left: left, right: right, yc: yc, atPhotoTop: atPhotoTop, p)
            if let footReach = p.footReach, footReach > 0 {
                bottom = foot(m, band, left: left, right: right, yc: yc, reach: Int(footReach * rowH), p)
            }
            // A piece with no print and no shading is wall or gap seen between books, not a spine.
            let inside = interior(m, top: Int(top), bottom: Int(bottom) - 1, left: left, right: right, yc: yc)
            if inside.lumaSD < p.blankMaxLumaSD && inside.edgeDensity < p.blankMaxEdgeDensity { continue }
            let conf = min(1, max(0, (min(sa, sb) + max(sa, sb)) / 2 / (2 * p.boundaryThreshold + 0.5)))
            if conf < p.minConfidence { continue }
            out.append(Found(quad: quad(left: left, right: right, top: top, bottom: bottom, yc: yc), confidence: conf, lying: false,
                             inside: inside))
        }
        // Left to right across the row (a stack's books keep their top-down order).
        func key(_ f: Found) -> Double { min(f.quad.topLeft.x, f.quad.bottomLeft.x, f.quad.topRight.x, f.quad.bottomRight.x) }
        return out.enumerated().sorted { (key($0.element), $0.offset) < (key($1.element), $1.offset) }.map(\.element)
    }

    /// Lying stacks are wide runs of columns where horizontal structure dominates; boundaries found
    /// inside one (a title's end, a shadow) would cut the stack into fake standing spines, so they are
    /// silenced and the stack reaches `lyingStack` whole.
    static func suppressingStacks(_ m: EdgeMaps, _ band: RowFinder.Band, _ score: [Double], _ p: DetectorParameters) -> [Double] {
        let w = m.width
        var hs = [Double](repeating: 0, count: w), vs = hs
        m.vertical.withUnsafeBufferPointer { V in m.horizontal.withUnsafeBufferPointer { Hm in
            for y in band.top...band.bottom {
                for x in 0..<w { hs[x] += Double(Hm[y * w + x]); vs[x] += Double(V[y * w + x]) }
            }
        }}
        let rowH = Double(band.bottom - band.top + 1)
        let r = max(1, Int(rowH * 0.05))
        let hsm = RowFinder.boxSmooth(hs.map { $0 / rowH }, radius: r), vsm = RowFinder.boxSmooth(vs.map { $0 / rowH }, radius: r)
        var out = score
        var x = 0
        while x < w {
            guard hsm[x] > p.lyingMinEdgeDensity && hsm[x] > p.lyingDominance * vsm[x] else { x += 1; continue }
            var e = x
            while e + 1 < w && hsm[e + 1] > p.lyingMinEdgeDensity && hsm[e + 1] > p.lyingDominance * vsm[e + 1] { e += 1 }
            if Double(e - x + 1) >= p.maxWidthRatio * rowH * 0.8 {
                let margin = r + 2
                if x + margin <= e - margin { for i in (x + margin)...(e - margin) { out[i] = 0 } }
            }
            x = e + 1
        }
        return out
    }

    /// Luma spread and edge density inside a piece, away from its sides: a spine carries print and
    /// shading; a wall, a cabinet side or the gap between books is plain.
    static func interior(_ m: EdgeMaps, top: Int, bottom: Int, left: Line, right: Line, yc: Double) -> Interior {
        let w = m.width
        var n = 0.0, sum = 0.0, sq = 0.0, edges = 0.0, chroma = 0.0
        var colour = SIMD3<Double>.zero
        m.red.withUnsafeBufferPointer { R in m.green.withUnsafeBufferPointer { G in m.blue.withUnsafeBufferPointer { B in
        m.luma.withUnsafeBufferPointer { L in m.vertical.withUnsafeBufferPointer { V in m.horizontal.withUnsafeBufferPointer { Hm in
            var y = max(0, top)
            while y <= min(m.height - 1, bottom) {
                let x0 = left.at(Double(y), yc), x1 = right.at(Double(y), yc)
                let inset = max(1.5, (x1 - x0) * 0.15)
                let lo = max(0, Int((x0 + inset).rounded())), hi = min(w - 1, Int((x1 - inset).rounded()))
                if hi >= lo {
                    for x in lo...hi {
                        let v = Double(L[y * w + x])
                        n += 1; sum += v; sq += v * v; edges += Double(V[y * w + x] + Hm[y * w + x])
                        let i = y * w + x
                        chroma += Double(max(R[i], G[i], B[i]) - min(R[i], G[i], B[i]))
                        colour += SIMD3(Double(R[i]), Double(G[i]), Double(B[i]))
                    }
                }
                y += 1
            }
        }}}}}}
        guard n > 0 else { return (0, 0, 0, .zero) }
        let mean = sum / n
        return ((max(0, sq / n - mean * mean)).squareRoot(), edges / n, chroma / n, colour / n)
    }

    /// Prefix sums, from row `y0` down `count` rows, of how strong a vertical edge runs along both side lines
    /// (the stronger of three pixels across each, averaged over the two sides): a top or a foot is where that
    /// support starts or ends, and window means over the sums are one subtraction each.
    static func sideEvidence(_ m: EdgeMaps, from y0: Int, count n: Int, left: Line, right: Line, yc: Double) -> [Double] {
        var prefix = [Double](repeating: 0, count: n + 1)
        m.vertical.withUnsafeBufferPointer { V in
            let w = m.width
            for i in 0..<n {
                let y = y0 + i
                var s = 0.0
                for line in [left, right] {
                    let x = Int(line.at(Double(y), yc).rounded())
                    var v: Float = 0
                    for dx in -1...1 where x + dx >= 0 && x + dx < w { v = max(v, V[y * w + x + dx]) }
                    s += Double(v)
                }
                prefix[i + 1] = prefix[i] + s / 2
            }
        }
        return prefix
    }

    /// Coverage of near-horizontal edges along each pixel row between two boundary lines.
    static func horizontalCoverage(_ m: EdgeMaps, _ band: RowFinder.Band, left: Line, right: Line, yc: Double) -> [Double] {
        let w = m.width
        var cov = [Double](repeating: 0, count: band.bottom - band.top + 1)
        m.horizontal.withUnsafeBufferPointer { Hm in
            for y in band.top...band.bottom {
                let x0 = left.at(Double(y), yc), x1 = right.at(Double(y), yc)
                let inset = (x1 - x0) * 0.12
                let lo = max(0, Int((x0 + inset).rounded())), hi = min(w - 1, Int((x1 - inset).rounded()))
                guard hi > lo else { continue }
                var s: Float = 0
                // A row is a top edge only where the horizontal edge holds across the width (±1 px in y).
                for x in lo...hi {
                    var v = Hm[y * w + x]
                    if y > 0 { v = max(v, Hm[(y - 1) * w + x]) }
                    if y + 1 < m.height { v = max(v, Hm[(y + 1) * w + x]) }
                    s += v
                }
                cov[y - band.top] = Double(s) / Double(hi - lo + 1)
            }
        }
        return cov
    }

    /// The spine's top: the highest full-width horizontal edge in the upper part of the row; books stand
    /// on the board, so the bottom is the row's bottom unless a full-width edge sits just above it.
    /// `atPhotoTop`: the search starts at the photo's top edge, which cuts the row off. There the edge stands for
    /// the book's top as far as its sides run up to it: a book taller than the part in view has no top edge to
    /// find, and the strongest line across it below (a call-number sticker, a band of its cover) was taken.
    static func verticalExtent(_ m: EdgeMaps, _ band: RowFinder.Band, left: Line, right: Line, yc: Double,
                               searched: Double = 0.6, atPhotoTop: Bool = false, _ p: DetectorParameters) -> (Double, Double) {
        let cov = horizontalCoverage(m, band, left: left, right: right, yc: yc)
        let n = cov.count
        var top = Double(band.top), bottom = Double(band.bottom + 1)
        let upper = Int(Double(n) * searched)
        guard upper > 1 else { return (top, bottom) }
        if p.topSideWeight <= 0 {
            for i in 0..<upper where cov[i] >= p.topEdgeCoverage { top = Double(band.top + i); break }
            return (top, bottom)
        }
        // Continuity: a book's sides carry edges from its top down to the board, the background above it
        // does not (or not in line with them). The top is where a horizontal edge meets the start of both
        // side edges.
        let prefix = sideEvidence(m, from: band.top, count: n, left: left, right: right, yc: yc)
        let win = max(3, n / 10)
        let colour = p.topColourWeight.map { $0 > 0 ? rowColours(m, band, left: left, right: right, yc: yc) : nil } ?? nil
        var best = -Double.infinity, bestI = -1
        for i in 0..<upper {
            let below = (prefix[min(n, i + win)] - prefix[i]) / Double(min(n, i + win) - i)
            let above = i == 0 ? 0 : (prefix[i] - prefix[max(0, i - win)]) / Double(i - max(0, i - win))
            var v = (i == 0 && atPhotoTop ? max(cov[i], below) : cov[i]) + p.topSideWeight * (below - above)
            if let colour, let weight = p.topColourWeight, i > 0 {
                var d2 = 0.0
                for c in 0..<3 {
                    let pc = colour[c]
                    let mb = (pc[min(n, i + win)] - pc[i]) / Double(min(n, i + win) - i)
                    let ma = (pc[i] - pc[max(0, i - win)]) / Double(i - max(0, i - win))
                    d2 += (mb - ma) * (mb - ma)
                }
                v += weight * min(1, d2.squareRoot() / 100)
            }
            if v > best { best = v; bestI = i }
        }
        if bestI >= 0 && best >= p.topEdgeCoverage { top = Double(band.top + bestI) }
        return (top, bottom)
    }

    /// Prefix sums, per colour channel, of each pixel row's mean colour between two boundary lines
    /// (inset from them, so a neighbour's colour does not bleed in).
    static func rowColours(_ m: EdgeMaps, _ band: RowFinder.Band, left: Line, right: Line, yc: Double) -> [[Double]] {
        let w = m.width, n = band.bottom - band.top + 1
        var out = [[Double]](repeating: [Double](repeating: 0, count: n + 1), count: 3)
        for (c, plane) in [m.red, m.green, m.blue].enumerated() {
            plane.withUnsafeBufferPointer { P in
                for i in 0..<n {
                    let y = band.top + i
                    let x0 = left.at(Double(y), yc), x1 = right.at(Double(y), yc)
                    let inset = max(1, (x1 - x0) * 0.2)
                    let lo = max(0, Int((x0 + inset).rounded())), hi = min(w - 1, Int((x1 - inset).rounded()))
                    var s: Float = 0
                    if hi >= lo { for x in lo...hi { s += P[y * w + x] } }
                    out[c][i + 1] = out[c][i] + (hi >= lo ? Double(s) / Double(hi - lo + 1) : 0)
                }
            }
        }
        return out
    }

    /// The spine's foot. A row's band ends where the edge density of the row as a whole falls off, but
    /// books of one row do not all stand on the same line in the photo (a board seen in perspective, a
    /// tall book standing forward): the foot is where this spine's own side edges stop and a horizontal
    /// edge crosses it, searched from a little above the band's bottom to `reach` pixels below it.
    static func foot(_ m: EdgeMaps, _ band: RowFinder.Band, left: Line, right: Line, yc: Double, reach: Int,
                     _ p: DetectorParameters) -> Double {
        let rowH = band.bottom - band.top + 1
        let lo = max(band.top + rowH / 2, band.bottom - reach / 2), hi = min(m.height - 1, band.bottom + reach)
        guard hi > lo else { return Double(band.bottom + 1) }
        let span = RowFinder.Band(top: lo, bottom: hi)
        let cov = horizontalCoverage(m, span, left: left, right: right, yc: yc)
        let n = cov.count
        let prefix = sideEvidence(m, from: lo, count: n, left: left, right: right, yc: yc)
        let win = max(3, rowH / 10)
        // The band's own bottom wins ties: it moves only for clear evidence.
        let home = band.bottom + 1 - lo
        var best = -Double.infinity, bestI = home
        for i in 1..<n {
            let above = (prefix[i] - prefix[max(0, i - win)]) / Double(i - max(0, i - win))
            let below = (prefix[min(n, i + win)] - prefix[i]) / Double(max(1, min(n, i + win) - i))
            let v = cov[min(n - 1, i)] + p.topSideWeight * (above - below) + (i == home ? 0.05 : 0)
            if v > best { best = v; bestI = i }
        }
        return Double(lo + bestI)
    }

    /// A wide piece: if horizontal edges dominate, it is a stack of lying books, cut along y with the same
    /// DP turned 90 degrees; otherwise it is a gap, a bookend or a face-out cover and yields nothing.
    /// `byPrint`: the piece's print already shows a stack (`TextSupport.holdsStack`), so two lines across it
    /// suffice, whatever the vertical edges of its sides and of the wall above.
    static func lyingStack(_ m: EdgeMaps, _ band: RowFinder.Band, left: Line, right: Line, yc: Double,
                           byPrint: Bool = false, rowHeight: Double? = nil, _ p: DetectorParameters) -> (books: [Found], span: ClosedRange<Int>?) {
        let w = m.width
        // The stack's own columns first: where horizontal edges are dense. A piece this wide often also
        // holds the wall beside the stack and the cabinet side's long vertical edge, which would outvote
        // the stack's horizontal structure if the whole piece were weighed.
        var left = left, right = right
        let x0 = max(0, Int(min(left.at(Double(band.top), yc), left.at(Double(band.bottom), yc))))
        let x1 = min(w - 1, Int(max(right.at(Double(band.top), yc), right.at(Double(band.bottom), yc))))
        guard x1 > x0 else { return ([], nil) }
        let bandH = Double(band.bottom - band.top + 1)
        // How long a lying book may be is the row's matter: a stack in front of a row is searched in the
        // strip it fills, against the height of the row behind it.
        let rowH = rowHeight ?? bandH
        let runs = longRuns(m, band, x0: x0, x1: x1, minLength: max(6, Int(0.12 * rowH)))
        let sm = RowFinder.boxSmooth(runs.horizontal, radius: 2)
        let peak = sm.max() ?? 0
        guard peak > 0 else { return ([], nil) }
        // The longest run of columns crossed by many long horizontal lines: the stack, not a page block
        // or a shelf edge beside it.
        var a = 0, b = -1, i = 0
        while i < sm.count {
            guard sm[i] >= 0.25 * peak else { i += 1; continue }
            var e = i
            while e + 1 < sm.count && sm[e + 1] >= 0.25 * peak { e += 1 }
            if e - i > b - a { a = i; b = e }
            i = e + 1
        }
        // A lying book is no longer than a standing one is tall, so a run of long lines across more than
        // that is a board's planks or a wall's grain, not a stack.
        guard Double(b - a + 1) >= 0.3 * rowH, Double(b - a + 1) <= (p.lyingMaxLengthRatio ?? .infinity) * rowH else { return ([], nil) }
        left = Line(x: Double(x0 + a), slope: 0)
        right = Line(x: Double(x0 + b + 1), slope: 0)
        // Long lines only: letters print short strokes both ways, a lying book's edges run across the
        // whole stack and a standing book's sides down the whole row.
        let hSum = runs.horizontal[a...b].reduce(0, +), vSum = runs.vertical[a...b].reduce(0, +)
        let cov = longestRunCoverage(m, band, x0: x0 + a, x1: x0 + b)
        // A stack's ends, a cabinet's corner behind it or a post beside it carry long vertical lines too,
        // which can outvote the horizontal ones of a stack of two or three books; two lines across
        // nearly its whole length (its top and a boundary or its foot) below the band's top (where the
        // board above or the row's tops run) show the stack as well, with horizontal lines still ahead.
        let n = cov.count
        // The stack starts at its first full-width edge from the top; above it is the wall behind.
        var start = 0
        for i in 0..<n where cov[i] >= p.topEdgeCoverage { start = i; break }
        let across = edgeLines(Array(cov.dropFirst(Int(0.05 * bandH))), threshold: 0.7)
        guard hSum / Double(b - a + 1) / bandH > p.lyingMinEdgeDensity,
              hSum > p.lyingDominance * vSum || (across >= 2 && (byPrint || hSum > vSum)) else { return ([], nil) }
        let stackW = right.x - left.x
        let prior = Segmenter.Prior(length: stackW, median: p.lyingThicknessRatioMedian,
                                    logSigma: p.widthRatioLogSigma, weight: p.widthPriorWeight,
                                    threshold: p.lyingBoundaryThreshold, minRatio: p.minWidthRatio,
                                    maxRatio: max(0.5, p.maxWidthRatio * 2), peakRadius: Int(p.peakRadius.rounded()))
        let cuts = Segmenter.cuts(cov, lo: start, hi: n - 1, prior)
        var out: [Found] = []
        for k in 0..<(cuts.count - 1) {
            let y0 = Double(band.top + cuts[k]), y1 = Double(band.top + cuts[k + 1] + (k + 2 == cuts.count ? 1 : 0))
            if y1 - y0 < 2 { continue }
            // Thicker than half its length is no book lying on its side: the wall above the stack.
            if y1 - y0 > 0.5 * stackW { continue }
            // Thinner than this is the double line of one edge (a page block's top and its cover's).
            if y1 - y0 < 0.06 * stackW { continue }
            let ym = (y0 + y1) / 2
            let xl = left.at(ym, yc), xr = right.at(ym, yc)
            let ca = k == 0 ? 0.5 : cov[cuts[k]], cb = k + 2 == cuts.count ? 0.5 : cov[cuts[k + 1]]
            // Coverage of its two long edges, 0...1: not on the standing boundaries' score scale, which the
            // confidence model's `lying` cue offsets.
            let conf = min(1, max(0, (ca + cb) / 2))
            // Turned upright, a lying book's head is at its left end: TL is bottom-left of the image box.
            let q = Quad(topLeft: Point(x: xl, y: y1), topRight: Point(x: xl, y: y0),
                         bottomRight: Point(x: xr, y: y0), bottomLeft: Point(x: xr, y: y1))
            let inside = interior(m, top: Int(y0), bottom: Int(y1) - 1, left: Line(x: xl, slope: 0), right: Line(x: xr, slope: 0), yc: ym)
            out.append(Found(quad: q, confidence: conf, lying: true, inside: inside))
        }
        return (out, Int(left.x.rounded(.down))...max(Int(left.x.rounded(.down)), Int(right.x.rounded(.up))))
    }

    /// Per column of `x0...x1`, how many of the band's pixels lie on a horizontal edge run, and on a
    /// vertical one, at least `minLength` long (edges bridged across ±1 pixel, so a slightly tilted line
    /// still counts as one run).
    static func longRuns(_ m: EdgeMaps, _ band: RowFinder.Band, x0: Int, x1: Int, minLength: Int) -> (horizontal: [Double], vertical: [Double]) {
        let w = m.width, h = m.height, n = x1 - x0 + 1
        var hc = [Double](repeating: 0, count: n), vc = hc
        let on: Float = 0.25
        m.horizontal.withUnsafeBufferPointer { Hm in
            for y in band.top...band.bottom {
                var start = -1
                for x in x0...(x1 + 1) {
                    var lit = false
                    if x <= x1 { for dy in -1...1 where y + dy >= 0 && y + dy < h && Hm[(y + dy) * w + x] > on { lit = true; break } }
                    if lit { if start < 0 { start = x } } else if start >= 0 {
                        if x - start >= minLength { for i in start..<x where Hm[y * w + i] > on { hc[i - x0] += 1 } }
                        start = -1
                    }
                }
            }
        }
        m.vertical.withUnsafeBufferPointer { V in
            for x in x0...x1 {
                var start = -1
                for y in band.top...(band.bottom + 1) {
                    var lit = false
                    if y <= band.bottom { for dx in -1...1 where x + dx >= 0 && x + dx < w && V[y * w + x + dx] > on { lit = true; break } }
                    if lit { if start < 0 { start = y } } else if start >= 0 {
                        if y - start >= minLength { vc[x - x0] += Double(y - start) }
                        start = -1
                    }
                }
            }
        }
        return (hc, vc)
    }

    /// The longest vertical edge run down column `x` inside the band (bridged across ±1 column and gaps of a
    /// pixel or two).
    static func verticalRun(_ m: EdgeMaps, _ band: RowFinder.Band, x: Int) -> Double {
        let w = m.width
        guard x >= 0, x < w, band.bottom >= band.top else { return 0 }
        var run = GappedRun()
        for y in band.top...band.bottom {
            var lit = false
            for dx in -1...1 where x + dx >= 0 && x + dx < w && m.vertical[y * w + x + dx] > 0.25 { lit = true; break }
            run.add(lit)
        }
        return Double(run.longest)
    }

    /// How many separate lines (runs of pixel rows) reach `threshold` coverage.
    static func edgeLines(_ cov: [Double], threshold: Double) -> Int {
        var n = 0, on = false
        for v in cov { if v >= threshold { if !on { n += 1 }; on = true } else { on = false } }
        return n
    }

    /// Per pixel row of the band, the longest horizontal edge run inside `x0...x1` over the span's width:
    /// a lying book's edge crosses the whole stack in one run, a line of print is many short strokes.
    static func longestRunCoverage(_ m: EdgeMaps, _ band: RowFinder.Band, x0: Int, x1: Int) -> [Double] {
        let w = m.width, h = m.height
        var out = [Double](repeating: 0, count: band.bottom - band.top + 1)
        guard x1 > x0 else { return out }
        m.horizontal.withUnsafeBufferPointer { Hm in
            for y in band.top...band.bottom {
                var run = GappedRun()
                for x in x0...x1 {
                    var lit = false
                    for dy in -1...1 where y + dy >= 0 && y + dy < h && Hm[(y + dy) * w + x] > 0.25 { lit = true; break }
                    run.add(lit)
                }
                out[y - band.top] = Double(run.longest) / Double(x1 - x0 + 1)
            }
        }
        return out
    }
}

/// The longest run of lit pixels along a line, fed pixel by pixel. A pixel or two of gap (a worn corner, a
/// scratch) does not end a book's edge; the gap counts in the run once the edge goes on.
struct GappedRun {
    private(set) var longest = 0
    private var run = 0, gap = 0

    mutating func add(_ lit: Bool) {
        if lit { run += 1 + gap; gap = 0 } else if run > 0 && gap < 2 { gap += 1 } else { run = 0; gap = 0 }
        longest = max(longest, run)
    }
}
