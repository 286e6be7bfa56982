/// How alike an OCR'd word and a catalogue word are, in 0...1, tuned for what OCR does to spines:
/// letters swapped ("ruescaz"), the first or last letters lost at the spine's edge ("avier" for "javier"),
/// a word cut at a line break ("histo" for "historico"), two words run together ("labella" for "la bella").
enum WordSimilarity {
    /// Words shorter than this only match exactly: a two-letter fragment matches too many words.
    static let minFuzzyLength = 3

    static func similarity(_ q: UnsafeBufferPointer<UInt32>, _ w: UnsafeBufferPointer<UInt32>,
                           scratch: inout [Int32]) -> Float {
        let nq = q.count, nw = w.count
        if nq == 0 || nw == 0 { return 0 }
        let lev = levenshtein(q, w, &scratch)
        var best = 1 - Float(lev) / Float(max(nq, nw))
        if nq > nw && nw >= 4 {
            // The catalogue word sits inside a run-together OCR word.
            let d = semiGlobal(needle: w, hay: q, &scratch)
            best = max(best, (1 - Float(d) / Float(nw)) * (0.3 + 0.7 * Float(nw) / Float(nq)))
        } else if nw > nq && nq >= 4 {
            // The OCR word is a piece of the catalogue word (cut at an edge or a line break).
            let d = semiGlobal(needle: q, hay: w, &scratch)
            best = max(best, (1 - Float(d) / Float(nq)) * (0.4 + 0.6 * Float(nq) / Float(nw)))
        }
        return max(0, best)
    }

    /// Plain edit distance, one row of scratch space.
    static func levenshtein(_ a: UnsafeBufferPointer<UInt32>, _ b: UnsafeBufferPointer<UInt32>, _ row: inout [Int32]) -> Int {
        let m = b.count
        if row.count < m + 1 { row = [Int32](repeating: 0, count: m + 1) }
        return row.withUnsafeMutableBufferPointer { r in
            for j in 0...m { r[j] = Int32(j) }
            for i in 1...a.count {
                var diag = r[0]
                r[0] = Int32(i)
                let ca = a[i - 1]
                for j in 1...m {
                    let up = r[j]
                    let sub = diag + (ca == b[j - 1] ? 0 : 1)
                    r[j] = min(sub, min(up, r[j - 1]) + 1)
                    diag = up
                }
            }
            return Int(r[m])
        }
    }

    /// Fewest edits turning `needle` into some substring of `hay` (free start and end in `hay`).
    static func semiGlobal(needle: UnsafeBufferPointer<UInt32>, hay: UnsafeBufferPointer<UInt32>, _ row: inout [Int32]) -> Int {
        // Rows over the needle, columns over the hay: row 0 is all zeros (start anywhere), answer is the
        // minimum of the last row (end anywhere).
        let m = needle.count
        if row.count < m + 1 { row = [Int32](repeating: 0, count: m + 1) }
        return row.withUnsafeMutableBufferPointer { r in
            // Iterate hay as the outer loop, keeping a column over the needle.
            for i in 0...m { r[i] = Int32(i) }
            var best = r[m]
            for j in 0..<hay.count {
                var diag = r[0]
                r[0] = 0
                let ch = hay[j]
                for i in 1...m {
                    let left = r[i]
                    let sub = diag + (needle[i - 1] == ch ? 0 : 1)
                    r[i] = min(sub, min(left, r[i - 1]) + 1)
                    diag = left
                }
                best = min(best, r[m])
            }
            return Int(best)
        }
    }
}
