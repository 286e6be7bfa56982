extension RGBImage {
    /// Samples the quadrilateral `quad` of this image into an upright `width` x `height` image.
    ///
    /// Coordinates are this image's pixel space: origin top-left, pixel (i, j) covers [i, i+1) x [j, j+1),
    /// so an axis-aligned quad with integer corners and the matching size reproduces `cropped` exactly.
    /// `quad.topLeft` lands at the output's top-left, `topRight` at its top-right, and so on; the map is
    /// the projective one (a homography), so slight perspective on a spine is undone too. Sampling is
    /// bilinear; points outside the image repeat the nearest edge pixel.
    public func warped(_ quad: Quad, width outW: Int, height outH: Int) -> RGBImage {
        guard outW > 0, outH > 0 else { return RGBImage(width: 0, height: 0, pixels: []) }
        guard width > 0, height > 0 else { return RGBImage(width: outW, height: outH) }
        let m = Homography(unitSquareTo: quad)
        let w = width, h = height, row = w * 3
        let pixels = PixelBuffer.make(count: outW * outH * 3) { dst, initialized in
            self.pixels.withUnsafeBufferPointer { s in
                let src = s.baseAddress!
                var d = dst.baseAddress!
                let du = 1.0 / Double(outW)
                let maxX = Double((w - 1) << 8), maxY = Double((h - 1) << 8)
                for oy in 0..<outH {
                    let v = (Double(oy) + 0.5) / Double(outH)
                    // Numerators and denominator are linear in u: step them along the row.
                    var nx = m.a * (0.5 * du) + m.b * v + m.c
                    var ny = m.d * (0.5 * du) + m.e * v + m.f
                    var nz = m.g * (0.5 * du) + m.h * v + 1
                    let sx = m.a * du, sy = m.d * du, sz = m.g * du
                    for _ in 0..<outW {
                        let inv = m.isAffine ? 1 : 1 / nz
                        // Source position in 1/256 pixel units; pixel centres sit at +0.5, so shift by half a
                        // pixel and round. Clamping repeats the edge pixels outside the image.
                        var fxq = (nx * inv) * 256 - 127.5, fyq = (ny * inv) * 256 - 127.5
                        if !(fxq > 0) { fxq = 0 } else if fxq > maxX { fxq = maxX } // also catches NaN
                        if !(fyq > 0) { fyq = 0 } else if fyq > maxY { fyq = maxY }
                        let qx = Int(fxq), qy = Int(fyq)
                        let x0 = qx >> 8, y0 = qy >> 8, fx = qx & 255, fy = qy & 255
                        let p00 = src + y0 * row + x0 * 3
                        let p01 = fx == 0 ? p00 : p00 + 3
                        let p10 = fy == 0 ? p00 : p00 + row
                        let p11 = fx == 0 ? p10 : p10 + 3
                        let gx = 256 - fx, gy = 256 - fy
                        for ch in 0..<3 {
                            let top = Int(p00[ch]) &* gx &+ Int(p01[ch]) &* fx
                            let bottom = Int(p10[ch]) &* gx &+ Int(p11[ch]) &* fx
                            d[ch] = UInt8(truncatingIfNeeded: (top &* gy &+ bottom &* fy &+ 32768) >> 16)
                        }
                        d += 3
                        nx += sx; ny += sy; nz += sz
                    }
                }
            }
            initialized = outW * outH * 3
        }
        return RGBImage(width: outW, height: outH, pixels: pixels)
    }
}

/// The projective map from the unit square (u, v) to a quad: x = (a u + b v + c) / (g u + h v + 1),
/// y = (d u + e v + f) / (g u + h v + 1). Heckbert's closed form; parallelograms get g = h = 0.
struct Homography {
    var a, b, c, d, e, f, g, h: Double

    /// A parallelogram: no per-pixel division needed.
    var isAffine: Bool { g == 0 && h == 0 }

    init(unitSquareTo q: Quad) {
        let x0 = q.topLeft.x, y0 = q.topLeft.y, x1 = q.topRight.x, y1 = q.topRight.y
        let x2 = q.bottomRight.x, y2 = q.bottomRight.y, x3 = q.bottomLeft.x, y3 = q.bottomLeft.y
        let sx = x0 - x1 + x2 - x3, sy = y0 - y1 + y2 - y3
        let dx1 = x1 - x2, dx2 = x3 - x2, dy1 = y1 - y2, dy2 = y3 - y2
        let den = dx1 * dy2 - dx2 * dy1
        if (abs(sx) < 1e-9 && abs(sy) < 1e-9) || abs(den) < 1e-12 {
            (g, h) = (0, 0)
        } else {
            g = (sx * dy2 - dx2 * sy) / den
            h = (dx1 * sy - sx * dy1) / den
        }
        a = x1 - x0 + g * x1; b = x3 - x0 + h * x3; c = x0
        d = y1 - y0 + g * y1; e = y3 - y0 + h * y3; f = y0
    }
}
