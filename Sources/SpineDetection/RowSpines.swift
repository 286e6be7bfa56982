import Foundation
import ShelfImage

/// Turns one shelf row into spine quads (working-image pixels): boundaries by DP, each spine's top found
/// where a horizontal edge crosses it, and wide pieces with horizontal structure split as lying stacks.
enum RowSpines {
    struct Found { var quad: Quad; var confidence: Double; var lying: Bool }

    /// A boundary line: x at the row's middle height and its slope dx/dy.
    struct Line {
        var x: Double
        var slope: Double
        func at(_ y: Double, _ yc: Double) -> Double { x + (y - yc) * slope }
    }

    /// `ceiling`: the lowest pixel row the spine tops may reach up to (just below the row above).
    static func find(_ m: EdgeMaps, _ band: RowFinder.Band, ceiling: Int, _ p: DetectorParameters) -> [Found] {
        let w = m.width
        let rowH = Double(band.bottom - band.top + 1)
        let prof = BoundaryScorer.profile(m, top: band.top, bottom: band.bottom, p)
        let prior = Segmenter.Prior(length: rowH, median: p.widthRatioMedian, logSigma: p.widthRatioLogSigma,
                                    weight: p.widthPriorWeight, threshold: threshold(prof.score, p),
                                    minRatio: p.minWidthRatio, maxRatio: p.maxWidthRatio,
                                    peakRadius: Int(p.peakRadius.rounded()))
        let cuts = Segmenter.cuts(suppressingStacks(m, band, prof.score, p), lo: 0, hi: w - 1, prior)
        return pieces(cuts, m, band, ceiling: ceiling, prof: prof, prior: prior, retry: true, p)
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
                               prof: BoundaryProfile, prior: Segmenter.Prior, retry: Bool,
                               _ p: DetectorParameters) -> [Found] {
        let w = m.width
        let rowH = Double(band.bottom - band.top + 1)
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
            if width / rowH > p.maxWidthRatio {
                let stack = lyingStack(m, band, left: left, right: right, yc: yc, p)
                out += stack.books
                guard retry else { continue }
                var rest: [(Int, Int)] = [(a, b)]
                if let span = stack.span { rest = [(a, max(a, span.lowerBound)), (min(b, span.upperBound), b)] }
                var lowered = prior
                lowered.threshold *= stack.span == nil ? p.wideRetryThresholdFactor : 1
                for (lo, hi) in rest where Double(hi - lo) / rowH >= p.gapMaxWidthRatio {
                    let sub = Segmenter.cuts(prof.score, lo: lo, hi: hi, lowered)
                    out += pieces(sub, m, band, ceiling: ceiling, prof: prof, prior: prior, retry: false, p)
                }
                continue
            }
            // Slivers: the shadow or panel showing between two books, bounded by both their edges.
            if width / rowH < p.gapMaxWidthRatio { continue }
            // A book's two sides are parallel; a wedge between sides leaning differently is the gap left
            // beside a leaning book.
            if abs(atan(left0.slope) - atan(right0.slope)) * 180 / .pi > p.maxSideAngleDegrees { continue }
            let reach = max(ceiling, band.top - Int(p.topReach * rowH))
            var (top, bottom) = verticalExtent(m, RowFinder.Band(top: reach, bottom: band.bottom), left: left, right: right, yc: yc, p)
            if let footReach = p.footReach, footReach > 0 {
                bottom = foot(m, band, left: left, right: right, yc: yc, reach: Int(footReach * rowH), p)
            }
            // A piece with no print and no shading is wall or gap seen between books, not a spine.
            if isBlank(m, top: Int(top), bottom: Int(bottom) - 1, left: left, right: right, yc: yc, p) { continue }
            let conf = min(1, max(0, (min(sa, sb) + max(sa, sb)) / 2 / (2 * p.boundaryThreshold + 0.5)))
            if conf < p.minConfidence { continue }
            let q = Quad(topLeft: Point(x: left.at(top, yc), y: top), topRight: Point(x: right.at(top, yc), y: top),
                         bottomRight: Point(x: right.at(bottom, yc), y: bottom),
                         bottomLeft: Point(x: left.at(bottom, yc), y: bottom))
            out.append(Found(quad: q, confidence: conf, lying: false))
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

    static func isBlank(_ m: EdgeMaps, top: Int, bottom: Int, left: Line, right: Line, yc: Double,
                        _ p: DetectorParameters) -> Bool {
        let w = m.width
        var n = 0.0, sum = 0.0, sq = 0.0, edges = 0.0
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
                    }
                }
                y += 1
            }
        }}}
        guard n > 0 else { return true }
        let mean = sum / n
        let sd = (max(0, sq / n - mean * mean)).squareRoot()
        return sd < p.blankMaxLumaSD && edges / n < p.blankMaxEdgeDensity
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
    static func verticalExtent(_ m: EdgeMaps, _ band: RowFinder.Band, left: Line, right: Line, yc: Double,
                               _ p: DetectorParameters) -> (Double, Double) {
        let cov = horizontalCoverage(m, band, left: left, right: right, yc: yc)
        let n = cov.count
        var top = Double(band.top), bottom = Double(band.bottom + 1)
        let upper = Int(Double(n) * 0.6)
        guard upper > 1 else { return (top, bottom) }
        if p.topSideWeight <= 0 {
            for i in 0..<upper where cov[i] >= p.topEdgeCoverage { top = Double(band.top + i); break }
            return (top, bottom)
        }
        // Continuity: a book's sides carry edges from its top down to the board, the background above it
        // does not (or not in line with them). The top is where a horizontal edge meets the start of both
        // side edges.
        var side = [Double](repeating: 0, count: n)
        m.vertical.withUnsafeBufferPointer { V in
            let w = m.width
            for i in 0..<n {
                let y = band.top + i
                var s = 0.0
                for line in [left, right] {
                    let x = Int(line.at(Double(y), yc).rounded())
                    var v: Float = 0
                    for dx in -1...1 where x + dx >= 0 && x + dx < w { v = max(v, V[y * w + x + dx]) }
                    s += Double(v)
                }
                side[i] = s / 2
            }
        }
        var prefix = [Double](repeating: 0, count: n + 1)
        for i in 0..<n { prefix[i + 1] = prefix[i] + side[i] }
        let win = max(3, n / 10)
        var best = -Double.infinity, bestI = -1
        for i in 0..<upper {
            let below = (prefix[min(n, i + win)] - prefix[i]) / Double(min(n, i + win) - i)
            let above = i == 0 ? 0 : (prefix[i] - prefix[max(0, i - win)]) / Double(i - max(0, i - win))
            let v = cov[i] + p.topSideWeight * (below - above)
            if v > best { best = v; bestI = i }
        }
        if bestI >= 0 && best >= p.topEdgeCoverage { top = Double(band.top + bestI) }
        return (top, bottom)
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
        var side = [Double](repeating: 0, count: n)
        m.vertical.withUnsafeBufferPointer { V in
            let w = m.width
            for i in 0..<n {
                let y = lo + i
                var s = 0.0
                for line in [left, right] {
                    let x = Int(line.at(Double(y), yc).rounded())
                    var v: Float = 0
                    for dx in -1...1 where x + dx >= 0 && x + dx < w { v = max(v, V[y * w + x + dx]) }
                    s += Double(v)
                }
                side[i] = s / 2
            }
        }
        var prefix = [Double](repeating: 0, count: n + 1)
        for i in 0..<n { prefix[i + 1] = prefix[i] + side[i] }
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
    static func lyingStack(_ m: EdgeMaps, _ band: RowFinder.Band, left: Line, right: Line, yc: Double,
                           _ p: DetectorParameters) -> (books: [Found], span: ClosedRange<Int>?) {
        let w = m.width
        var sv: Float = 0, sh: Float = 0, count = 0
        m.vertical.withUnsafeBufferPointer { V in m.horizontal.withUnsafeBufferPointer { Hm in
            for y in band.top...band.bottom {
                let x0 = left.at(Double(y), yc), x1 = right.at(Double(y), yc)
                let inset = (x1 - x0) * 0.1
                let lo = max(0, Int(x0 + inset)), hi = min(w - 1, Int(x1 - inset))
                guard hi > lo else { continue }
                for x in lo...hi { sv += V[y * w + x]; sh += Hm[y * w + x]; count += 1 }
            }
        }}
        guard count > 0 else { return ([], nil) }
        let meanH = Double(sh) / Double(count), meanV = Double(sv) / Double(count)
        guard meanH > p.lyingMinEdgeDensity, meanH > p.lyingDominance * meanV else { return ([], nil) }
        // The stack's own columns: where horizontal edges are dense, not the wall or gap beside it.
        var left = left, right = right
        do {
            let x0 = max(0, Int(min(left.at(Double(band.top), yc), left.at(Double(band.bottom), yc))))
            let x1 = min(w - 1, Int(max(right.at(Double(band.top), yc), right.at(Double(band.bottom), yc))))
            if x1 > x0 {
                var dens = [Double](repeating: 0, count: x1 - x0 + 1)
                m.horizontal.withUnsafeBufferPointer { Hm in
                    for y in band.top...band.bottom { for x in x0...x1 { dens[x - x0] += Double(Hm[y * w + x]) } }
                }
                let sm = RowFinder.boxSmooth(dens, radius: 2)
                let peak = sm.max() ?? 0
                if peak > 0, let a = sm.firstIndex(where: { $0 >= 0.5 * peak }), let b = sm.lastIndex(where: { $0 >= 0.5 * peak }), b > a {
                    left = Line(x: Double(x0 + a), slope: 0)
                    right = Line(x: Double(x0 + b + 1), slope: 0)
                }
            }
        }
        let cov = horizontalCoverage(m, band, left: left, right: right, yc: yc)
        let n = cov.count
        // The stack starts at its first full-width edge from the top; above it is the wall behind.
        var start = 0
        for i in 0..<n where cov[i] >= p.topEdgeCoverage { start = i; break }
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
            let ym = (y0 + y1) / 2
            let xl = left.at(ym, yc), xr = right.at(ym, yc)
            let ca = k == 0 ? 0.5 : cov[cuts[k]], cb = k + 2 == cuts.count ? 0.5 : cov[cuts[k + 1]]
            let conf = min(1, max(0, (ca + cb) / 2 / (2 * p.boundaryThreshold + 0.5)))
            // Turned upright, a lying book's head is at its left end: TL is bottom-left of the image box.
            let q = Quad(topLeft: Point(x: xl, y: y1), topRight: Point(x: xl, y: y0),
                         bottomRight: Point(x: xr, y: y0), bottomLeft: Point(x: xr, y: y1))
            out.append(Found(quad: q, confidence: conf, lying: true))
        }
        return (out, Int(left.x.rounded(.down))...max(Int(left.x.rounded(.down)), Int(right.x.rounded(.up))))
    }
}
