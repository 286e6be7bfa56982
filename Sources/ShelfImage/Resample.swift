internal import CPixelLoops
extension RGBImage {
    /// Shrinks so the longer side is at most `maxSide`, averaging every source pixel that falls in each
    /// output pixel (no aliasing, unlike bilinear). Returns `self` when the image is already small enough.
    public func downscaled(maxSide: Int) -> RGBImage {
        guard let (w, h) = Resampler.fit(width: width, height: height, maxSide: maxSide) else { return self }
        return downscaled(width: w, height: h)
    }

    /// Area-averaging resize to exactly `width` x `height`. Meant for shrinking; enlarging repeats pixels.
    public func downscaled(width w: Int, height h: Int) -> RGBImage {
        areaResized(width: w, height: h)
    }

    /// Bilinear resize to exactly `width` x `height`, sampling at pixel centres. Good for enlarging and
    /// mild shrinking; for shrinking by more than 2x use `downscaled`, which averages instead of skipping.
    public func resized(width w: Int, height h: Int) -> RGBImage {
        if w == width && h == height { return self }
        return RGBImage(width: max(0, w), height: max(0, h),
                        pixels: Resampler.bilinear(pixels, width: width, height: height, channels: 3, to: w, h))
    }

    func areaResized(width w: Int, height h: Int) -> RGBImage {
        if w == width && h == height { return self }
        return RGBImage(width: max(0, w), height: max(0, h),
                        pixels: Resampler.area(pixels, width: width, height: height, channels: 3, to: w, h))
    }
}

extension GrayImage {
    /// Area-averaging shrink so the longer side is at most `maxSide`; `self` when already small enough.
    public func downscaled(maxSide: Int) -> GrayImage {
        guard let (w, h) = Resampler.fit(width: width, height: height, maxSide: maxSide) else { return self }
        return downscaled(width: w, height: h)
    }

    /// Area-averaging resize to exactly `width` x `height`.
    public func downscaled(width w: Int, height h: Int) -> GrayImage {
        if w == width && h == height { return self }
        return GrayImage(width: max(0, w), height: max(0, h),
                         pixels: Resampler.area(pixels, width: width, height: height, channels: 1, to: w, h))
    }

    /// Bilinear resize to exactly `width` x `height`.
    public func resized(width w: Int, height h: Int) -> GrayImage {
        if w == width && h == height { return self }
        return GrayImage(width: max(0, w), height: max(0, h),
                         pixels: Resampler.bilinear(pixels, width: width, height: height, channels: 1, to: w, h))
    }
}

/// Resampling kernels over interleaved 8-bit buffers, shared by RGB and gray images.
enum Resampler {
    /// The size that fits `maxSide`, keeping the aspect ratio; nil when no shrinking is needed.
    static func fit(width: Int, height: Int, maxSide: Int) -> (Int, Int)? {
        let longest = max(width, height)
        guard maxSide > 0, longest > maxSide else { return nil }
        let s = Double(maxSide) / Double(longest)
        let w = width >= height ? maxSide : max(1, Int((Double(width) * s).rounded()))
        let h = height > width ? maxSide : max(1, Int((Double(height) * s).rounded()))
        return (w, h)
    }

    /// For each output index, the source indices it covers and the share of each (summing to 1).
    struct Taps {
        var first: [Int] = []   // index into `source`/`weight` of each output's first tap
        var source: [Int] = []
        var weight: [Float] = []
    }

    static func areaTaps(from n: Int, to m: Int) -> Taps {
        var t = Taps()
        t.first.reserveCapacity(m + 1)
        let scale = Double(n) / Double(m)
        for i in 0..<m {
            t.first.append(t.source.count)
            let lo = Double(i) * scale, hi = Double(i + 1) * scale
            let start = min(n - 1, Int(lo))
            let end = max(start + 1, min(n, Int(hi.rounded(.up))))
            var total = 0.0
            var taps: [(Int, Double)] = []
            for k in start..<end {
                let w = min(hi, Double(k + 1)) - max(lo, Double(k))
                if w > 1e-9 { taps.append((k, w)); total += w }
            }
            if taps.isEmpty { taps = [(start, 1)]; total = 1 }
            for (k, w) in taps {
                t.source.append(k)
                t.weight.append(Float(w / total))
            }
        }
        t.first.append(t.source.count)
        return t
    }

    /// Box-filter resample: rows are accumulated vertically into one float row, then reduced horizontally,
    /// so memory stays at one source row of floats whatever the image size. The taps are planned here; the
    /// loop runs in C (`shelf_area_resample`), where a float-to-byte conversion is not checked per pixel.
    static func area(_ src: [UInt8], width: Int, height: Int, channels c: Int, to outW: Int, _ outH: Int) -> [UInt8] {
        guard outW > 0, outH > 0, c > 0 else { return [] }
        // A source shorter than its size says has nothing to average: blank, at the size the caller asked for.
        guard width > 0, height > 0, src.count >= width * height * c else { return [UInt8](repeating: 0, count: outW * outH * c) }
        let xt = areaTaps(from: width, to: outW), yt = areaTaps(from: height, to: outH)
        var acc = [Float](repeating: 0, count: width * c)
        return PixelBuffer.make(count: outW * outH * c) { dst, initialized in
            src.withUnsafeBufferPointer { s in
                acc.withUnsafeMutableBufferPointer { a in
                    yt.first.withUnsafeBufferPointer { yf in yt.source.withUnsafeBufferPointer { ys in yt.weight.withUnsafeBufferPointer { yw in
                    xt.first.withUnsafeBufferPointer { xf in xt.source.withUnsafeBufferPointer { xs in xt.weight.withUnsafeBufferPointer { xw in
                        shelf_area_resample(s.baseAddress, width, c, yf.baseAddress, ys.baseAddress, yw.baseAddress, outH,
                                            xf.baseAddress, xs.baseAddress, xw.baseAddress, outW, a.baseAddress, dst.baseAddress)
                    }}}}}}
                }
            }
            initialized = outW * outH * c
        }
    }

    /// Bilinear resample at pixel centres with 8-bit fixed-point weights; edges are clamped. The weights are
    /// planned here, the loop runs in C (`shelf_bilinear_resample`).
    static func bilinear(_ src: [UInt8], width: Int, height: Int, channels c: Int, to outW: Int, _ outH: Int) -> [UInt8] {
        guard outW > 0, outH > 0 else { return [] }
        // An empty source, or one shorter than its size says: blank, at the size the caller asked for.
        guard width > 0, height > 0, c > 0, src.count >= width * height * c else { return [UInt8](repeating: 0, count: outW * outH * max(0, c)) }
        func axis(_ n: Int, _ m: Int) -> (lo: [Int], hi: [Int], f: [Int]) {
            var lo = [Int](), hi = [Int](), f = [Int]()
            let scale = Double(n) / Double(m)
            for i in 0..<m {
                let p = min(Double(n - 1), max(0, (Double(i) + 0.5) * scale - 0.5))
                var i0 = Int(p)
                var frac = Int(((p - Double(i0)) * 256).rounded())
                if frac >= 256 { i0 += 1; frac = 0 }
                i0 = min(i0, n - 1)
                lo.append(i0); hi.append(min(i0 + 1, n - 1)); f.append(frac)
            }
            return (lo, hi, f)
        }
        let xa = axis(width, outW), ya = axis(height, outH)
        return PixelBuffer.make(count: outW * outH * c) { dst, initialized in
            src.withUnsafeBufferPointer { s in
                ya.lo.withUnsafeBufferPointer { ylo in ya.hi.withUnsafeBufferPointer { yhi in ya.f.withUnsafeBufferPointer { yf in
                xa.lo.withUnsafeBufferPointer { xlo in xa.hi.withUnsafeBufferPointer { xhi in xa.f.withUnsafeBufferPointer { xf in
                    shelf_bilinear_resample(s.baseAddress, width, c, ylo.baseAddress, yhi.baseAddress, yf.baseAddress, outH,
                                            xlo.baseAddress, xhi.baseAddress, xf.baseAddress, outW, dst.baseAddress)
                }}}}}}
            }
            initialized = outW * outH * c
        }
    }
}
