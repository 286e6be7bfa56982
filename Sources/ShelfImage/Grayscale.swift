extension RGBImage {
    /// Luma with BT.601 weights (0.299, 0.587, 0.114) in 8-bit fixed point, as JPEG's own Y channel.
    public func grayscale() -> GrayImage {
        let n = width * height
        let out = PixelBuffer.make(count: n) { dst, initialized in
            pixels.withUnsafeBufferPointer { s in
                let p = s.baseAddress!
                for i in 0..<n {
                    let r = Int(p[3 * i]), g = Int(p[3 * i + 1]), b = Int(p[3 * i + 2])
                    dst[i] = UInt8(truncatingIfNeeded: (77 * r + 150 * g + 29 * b + 128) >> 8)
                }
            }
            initialized = n
        }
        return GrayImage(width: width, height: height, pixels: out)
    }
}

extension GrayImage {
    /// The same image with the gray value in all three channels.
    public func rgb() -> RGBImage {
        let n = width * height
        let out = PixelBuffer.make(count: n * 3) { dst, initialized in
            pixels.withUnsafeBufferPointer { s in
                for i in 0..<n {
                    let v = s[i]
                    dst[3 * i] = v; dst[3 * i + 1] = v; dst[3 * i + 2] = v
                }
            }
            initialized = n * 3
        }
        return RGBImage(width: width, height: height, pixels: out)
    }

    /// The rectangle intersected with the image; an empty intersection gives a 0x0 image.
    public func cropped(x: Int, y: Int, width w: Int, height h: Int) -> GrayImage {
        let x0 = max(0, min(x, width)), y0 = max(0, min(y, height))
        let x1 = max(x0, min(x + min(w, width), width)), y1 = max(y0, min(y + min(h, height), height))
        guard x1 > x0, y1 > y0 else { return GrayImage(width: 0, height: 0, pixels: []) }
        var out = [UInt8]()
        out.reserveCapacity((x1 - x0) * (y1 - y0))
        for row in y0..<y1 { out.append(contentsOf: pixels[(row * width + x0)..<(row * width + x1)]) }
        return GrayImage(width: x1 - x0, height: y1 - y0, pixels: out)
    }
}
