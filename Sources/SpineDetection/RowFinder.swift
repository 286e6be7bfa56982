/// Finds the horizontal bands that hold books.
///
/// Standing spines fill a band with near-vertical edges from side to side, while shelf boards, walls
/// and floors carry few: the fraction of each pixel row covered by vertical edges, smoothed, marks the
/// bands. Lying stacks carry horizontal edges instead, so they count as well when they sit beside spines.
enum RowFinder {
    struct Band { var top: Int; var bottom: Int }

    /// `cutOff`: whether a band running out of the photo's bottom holds books cut off by the photo's edge
    /// (their print runs up it) rather than a floor; such a band is kept. Nil: none is. `byHeight`: whether such a
    /// band is kept for its height alone (`footlessRowMinHeight`).
    static func rows(_ maps: EdgeMaps, _ p: DetectorParameters, cutOff: ((Band) -> Bool)? = nil, byHeight: Bool = true) -> [Band] {
        let w = maps.width, h = maps.height
        guard w > 2, h > 2 else { return [] }
        var cover = [Double](repeating: 0, count: h)
        maps.vertical.withUnsafeBufferPointer { v in
            for y in 0..<h {
                var s: Float = 0
                for x in 0..<w { s += v[y * w + x] }
                cover[y] = Double(s) / Double(w)
            }
        }
        let scale = rowScale(width: w, height: h, p)
        let smooth = boxSmooth(cover, radius: max(1, scale / 60))
        let minRun = max(2, Int(p.minRowHeight * Double(h)))
        // Relative to the busiest pixel row, so flat-coloured spines and richly printed ones both make a
        // row; the absolute floor keeps a blank wall from becoming one.
        let peak = smooth.max() ?? 0
        let threshold = max(p.rowMinEdgeFraction, p.rowVerticalEdgeFraction * peak)
        var bands: [Band] = []
        var start: Int? = nil
        for y in 0...h {
            let on = y < h && smooth[y] >= threshold
            if on, start == nil { start = y }
            if !on, let s = start {
                bands.append(Band(top: s, bottom: y - 1))
                start = nil
            }
        }
        // Close small gaps (a label strip or a glare streak across the books) before the length check. A band
        // that runs out of the photo's bottom (within such a gap) shows no feet: a floor, or books cut off, so
        // nothing to box, unless it fills most of the photo (one row seen close up; `byHeight`) or `cutOff` finds
        // books in it. It is left out before gaps close: joined to the row above a thin board, it would take that row
        // down with it.
        let gap = gapClosed(height: scale)
        var merged: [Band] = []
        let closeUp = byHeight ? p.footlessRowMinHeight.map { Int($0 * Double(h)) } ?? Int.max : Int.max
        for b in bands where !(p.rowsNeedVisibleFeet == true && runsOutOfBottom(b, height: h) && b.bottom - b.top + 1 < closeUp
                                && !(cutOff?(b) ?? false)) {
            if let last = merged.last, b.top - last.bottom <= gap {
                merged[merged.count - 1].bottom = b.bottom
            } else {
                merged.append(b)
            }
        }
        return merged.filter { $0.bottom - $0.top + 1 >= minRun }
    }

    /// The length the bands' smoothing and closed gaps scale with: the photo's height, or with `rowScaleByWidth`
    /// nine sixteenths of its width where that is more. Books, their labels and glare are as large as the photo's
    /// width makes them; a photo wider than a phone takes (cut to one row, or a panorama) is short for them, and a
    /// strip of call-number labels across the row, wider than a gap of its height, cut the row in two. A phone's
    /// own shapes (4:3, 3:2, 16:9, and portrait) are measured by their height as before.
    static func rowScale(width w: Int, height h: Int, _ p: DetectorParameters) -> Int {
        p.rowScaleByWidth == true ? max(h, 9 * w / 16) : h
    }

    /// The widest gap between two bands of edges that still joins them into one (a label strip, a glare streak).
    static func gapClosed(height h: Int) -> Int { max(2, h / 80) }

    /// Whether a band reaches the photo's bottom edge (within a closed gap): no board under it is in view.
    static func runsOutOfBottom(_ b: Band, height h: Int) -> Bool { b.bottom >= h - 1 - gapClosed(height: h) }

    /// Whether a band reaches the photo's top edge (within a closed gap): its books' tops may be out of view.
    static func runsOutOfTop(_ b: Band, height h: Int) -> Bool { b.top <= gapClosed(height: h) }

    static func boxSmooth(_ a: [Double], radius: Int) -> [Double] {
        let n = a.count
        guard n > 0 else { return a }
        var prefix = [Double](repeating: 0, count: n + 1)
        for i in 0..<n { prefix[i + 1] = prefix[i] + a[i] }
        var out = [Double](repeating: 0, count: n)
        for i in 0..<n {
            let lo = max(0, i - radius), hi = min(n, i + radius + 1)
            out[i] = (prefix[hi] - prefix[lo]) / Double(hi - lo)
        }
        return out
    }
}
