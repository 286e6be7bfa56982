/// Quarter turns for `RGBImage.rotated(_:)`.
public enum Rotation: Sendable, Equatable, CaseIterable {
    case clockwise90, half, counterClockwise90

    /// The EXIF orientation that performs the same turn.
    var exif: Int {
        switch self {
        case .clockwise90: return 6
        case .half: return 3
        case .counterClockwise90: return 8
        }
    }
}

extension RGBImage {
    /// Rotates by a quarter, half or three-quarter turn.
    public func rotated(_ r: Rotation) -> RGBImage { oriented(exif: r.exif) }

    /// Applies EXIF orientation `o` (1-8): the result is what a viewer shows.
    func oriented(exif o: Int) -> RGBImage {
        let r = Orienter.apply(pixels, width: width, height: height, channels: 3, exif: o)
        return RGBImage(width: r.width, height: r.height, pixels: r.pixels)
    }

    /// The rectangle intersected with the image; an empty intersection gives a 0x0 image.
    public func cropped(x: Int, y: Int, width w: Int, height h: Int) -> RGBImage {
        let x0 = max(0, min(x, width)), y0 = max(0, min(y, height))
        let x1 = max(x0, min(x.addingReportingOverflow(w).overflow ? Int.max : x + w, width))
        let y1 = max(y0, min(y.addingReportingOverflow(h).overflow ? Int.max : y + h, height))
        let cw = x1 - x0, ch = y1 - y0
        guard cw > 0, ch > 0 else { return RGBImage(width: 0, height: 0, pixels: []) }
        if cw == width && ch == height { return self }
        var out = [UInt8]()
        out.reserveCapacity(cw * ch * 3)
        for row in y0..<y1 {
            let start = (row * width + x0) * 3
            out.append(contentsOf: pixels[start..<start + cw * 3])
        }
        return RGBImage(width: cw, height: ch, pixels: out)
    }
}

extension GrayImage {
    /// Rotates by a quarter, half or three-quarter turn.
    public func rotated(_ r: Rotation) -> GrayImage { oriented(exif: r.exif) }

    /// Applies EXIF orientation `o` (1-8).
    func oriented(exif o: Int) -> GrayImage {
        let r = Orienter.apply(pixels, width: width, height: height, channels: 1, exif: o)
        return GrayImage(width: r.width, height: r.height, pixels: r.pixels)
    }
}

/// The eight EXIF orientations over interleaved 8-bit buffers of 1 or 3 channels.
enum Orienter {
    /// Every orientation is an affine map from output pixel to source pixel, so one loop serves all eight;
    /// it walks the output in 32x32 tiles so the source column reads of the transposing orientations
    /// (5-8) stay in cache.
    static func apply(_ pixels: [UInt8], width w: Int, height h: Int, channels c: Int, exif o: Int)
        -> (pixels: [UInt8], width: Int, height: Int)
    {
        guard (2...8).contains(o), w > 0, h > 0 else { return (pixels, w, h) }
        let transposes = o >= 5
        let outW = transposes ? h : w, outH = transposes ? w : h
        let row = w * c
        // Source byte offset = origin + ox * stepX + oy * stepY.
        let (origin, stepX, stepY): (Int, Int, Int)
        switch o {
        case 2: (origin, stepX, stepY) = ((w - 1) * c, -c, row)
        case 3: (origin, stepX, stepY) = ((h - 1) * row + (w - 1) * c, -c, -row)
        case 4: (origin, stepX, stepY) = ((h - 1) * row, c, -row)
        case 5: (origin, stepX, stepY) = (0, row, c)                             // transpose
        case 6: (origin, stepX, stepY) = ((h - 1) * row, -row, c)                // 90 clockwise
        case 7: (origin, stepX, stepY) = ((h - 1) * row + (w - 1) * c, -row, -c) // transverse
        default: (origin, stepX, stepY) = ((w - 1) * c, row, -c)                 // 8: 90 counter-clockwise
        }
        let tile = 32
        let out = PixelBuffer.make(count: outW * outH * c) { dst, initialized in
            pixels.withUnsafeBufferPointer { srcBuffer in
                let src = srcBuffer.baseAddress!, d = dst.baseAddress!
                var ty = 0
                while ty < outH {
                    let yEnd = min(ty + tile, outH)
                    var tx = 0
                    while tx < outW {
                        let xEnd = min(tx + tile, outW)
                        for oy in ty..<yEnd {
                            var s = origin + oy * stepY + tx * stepX
                            var t = (oy * outW + tx) * c
                            if c == 3 {
                                for _ in tx..<xEnd {
                                    d[t] = src[s]; d[t + 1] = src[s + 1]; d[t + 2] = src[s + 2]
                                    s += stepX
                                    t += 3
                                }
                            } else {
                                for _ in tx..<xEnd {
                                    d[t] = src[s]
                                    s += stepX
                                    t += 1
                                }
                            }
                        }
                        tx = xEnd
                    }
                    ty = yEnd
                }
            }
            initialized = outW * outH * c
        }
        return (out, outW, outH)
    }
}
