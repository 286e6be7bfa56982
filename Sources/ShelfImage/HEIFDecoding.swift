internal import CImageCodecs

/// HEIF/HEIC through libheif. libheif applies the file's irot/imir/clap, so what comes back is upright
/// and no EXIF orientation is applied on top.
extension ImageDecoder {
    static func heifHeader(_ data: [UInt8], name: String) throws(ShelfImageError) -> shelf_heif_header {
        var header = shelf_heif_header()
        var err = shelf_codec_error()
        let rc = data.withUnsafeBytes { raw in shelf_heif_read_header(raw.baseAddress, raw.count, &header, &err) }
        try checkHEIF(rc, err, data, name: name)
        return header
    }

    /// Image-sequence brands: such a file may hold only a track (`moov`) and no still image (`meta`).
    static let sequenceBrands: Set<String> = ["msf1", "hevs", "hevc", "hevx"]

    /// `CodecCall.check`, except that a file cut inside a box is called truncated whatever libheif
    /// complains of ("No 'meta' box" when the cut falls inside `meta`), and a complete sequence without
    /// a still image is unsupported rather than corrupt (libheif decodes the primary still image only).
    static func checkHEIF(_ rc: Int32, _ err: shelf_codec_error, _ data: [UInt8], name: String) throws(ShelfImageError) {
        do {
            try CodecCall.check(rc, err, codec: "libheif", action: "decode", name: name)
        } catch where error.code == .corrupt && endsInsideABox(data) {
            throw ShelfImageError(code: .truncated, message: "Cannot decode \(name): the file is truncated (its data ends early).",
                                  cause: error.cause)
        } catch where error.code == .corrupt && error.cause?.contains("No 'meta' box") == true
            && FormatSniffer.majorBrand(data).map(sequenceBrands.contains) == true {
            throw ShelfImageError(
                code: .unsupportedFormat,
                message: "Cannot decode \(name): it is an image sequence with no still image in it. Export one frame as JPEG and try again.",
                cause: error.cause)
        }
    }

    /// Walks the top-level ISO-BMFF boxes (32-bit size and fourcc; size 1: a 64-bit size follows; size 0:
    /// to the end of the file) and says whether the last one promises more bytes than there are.
    static func endsInsideABox(_ d: [UInt8]) -> Bool {
        var i = 0
        while i + 8 <= d.count {
            var size = Int(d[i]) << 24 | Int(d[i + 1]) << 16 | Int(d[i + 2]) << 8 | Int(d[i + 3])
            if size == 0 { return false }
            if size == 1 {
                guard i + 16 <= d.count else { return true }
                var large: UInt64 = 0
                for k in 8..<16 { large = large << 8 | UInt64(d[i + k]) }
                guard large <= UInt64(Int.max) else { return true }
                size = Int(large)
            }
            guard size >= 8 else { return false } // a broken size is damage, not a cut
            if size > d.count - i { return true }
            i += size
        }
        return i < d.count // a box header itself was cut
    }

    /// The primary image (with `scale` > 1 the thumbnail where one is big enough, else the primary image
    /// area-averaged) as upright 8-bit RGB of `ceil(upright / scale)` pixels.
    ///
    /// The pixel limit is checked against `ispe`, the size the HEVC decoder allocates, before anything
    /// is decoded. HEVC has no reduced decode, so a thumbnail is the only shortcut: it is used only when it
    /// has at least the requested size and the primary image's shape, so detection sees the same detail.
    /// Phones store 320x240 thumbnails, which never qualify for the detector's 1280 px.
    static func decodeHEIF(_ data: [UInt8], scale: Int, maxPixels: Int, name: String)
        throws(ShelfImageError) -> RGBImage
    {
        let h = try heifHeader(data, name: name)
        try checkLimit(width: Int(h.stored_width), height: Int(h.stored_height), maxPixels: maxPixels, name: name)
        let width = Int(h.width), height = Int(h.height)
        try checkLimit(width: width, height: height, maxPixels: maxPixels, name: name)
        let target = (width: (width + scale - 1) / scale, height: (height + scale - 1) / scale)
        let thumb = (width: Int(h.thumbnail_width), height: Int(h.thumbnail_height))
        let useThumbnail = scale > 1 && thumbnailFits(thumb, target: target, full: (width, height))
        if useThumbnail {
            try checkLimit(width: Int(h.thumbnail_stored_width), height: Int(h.thumbnail_stored_height),
                           maxPixels: maxPixels, name: name)
        }
        let out = useThumbnail ? thumb : (width: width, height: height)
        var err = shelf_codec_error()
        var rc: Int32 = 0
        let count = out.width * out.height * 3
        let pixels = PixelBuffer.make(count: count) { buffer, initialized in
            rc = data.withUnsafeBytes { raw in
                shelf_heif_decode_rgb(raw.baseAddress, raw.count, useThumbnail ? 1 : 0, buffer.baseAddress,
                                      count, Int32(out.width), Int32(out.height), &err)
            }
            initialized = rc == Int32(SHELF_OK) ? count : 0
        }
        try checkHEIF(rc, err, data, name: name)
        let image = RGBImage(width: out.width, height: out.height, pixels: pixels)
        if image.width == target.width && image.height == target.height { return image }
        return image.areaResized(width: target.width, height: target.height)
    }

    /// A thumbnail stands in for a reduced decode when it is at least the target size on both sides and
    /// its aspect ratio matches the primary image within 1% (some writers pad or crop thumbnails).
    static func thumbnailFits(_ thumb: (width: Int, height: Int), target: (width: Int, height: Int),
                              full: (width: Int, height: Int)) -> Bool {
        guard thumb.width >= target.width, thumb.height >= target.height, thumb.width > 0, thumb.height > 0 else {
            return false
        }
        let a = Double(thumb.width) / Double(thumb.height), b = Double(full.width) / Double(full.height)
        return abs(a - b) <= 0.01 * b
    }
}
