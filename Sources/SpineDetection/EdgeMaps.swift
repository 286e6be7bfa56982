import ShelfImage

/// Sobel gradients of the image, taken per pixel from whichever of three channels — luminance and two
/// colour-opponent channels — changes most, so a red spine beside a green one of the same brightness
/// still has an edge between them.
struct EdgeMaps {
    let width: Int
    let height: Int
    /// Signed gradients of the strongest channel.
    var gx: [Float]
    var gy: [Float]
    /// |gx| where the edge is more vertical than horizontal, else 0: spines' sides, not boards.
    var vertical: [Float]
    let image: RGBImage

    init(_ image: RGBImage) {
        self.image = image
        width = image.width
        height = image.height
        let n = width * height
        var lum = [Float](repeating: 0, count: n)
        var rg = [Float](repeating: 0, count: n)
        var yb = [Float](repeating: 0, count: n)
        image.pixels.withUnsafeBufferPointer { px in
            for i in 0..<n {
                let r = Float(px[3 * i]), g = Float(px[3 * i + 1]), b = Float(px[3 * i + 2])
                lum[i] = 0.299 * r + 0.587 * g + 0.114 * b
                rg[i] = 0.5 * (r - g)
                yb[i] = 0.5 * (0.5 * (r + g) - b)
            }
        }
        var gx = [Float](repeating: 0, count: n)
        var gy = [Float](repeating: 0, count: n)
        var vertical = [Float](repeating: 0, count: n)
        let w = width, hgt = height
        for channel in [lum, rg, yb] {
            channel.withUnsafeBufferPointer { c in
                for y in 1..<(hgt - 1) {
                    for x in 1..<(w - 1) {
                        let i = y * w + x
                        let sx = (c[i - w + 1] + 2 * c[i + 1] + c[i + w + 1]) - (c[i - w - 1] + 2 * c[i - 1] + c[i + w - 1])
                        let sy = (c[i + w - 1] + 2 * c[i + w] + c[i + w + 1]) - (c[i - w - 1] + 2 * c[i - w] + c[i - w + 1])
                        if sx * sx + sy * sy > gx[i] * gx[i] + gy[i] * gy[i] {
                            gx[i] = sx * 0.25
                            gy[i] = sy * 0.25
                        }
                    }
                }
            }
        }
        for i in 0..<n {
            let ax = abs(gx[i]), ay = abs(gy[i])
            vertical[i] = ax > ay ? ax : 0
        }
        self.gx = gx
        self.gy = gy
        self.vertical = vertical
    }

    /// Mean gradient magnitude over a row band: the yardstick for "flat".
    func rowTexture(top: Int, bottom: Int) -> Double {
        var sum: Float = 0
        for y in top..<bottom {
            let base = y * width
            for x in 0..<width { sum += abs(gx[base + x]) + abs(gy[base + x]) }
        }
        return Double(sum) / Double(max(1, (bottom - top) * width))
    }

    /// Mean |gy| along one image row: a board's edge scores high across the whole width.
    func horizontalStrength(row y: Int) -> Float {
        var sum: Float = 0
        let base = y * width
        for x in 0..<width { sum += abs(gy[base + x]) }
        return sum / Float(max(1, width))
    }

    /// Mean colour of a rectangle (clamped), sampled every other pixel.
    func meanColor(x0: Int, x1: Int, y0: Int, y1: Int) -> (Double, Double, Double) {
        let a = max(0, x0), b = min(width, x1), c = max(0, y0), d = min(height, y1)
        guard a < b, c < d else { return (0, 0, 0) }
        var r = 0, g = 0, bl = 0, n = 0
        for y in stride(from: c, to: d, by: 2) {
            var i = (y * width + a) * 3
            for _ in stride(from: a, to: b, by: 2) {
                r += Int(image.pixels[i]); g += Int(image.pixels[i + 1]); bl += Int(image.pixels[i + 2]); n += 1
                i += 6
            }
        }
        return n == 0 ? (0, 0, 0) : (Double(r) / Double(n), Double(g) / Double(n), Double(bl) / Double(n))
    }

    /// Mean gradient magnitude inside a slanted segment, its outer fifth on each side left out (the
    /// boundaries themselves are edges).
    func meanTexture(xLeft: Double, xRight: Double, slopeLeft: Double, slopeRight: Double,
                     mid: Double, top: Int, bottom: Int) -> Double {
        var sum: Float = 0
        var count = 0
        let yMid = mid
        let yTop = Double(top)
        for y in stride(from: top, to: bottom, by: 2) {
            let dy = Double(y) - yMid
            let l = xLeft + (yMid - yTop) * slopeLeft + dy * slopeLeft
            let r = xRight + (yMid - yTop) * slopeRight + dy * slopeRight
            let a = max(0, Int(l + 0.2 * (r - l))), b = min(width, Int(r - 0.2 * (r - l)))
            guard a < b else { continue }
            let base = y * width
            for x in a..<b { sum += abs(gx[base + x]) + abs(gy[base + x]); count += 1 }
        }
        return count == 0 ? 0 : Double(sum) / Double(count)
    }
}
