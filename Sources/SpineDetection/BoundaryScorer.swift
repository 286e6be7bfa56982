import CPixelLoops
import Foundation

/// Scores every candidate spine boundary in one shelf row: for each column position and each tilt, the
/// straight line through the whole row height is scored by how much of it carries a near-vertical edge
/// (coverage, not sum, so a bright label edge cannot outvote a faint full-height seam), whether it runs
/// in a dark shadow valley, how different the colours on its two sides are, and whether its edge reaches the
/// foot of the row. The weights come from a logistic regression of boundary against other peaks
/// (scripts/fit-boundaries.py, on the training split it states), so the score reads as log-odds up to a scale.
struct BoundaryProfile {
    /// Best score per column (x at the row's middle height).
    var score: [Double]
    /// Slope dx/dy of the best line per column.
    var slope: [Double]
    /// The row's dominant slope: spines in one bay lean together.
    var rowSlope: Double
    /// The cues behind each column's best line, four per column (x * 4 ..< x * 4 + 4) in
    /// `BoundaryCandidate.cueNames` order: what scripts/fit-boundaries.py fits the weights on.
    var cues: [Double]
}

enum BoundaryScorer {
    static func profile(_ m: EdgeMaps, top: Int, bottom: Int, _ p: DetectorParameters) -> BoundaryProfile {
        let w = m.width
        let yc = Double(top + bottom) / 2
        let bandH = bottom - top + 1
        let step = bandH > 120 ? 2 : 1
        // Upright books share many rows with fallen ones, so the range is widened towards the row's lean,
        // never moved off vertical.
        let lean = rowLean(m, top: top, bottom: bottom, p)
        let lowest = min(0, lean) - p.maxTiltDegrees, highest = max(0, lean) + p.maxTiltDegrees
        let nA = max(1, Int(((highest - lowest) / p.tiltStepDegrees).rounded()) + 1)
        let slopes = (0..<nA).map { i -> Double in
            nA == 1 ? 0 : tan((lowest + Double(i) * p.tiltStepDegrees) * .pi / 180)
        }
        var cov = [[Double]](), lum = [[Double]](), rr = [[Double]](), gg = [[Double]](), bb = [[Double]]()
        var foot = [[Double]]()
        var accC = [Float](repeating: 0, count: w), accL = [Float](repeating: 0, count: w)
        var accR = [Float](repeating: 0, count: w), accG = [Float](repeating: 0, count: w)
        var accB = [Float](repeating: 0, count: w), accF = [Float](repeating: 0, count: w)
        var cnt = [Float](repeating: 0, count: w), cntF = [Float](repeating: 0, count: w)
        // The foot of the row: every book stands on the board, so a real boundary still carries its edge
        // there, while the edge of a title block or a label usually stops short of it.
        let footTop = bottom - max(1, Int(Double(bandH) * p.footFraction))
        let rows = Array(stride(from: top, through: bottom, by: step))
        var offsets = [Int](repeating: 0, count: rows.count)
        m.vertical.withUnsafeBufferPointer { V in m.luma.withUnsafeBufferPointer { L in
        m.red.withUnsafeBufferPointer { R in m.green.withUnsafeBufferPointer { G in m.blue.withUnsafeBufferPointer { B in
            for t in slopes {
                for (k, y) in rows.enumerated() { offsets[k] = Int(((Double(y) - yc) * t).rounded()) }
                // Eight sums per pixel and tilt: the most repeated loop of detection, in C where it vectorises.
                shelf_slant_sums(V.baseAddress, L.baseAddress, R.baseAddress, G.baseAddress, B.baseAddress, w,
                                 rows, offsets, rows.count, footTop,
                                 &accC, &accL, &accR, &accG, &accB, &cnt, &accF, &cntF)
                var c1 = [Double](repeating: 0, count: w), l1 = c1, r1 = c1, g1 = c1, b1 = c1, f1 = c1
                for x in 0..<w {
                    f1[x] = cntF[x] > 0 ? Double(accF[x]) / Double(cntF[x]) : 0
                    let n = Double(max(1, cnt[x]))
                    // Lines that leave the image for most of their height are not trusted.
                    let frac = Double(cnt[x]) * Double(step) / Double(bandH)
                    c1[x] = Double(accC[x]) / n * min(1, frac * 1.25)
                    l1[x] = Double(accL[x]) / n; r1[x] = Double(accR[x]) / n
                    g1[x] = Double(accG[x]) / n; b1[x] = Double(accB[x]) / n
                }
                cov.append(c1); lum.append(l1); rr.append(r1); gg.append(g1); bb.append(b1)
                foot.append(f1)
            }
        }}}}}
        // The dominant lean: the tilt whose coverage profile is most peaked.
        var bestA = nA / 2, bestE = -1.0
        for a in 0..<nA {
            var e = 0.0
            for x in 0..<w { e += cov[a][x] * cov[a][x] }
            if e > bestE { bestE = e; bestA = a }
        }
        let rowSlope = slopes[bestA]
        // Lean drifts along a row (books prop each other up), so each column is held to the lean that
        // dominates its neighbourhood, and a single stray diagonal (a title line) cannot pull it away.
        let win = max(4, bandH / 2)
        var localA = [Int](repeating: bestA, count: w)
        var localE = [Double](repeating: -1, count: w)
        for a in 0..<nA {
            var prefix = [Double](repeating: 0, count: w + 1)
            for x in 0..<w { prefix[x + 1] = prefix[x] + cov[a][x] * cov[a][x] }
            for x in 0..<w {
                let e = prefix[min(w, x + win + 1)] - prefix[max(0, x - win)]
                if e > localE[x] { localE[x] = e; localA[x] = a }
            }
        }
        let d = max(2, w / 250), s = max(3, w / 100)
        var score = [Double](repeating: 0, count: w), slope = [Double](repeating: rowSlope, count: w)
        var cues = [Double](repeating: 0, count: w * 4)
        for a in 0..<nA {
            for x in 0..<w {
                let tiltPenalty = p.tiltPenalty * abs(atan(slopes[a]) - atan(slopes[localA[x]])) / (p.maxTiltDegrees * .pi / 180)
                let xl0 = x - d - s, xl1 = x - d, xr0 = x + d, xr1 = x + d + s
                var dark = 0.0, colour = 0.0
                if xl0 >= 0 && xr1 < w {
                    var sl = 0.0, sr = 0.0, cl = (0.0, 0.0, 0.0), cr = (0.0, 0.0, 0.0)
                    for i in xl0...xl1 { sl += lum[a][i]; cl.0 += rr[a][i]; cl.1 += gg[a][i]; cl.2 += bb[a][i] }
                    for i in xr0...xr1 { sr += lum[a][i]; cr.0 += rr[a][i]; cr.1 += gg[a][i]; cr.2 += bb[a][i] }
                    let nn = Double(s + 1)
                    var valley = lum[a][x]
                    for i in (x - d + 1)...(x + d - 1) { valley = min(valley, lum[a][i]) }
                    dark = min(1, max(0, (min(sl, sr) / nn - valley) / 40))
                    colour = min(1, (abs(cl.0 - cr.0) + abs(cl.1 - cr.1) + abs(cl.2 - cr.2)) / nn / 120)
                }
                let v = cov[a][x] + p.darkGapWeight * dark + p.colourChangeWeight * colour - tiltPenalty
                    + p.footWeight * min(cov[a][x], foot[a][x])
                if v > score[x] {
                    score[x] = v; slope[x] = slopes[a]
                    cues[4 * x] = cov[a][x]; cues[4 * x + 1] = min(cov[a][x], foot[a][x])
                    cues[4 * x + 2] = dark; cues[4 * x + 3] = colour
                }
            }
        }
        return BoundaryProfile(score: score, slope: slope, rowSlope: rowSlope, cues: cues)
    }

    /// Degrees the row's spines lean as a whole, which the fine tilt search is widened to. Books that have
    /// fallen against each other lean 20-40 degrees, past any search range that stays cheap and keeps
    /// upright rows from catching diagonal print; so a coarse search over `maxRowLeanDegrees` (every
    /// third pixel row, 4-degree steps) finds the lean first, and only a lean clearly past half the fine
    /// range widens it (upright and slightly leaning rows are searched exactly as before).
    static func rowLean(_ m: EdgeMaps, top: Int, bottom: Int, _ p: DetectorParameters) -> Double {
        guard let maxLean = p.maxRowLeanDegrees, maxLean > p.maxTiltDegrees else { return 0 }
        let w = m.width
        let yc = Double(top + bottom) / 2
        let step = 3, coarse = 4.0
        let n = Int(maxLean / coarse)
        var acc = [Float](repeating: 0, count: w), cnt = [Float](repeating: 0, count: w)
        var best = 0.0, bestE = -1.0
        let rows = Array(stride(from: top, through: bottom, by: step))
        var offsets = [Int](repeating: 0, count: rows.count)
        m.vertical.withUnsafeBufferPointer { V in
            for k in -n...n {
                let deg = Double(k) * coarse, t = tan(deg * .pi / 180)
                for (i, y) in rows.enumerated() { offsets[i] = Int(((Double(y) - yc) * t).rounded()) }
                shelf_slant_coverage(V.baseAddress, w, rows, offsets, rows.count, &acc, &cnt)
                let full = Float((bottom - top) / step + 1)
                var e = 0.0
                // Coverage squared, over lines that stay in the image for most of the row.
                for x in 0..<w where cnt[x] >= 0.8 * full { let c = Double(acc[x] / cnt[x]); e += c * c }
                if e > bestE { bestE = e; best = deg }
            }
        }
        return abs(best) > p.maxTiltDegrees / 2 ? best : 0
    }
}
