internal import CImageCodecs

/// WebP through libwebp: still images (lossy, lossless, with alpha) and the first frame of animations.
extension ImageDecoder {
    static func webpHeader(_ data: [UInt8], name: String) throws(ShelfImageError) -> shelf_webp_header {
        var header = shelf_webp_header()
        var err = shelf_codec_error()
        let rc = data.withUnsafeBytes { raw in shelf_webp_read_header(raw.baseAddress, raw.count, &header, &err) }
        try CodecCall.check(rc, err, codec: "libwebp", action: "decode", name: name)
        return header
    }

    /// Stored-orientation 8-bit RGB of `ceil(canvas / scale)` pixels.
    ///
    /// The pixel limit is checked against the canvas (VP8X, or the frame header of a simple file) before
    /// anything is allocated. A reduced size is produced by libwebp's scaler while it decodes, row by row,
    /// so the full-size image never exists; an animation's first frame is decoded at canvas size and then
    /// area-averaged.
    static func decodeWebP(_ data: [UInt8], scale: Int, maxPixels: Int, name: String) throws(ShelfImageError) -> RGBImage {
        let h = try webpHeader(data, name: name)
        let width = Int(h.width), height = Int(h.height)
        try checkLimit(width: width, height: height, maxPixels: maxPixels, name: name)
        let target = (width: (width + scale - 1) / scale, height: (height + scale - 1) / scale)
        let out = h.has_animation != 0 ? (width: width, height: height) : target
        var err = shelf_codec_error()
        var rc: Int32 = 0
        let count = out.width * out.height * 3
        let pixels = PixelBuffer.make(count: count) { buffer, initialized in
            rc = data.withUnsafeBytes { raw in
                shelf_webp_decode_rgb(raw.baseAddress, raw.count, buffer.baseAddress, count,
                                      Int32(out.width), Int32(out.height), &err)
            }
            initialized = rc == Int32(SHELF_OK) ? count : 0
        }
        try CodecCall.check(rc, err, codec: "libwebp", action: "decode", name: name)
        let image = RGBImage(width: out.width, height: out.height, pixels: pixels)
        if out == target { return image }
        return image.areaResized(width: target.width, height: target.height)
    }
}
