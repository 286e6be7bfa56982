import ShelfImage

/// Per-pixel cues at working resolution, as Float planes the line integrals sum over.
///
/// Edges take the strongest of the three colour channels so that two spines of equal brightness but
/// different hue still part; each edge is split by orientation so a spine boundary (near-vertical) and a
/// book top or shelf board (near-horizontal) feed different cues.
struct EdgeMaps {
    let width: Int
    let height: Int
    /// 0...1 strength of a near-vertical edge.
    var vertical: [Float]
    /// 0...1 strength of a near-horizontal edge.
    var horizontal: [Float]
    /// Luma 0...255.
    var luma: [Float]
    /// Colour planes 0...255.
    var red: [Float]
    var green: [Float]
    var blue: [Float]

    init(_ image: RGBImage, edgeFloor: Double, edgeCap: Double) {
        let w = image.width, h = image.height, n = w * h
        width = w; height = h
        var vert = [Float](repeating: 0, count: n)
        var horiz = [Float](repeating: 0, count: n)
        var lum = [Float](repeating: 0, count: n)
        var r = [Float](repeating: 0, count: n), g = r, b = r
        image.pixels.withUnsafeBufferPointer { px in
            for i in 0..<n {
                let rr = Float(px[3 * i]), gg = Float(px[3 * i + 1]), bb = Float(px[3 * i + 2])
                r[i] = rr; g[i] = gg; b[i] = bb
                lum[i] = 0.299 * rr + 0.587 * gg + 0.114 * bb
            }
        }
        let floor = Float(edgeFloor), span = Float(max(1, edgeCap - edgeFloor))
        if w >= 3 && h >= 3 {
            r.withUnsafeBufferPointer { rp in g.withUnsafeBufferPointer { gp in b.withUnsafeBufferPointer { bp in
                vert.withUnsafeMutableBufferPointer { vp in horiz.withUnsafeMutableBufferPointer { hp in
                    let planes = [rp, gp, bp]
                    for y in 1..<(h - 1) {
                        for x in 1..<(w - 1) {
                            var bestX: Float = 0, bestY: Float = 0
                            for p in planes {
                                let i = y * w + x
                                let a = p[i - w - 1], bq = p[i - w], c = p[i - w + 1]
                                let d = p[i - 1], f = p[i + 1]
                                let gq = p[i + w - 1], hq = p[i + w], k = p[i + w + 1]
                                let sx = abs((c + 2 * f + k) - (a + 2 * d + gq)) * 0.25
                                let sy = abs((gq + 2 * hq + k) - (a + 2 * bq + c)) * 0.25
                                if sx > bestX { bestX = sx }
                                if sy > bestY { bestY = sy }
                            }
                            let i = y * w + x
                            if bestX >= bestY {
                                vp[i] = min(1, max(0, (bestX - floor) / span))
                            } else {
                                hp[i] = min(1, max(0, (bestY - floor) / span))
                            }
                        }
                    }
                }}
            }}}
        }
        vertical = vert; horizontal = horiz; luma = lum; red = r; green = g; blue = b
    }
}
