import ShelfImage

/// The few gray-image operations OCR preparation needs, kept here on 8-bit gray because they run several
/// times per crop (two orientations, maybe two polarities) and gray is a third of the bytes of RGB.
enum GrayOps {
    enum Turn: Sendable { case none, clockwise, counterClockwise, half }

    /// ITU-R BT.601 luma in integer arithmetic.
    static func luma(_ image: RGBImage) -> GrayImage {
        var out = [UInt8](repeating: 0, count: image.width * image.height)
        image.pixels.withUnsafeBufferPointer { p in
            for i in 0..<out.count {
                let r = Int(p[3 * i]), g = Int(p[3 * i + 1]), b = Int(p[3 * i + 2])
                out[i] = UInt8((77 * r + 150 * g + 29 * b) >> 8)
            }
        }
        return GrayImage(width: image.width, height: image.height, pixels: out)
    }

    static func rotated(_ g: GrayImage, _ turn: Turn) -> GrayImage {
        let w = g.width, h = g.height
        switch turn {
        case .none:
            return g
        case .half:
            return GrayImage(width: w, height: h, pixels: g.pixels.reversed())
        case .clockwise, .counterClockwise:
            var out = [UInt8](repeating: 0, count: w * h)
            let cw = turn == .clockwise
            g.pixels.withUnsafeBufferPointer { src in
                for y in 0..<h {
                    for x in 0..<w {
                        // New image is h wide, w tall.
                        let (nx, ny) = cw ? (h - 1 - y, x) : (y, w - 1 - x)
                        out[ny * h + nx] = src[y * w + x]
                    }
                }
            }
            return GrayImage(width: h, height: w, pixels: out)
        }
    }

    /// Area-averaging when shrinking (no aliasing on thin strokes), bilinear when enlarging.
    static func resized(_ g: GrayImage, width: Int, height: Int) -> GrayImage {
        let w = max(1, width), h = max(1, height)
        if w == g.width && h == g.height { return g }
        var out = [UInt8](repeating: 0, count: w * h)
        let sx = Double(g.width) / Double(w), sy = Double(g.height) / Double(h)
        if sx >= 1 && sy >= 1 {
            let integral = Integral(g)
            for y in 0..<h {
                let y0 = Int(Double(y) * sy), y1 = max(y0 + 1, min(g.height, Int(Double(y + 1) * sy)))
                for x in 0..<w {
                    let x0 = Int(Double(x) * sx), x1 = max(x0 + 1, min(g.width, Int(Double(x + 1) * sx)))
                    out[y * w + x] = UInt8(integral.sum(x0, y0, x1, y1) / Double((x1 - x0) * (y1 - y0)))
                }
            }
        } else {
            g.pixels.withUnsafeBufferPointer { p in
                for y in 0..<h {
                    let fy = max(0, (Double(y) + 0.5) * sy - 0.5)
                    let y0 = min(g.height - 1, Int(fy)), y1 = min(g.height - 1, y0 + 1), ty = fy - Double(y0)
                    for x in 0..<w {
                        let fx = max(0, (Double(x) + 0.5) * sx - 0.5)
                        let x0 = min(g.width - 1, Int(fx)), x1 = min(g.width - 1, x0 + 1), tx = fx - Double(x0)
                        let top = Double(p[y0 * g.width + x0]) * (1 - tx) + Double(p[y0 * g.width + x1]) * tx
                        let bottom = Double(p[y1 * g.width + x0]) * (1 - tx) + Double(p[y1 * g.width + x1]) * tx
                        out[y * w + x] = UInt8(min(255, max(0, top * (1 - ty) + bottom * ty + 0.5)))
                    }
                }
            }
        }
        return GrayImage(width: w, height: h, pixels: out)
    }

    /// Local contrast normalisation: each pixel relative to the mean and spread of its neighbourhood, so
    /// a glossy highlight or a shadow across the spine does not swallow the letters.
    static func normalizedContrast(_ g: GrayImage, radius: Int) -> GrayImage {
        let integral = Integral(g)
        var out = [UInt8](repeating: 0, count: g.width * g.height)
        let r = max(2, radius)
        g.pixels.withUnsafeBufferPointer { p in
            for y in 0..<g.height {
                let y0 = max(0, y - r), y1 = min(g.height, y + r + 1)
                for x in 0..<g.width {
                    let x0 = max(0, x - r), x1 = min(g.width, x + r + 1)
                    let n = Double((x1 - x0) * (y1 - y0))
                    let mean = integral.sum(x0, y0, x1, y1) / n
                    let variance = max(0, integral.squares(x0, y0, x1, y1) / n - mean * mean)
                    let spread = max(12, variance.squareRoot())
                    let v = 128 + 60 * (Double(p[y * g.width + x]) - mean) / spread
                    out[y * g.width + x] = UInt8(min(255, max(0, v)))
                }
            }
        }
        return GrayImage(width: g.width, height: g.height, pixels: out)
    }

    /// Global stretch of the 1st..99th percentile to 0...255: faded or dim spines get full contrast
    /// without the noise a local normalisation lifts out of flat cloth and paper.
    static func stretched(_ g: GrayImage) -> GrayImage {
        var hist = [Int](repeating: 0, count: 256)
        for v in g.pixels { hist[Int(v)] += 1 }
        let n = g.pixels.count
        var lo = 0, hi = 255, seen = 0
        for i in 0..<256 { seen += hist[i]; if seen * 100 >= n { lo = i; break } }
        seen = 0
        for i in stride(from: 255, through: 0, by: -1) { seen += hist[i]; if seen * 100 >= n { hi = i; break } }
        guard hi - lo >= 8 else { return g }
        let scale = 255.0 / Double(hi - lo)
        let table = (0..<256).map { UInt8(min(255, max(0, (Double($0 - lo) * scale).rounded()))) }
        return GrayImage(width: g.width, height: g.height, pixels: g.pixels.map { table[Int($0)] })
    }

    static func inverted(_ g: GrayImage) -> GrayImage {
        GrayImage(width: g.width, height: g.height, pixels: g.pixels.map { 255 - $0 })
    }

    /// A border of `value`: Tesseract finds text touching the edge poorly.
    static func padded(_ g: GrayImage, by pad: Int, value: UInt8) -> GrayImage {
        let w = g.width + 2 * pad, h = g.height + 2 * pad
        var out = [UInt8](repeating: value, count: w * h)
        for y in 0..<g.height {
            let src = y * g.width, dst = (y + pad) * w + pad
            out.replaceSubrange(dst..<(dst + g.width), with: g.pixels[src..<(src + g.width)])
        }
        return GrayImage(width: w, height: h, pixels: out)
    }

    /// Otsu's threshold over the histogram.
    static func otsuThreshold(_ g: GrayImage) -> Int {
        var hist = [Int](repeating: 0, count: 256)
        for v in g.pixels { hist[Int(v)] += 1 }
        let total = Double(g.pixels.count)
        var sumAll = 0.0
        for i in 0..<256 { sumAll += Double(i * hist[i]) }
        var sumB = 0.0, wB = 0.0, best = 0.0, threshold = 127
        for t in 0..<256 {
            wB += Double(hist[t])
            if wB == 0 { continue }
            let wF = total - wB
            if wF == 0 { break }
            sumB += Double(t * hist[t])
            let mB = sumB / wB, mF = (sumAll - sumB) / wF
            let between = wB * wF * (mB - mF) * (mB - mF)
            if between > best { best = between; threshold = t }
        }
        return threshold
    }

    /// True when the ink is probably lighter than the background: after thresholding, text is the minority.
    static func looksLightOnDark(_ g: GrayImage) -> Bool {
        let t = otsuThreshold(g)
        let bright = g.pixels.reduce(0) { $0 + ($1 > t ? 1 : 0) }
        return bright * 2 < g.pixels.count
    }

    /// Summed-area tables of values and squares.
    struct Integral {
        let width: Int
        var s: [Double]
        var q: [Double]

        init(_ g: GrayImage) {
            width = g.width + 1
            s = [Double](repeating: 0, count: (g.width + 1) * (g.height + 1))
            q = s
            for y in 0..<g.height {
                var row = 0.0, rowQ = 0.0
                for x in 0..<g.width {
                    let v = Double(g.pixels[y * g.width + x])
                    row += v
                    rowQ += v * v
                    s[(y + 1) * width + x + 1] = s[y * width + x + 1] + row
                    q[(y + 1) * width + x + 1] = q[y * width + x + 1] + rowQ
                }
            }
        }

        func sum(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> Double {
            s[y1 * width + x1] - s[y0 * width + x1] - s[y1 * width + x0] + s[y0 * width + x0]
        }

        func squares(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> Double {
            q[y1 * width + x1] - q[y0 * width + x1] - q[y1 * width + x0] + q[y0 * width + x0]
        }
    }
}
