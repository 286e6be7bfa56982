import Foundation

/// Cuts a row into spines as a whole: dynamic programming over candidate boundaries, each cut paid for
/// by its boundary evidence and each piece priced by a log-normal prior on width relative to the row
/// height. Greedy peak picking splits wide spines at title edges and merges thin ones; the prior
/// arbitrates between the two.
enum Segmenter {
    struct Prior {
        var length: Double      // row height (or stack width, turned)
        var median: Double
        var logSigma: Double
        var weight: Double
        var threshold: Double
        var minRatio: Double
        var maxRatio: Double
        /// Candidate cuts are local maxima over this many pixels either side: a soft boundary's edge
        /// ramp must give one cut, not one per shoulder.
        var peakRadius: Int
    }

    /// Boundary positions in `lo...hi`, both ends included, chosen from the local maxima of `score`.
    static func cuts(_ score: [Double], lo: Int, hi: Int, _ prior: Prior) -> [Int] {
        guard hi > lo else { return [lo, hi] }
        var cand = [lo]
        let r = max(1, prior.peakRadius)
        for x in (lo + 1)..<hi where score[x] > prior.threshold * 0.6 {
            var isMax = true
            for j in max(lo, x - r)...min(hi, x + r) where j != x {
                if score[j] > score[x] || (score[j] == score[x] && j < x) { isMax = false; break }
            }
            if isMax { cand.append(x) }
        }
        cand.append(hi)
        let n = cand.count
        let zMax = log(prior.maxRatio / prior.median) / prior.logSigma
        let cap = prior.weight * zMax * zMax
        func segmentCost(_ w: Int) -> Double? {
            let ratio = Double(w) / prior.length
            if ratio < prior.minRatio { return nil }
            let z = log(ratio / prior.median) / prior.logSigma
            return min(prior.weight * z * z, cap)
        }
        var best = [Double](repeating: -.infinity, count: n)
        var back = [Int](repeating: -1, count: n)
        best[0] = 0
        for j in 1..<n {
            let gain = j == n - 1 ? 0 : score[cand[j]] - prior.threshold
            for i in stride(from: j - 1, through: 0, by: -1) where best[i] > -.infinity {
                guard let c = segmentCost(cand[j] - cand[i]) else { continue }
                let v = best[i] - c + gain
                if v > best[j] { best[j] = v; back[j] = i }
            }
        }
        if back[n - 1] < 0 { return [lo, hi] }
        var out = [Int]()
        var j = n - 1
        while j >= 0 { out.append(cand[j]); if j == 0 { break }; j = back[j] }
        return out.reversed()
    }
}
