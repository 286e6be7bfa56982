internal import CImageCodecs

/// Decodes JPEG (libjpeg-turbo), PNG (libpng), HEIF/HEIC (libheif) and WebP (libwebp) into upright
/// `RGBImage`s.
///
/// Order of work, chosen so bad input costs nothing: sniff the format from the bytes, read the header,
/// check the pixel limit, and only then allocate the output and decode straight into it.
public enum ImageDecoder {
    /// Header facts and EXIF orientation, without decoding pixels.
    public static func info(_ data: [UInt8]) throws(ShelfImageError) -> ImageInfo {
        try info(data, name: "image data")
    }

    /// Decodes to 8-bit RGB, alpha composited onto white, EXIF orientation applied unless disabled.
    public static func decode(_ data: [UInt8], options: DecodeOptions = .init()) throws(ShelfImageError) -> RGBImage {
        try decode(data, options: options, name: "image data")
    }

    /// Decodes to 8-bit luma (BT.601), orientation applied like `decode`. For JPEG this is much cheaper
    /// than RGB: libjpeg outputs the Y channel directly and skips the chroma IDCTs and colour conversion,
    /// which is what a detector working on gray at 1/4 scale wants.
    public static func decodeGray(_ data: [UInt8], options: DecodeOptions = .init()) throws(ShelfImageError) -> GrayImage {
        try decodeGray(data, options: options, name: "image data")
    }

    public static func decodeGray(fileAt path: String, options: DecodeOptions = .init()) throws(ShelfImageError) -> GrayImage {
        try decodeGray(try FileBytes.contents(of: path), options: options, name: path)
    }

    public static func info(fileAt path: String) throws(ShelfImageError) -> ImageInfo {
        try info(try FileBytes.contents(of: path), name: path)
    }

    public static func decode(fileAt path: String, options: DecodeOptions = .init()) throws(ShelfImageError) -> RGBImage {
        try decode(try FileBytes.contents(of: path), options: options, name: path)
    }

    /// Header facts, and with `verifyingData` also proof that the whole file decodes: a truncated or
    /// corrupt body fails here even though its header is fine. JPEG verifies at 1/8 scale (entropy
    /// decoding still reads every byte, the IDCT work is skipped); PNG must inflate everything anyway.
    public static func info(fileAt path: String, verifyingData: Bool) throws(ShelfImageError) -> ImageInfo {
        let data = try FileBytes.contents(of: path)
        let info = try info(data, name: path)
        if verifyingData {
            switch info.format {
            case .jpeg: _ = try decodeJPEG(data, scale: 8, maxPixels: DecodeOptions().maxPixels, channels: 1, name: path)
            case .png: _ = try decodePNG(data, maxPixels: DecodeOptions().maxPixels, name: path)
            case .heif: _ = try decodeHEIF(data, scale: 1, maxPixels: DecodeOptions().maxPixels, name: path)
            // libwebp's scaler still decodes every macroblock; only the output is small.
            case .webp: _ = try decodeWebP(data, scale: 8, maxPixels: DecodeOptions().maxPixels, name: path)
            }
        }
        return info
    }

    // MARK: - Internals

    /// `name` is what messages call the input: a path, or "image data".
    static func info(_ data: [UInt8], name: String) throws(ShelfImageError) -> ImageInfo {
        switch try FormatSniffer.format(of: data, name: name) {
        case .jpeg:
            let h = try jpegHeader(data, scale: 1, name: name)
            return ImageInfo(format: .jpeg, width: Int(h.width), height: Int(h.height), orientation: ExifOrientation.inJPEG(data))
        case .png:
            let h = try pngHeader(data, name: name)
            return ImageInfo(format: .png, width: Int(h.width), height: Int(h.height), orientation: ExifOrientation.inPNG(data))
        case .heif:
            let h = try heifHeader(data, name: name)
            return ImageInfo(format: .heif, width: Int(h.width), height: Int(h.height), orientation: 1)
        case .webp:
            let h = try webpHeader(data, name: name)
            return ImageInfo(format: .webp, width: Int(h.width), height: Int(h.height), orientation: ExifOrientation.inWebP(data))
        }
    }

    static func decode(_ data: [UInt8], options: DecodeOptions, name: String) throws(ShelfImageError) -> RGBImage {
        let r = try decodePixels(data, options: options, channels: 3, name: name)
        return RGBImage(width: r.width, height: r.height, pixels: r.pixels)
    }

    static func decodeGray(_ data: [UInt8], options: DecodeOptions, name: String) throws(ShelfImageError) -> GrayImage {
        let r = try decodePixels(data, options: options, channels: 1, name: name)
        return GrayImage(width: r.width, height: r.height, pixels: r.pixels)
    }

    /// Sniff, decode (straight to `channels`), reduce, orient: the one decode path for RGB and gray.
    static func decodePixels(_ data: [UInt8], options: DecodeOptions, channels: Int, name: String)
        throws(ShelfImageError) -> (pixels: [UInt8], width: Int, height: Int)
    {
        let format = try FormatSniffer.format(of: data, name: name)
        let scale = options.scaleDenominator
        guard [1, 2, 4, 8].contains(scale) else {
            throw ShelfImageError(code: .invalidArgument, message: "Cannot decode \(name): scale 1/\(scale) is not one of 1/1, 1/2, 1/4, 1/8.")
        }
        var r: (pixels: [UInt8], width: Int, height: Int)
        let orientation: Int
        switch format {
        case .jpeg:
            r = try decodeJPEG(data, scale: scale, maxPixels: options.maxPixels, acceptsDamage: options.acceptsDamagedData,
                               channels: channels, name: name)
            orientation = options.applyOrientation ? ExifOrientation.inJPEG(data) : 1
        case .png:
            let full = try decodePNG(data, maxPixels: options.maxPixels, name: name)
            var image = scale == 1 ? full
                : full.areaResized(width: (full.width + scale - 1) / scale, height: (full.height + scale - 1) / scale)
            if channels == 1 {
                let gray = image.grayscale()
                r = (gray.pixels, gray.width, gray.height)
            } else {
                r = (image.pixels, image.width, image.height)
            }
            image = RGBImage(width: 0, height: 0, pixels: [])
            orientation = options.applyOrientation ? ExifOrientation.inPNG(data) : 1
        case .heif:
            // Upright already: libheif applied irot/imir; a HEIF's EXIF orientation is never applied on top.
            let image = try decodeHEIF(data, scale: scale, maxPixels: options.maxPixels, name: name)
            r = channels == 1 ? grayPixels(image) : (image.pixels, image.width, image.height)
            orientation = 1
        case .webp:
            let image = try decodeWebP(data, scale: scale, maxPixels: options.maxPixels, name: name)
            r = channels == 1 ? grayPixels(image) : (image.pixels, image.width, image.height)
            orientation = options.applyOrientation ? ExifOrientation.inWebP(data) : 1
        }
        if orientation != 1 {
            r = Orienter.apply(r.pixels, width: r.width, height: r.height, channels: channels, exif: orientation)
        }
        return r
    }

    private static func grayPixels(_ image: RGBImage) -> (pixels: [UInt8], width: Int, height: Int) {
        let gray = image.grayscale()
        return (gray.pixels, gray.width, gray.height)
    }

    static func checkLimit(width: Int, height: Int, maxPixels: Int, name: String) throws(ShelfImageError) {
        guard width > 0, height > 0 else {
            throw ShelfImageError(code: .corrupt, message: "Cannot decode \(name): the header says \(width)x\(height) pixels.")
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maxPixels else {
            let mp = Double(width) * Double(height) / 1_000_000
            let limit = Double(maxPixels) / 1_000_000
            throw ShelfImageError(
                code: .tooManyPixels,
                message: "Cannot decode \(name): \(width)x\(height) is \(formatMP(mp)) MP, over the \(formatMP(limit)) MP limit. Downscale it first or raise the limit.")
        }
    }

    private static func formatMP(_ v: Double) -> String {
        let r = (v * 10).rounded() / 10
        return r == r.rounded() ? String(Int(r)) : String(r)
    }

    // MARK: JPEG

    static func jpegHeader(_ data: [UInt8], scale: Int, name: String) throws(ShelfImageError) -> shelf_jpeg_header {
        var header = shelf_jpeg_header()
        var err = shelf_codec_error()
        let rc = data.withUnsafeBytes { raw in
            shelf_jpeg_read_header(raw.baseAddress, raw.count, Int32(scale), &header, &err)
        }
        try CodecCall.check(rc, err, codec: "libjpeg", action: "decode", name: name)
        return header
    }

    static func decodeJPEG(_ data: [UInt8], scale: Int, maxPixels: Int, acceptsDamage: Bool = false, channels: Int = 3,
                           name: String) throws(ShelfImageError) -> (pixels: [UInt8], width: Int, height: Int) {
        let h = try jpegHeader(data, scale: scale, name: name)
        try checkLimit(width: Int(h.width), height: Int(h.height), maxPixels: maxPixels, name: name)
        let width = Int(h.output_width), height = Int(h.output_height)
        var err = shelf_codec_error()
        var rc: Int32 = 0
        let pixels = PixelBuffer.make(count: width * height * channels) { buffer, initialized in
            rc = data.withUnsafeBytes { raw in
                shelf_jpeg_decode(raw.baseAddress, raw.count, Int32(scale), 0, acceptsDamage ? 1 : 0, Int32(channels),
                                  buffer.baseAddress, width * height * channels, h.output_width, h.output_height, &err)
            }
            initialized = rc == Int32(SHELF_OK) ? width * height * channels : 0
        }
        try CodecCall.check(rc, err, codec: "libjpeg", action: "decode", name: name)
        return (pixels, width, height)
    }

    // MARK: PNG

    static func pngHeader(_ data: [UInt8], name: String) throws(ShelfImageError) -> shelf_png_header {
        var header = shelf_png_header()
        var err = shelf_codec_error()
        let rc = data.withUnsafeBytes { raw in shelf_png_read_header(raw.baseAddress, raw.count, &header, &err) }
        try CodecCall.check(rc, err, codec: "libpng", action: "decode", name: name)
        return header
    }

    /// PNG dimensions straight from IHDR, so an absurd size is "too many pixels" before libpng's own
    /// sanity limits (1,000,000 px per side) get a chance to call it corrupt.
    static func pngDeclaredSize(_ d: [UInt8]) -> (width: Int, height: Int)? {
        guard d.count >= 24, d[12] == 0x49, d[13] == 0x48, d[14] == 0x44, d[15] == 0x52 else { return nil }
        let w = Int(d[16]) << 24 | Int(d[17]) << 16 | Int(d[18]) << 8 | Int(d[19])
        let h = Int(d[20]) << 24 | Int(d[21]) << 16 | Int(d[22]) << 8 | Int(d[23])
        return (w, h)
    }

    static func decodePNG(_ data: [UInt8], maxPixels: Int, name: String) throws(ShelfImageError) -> RGBImage {
        if let declared = pngDeclaredSize(data), declared.width > 0, declared.height > 0 {
            try checkLimit(width: declared.width, height: declared.height, maxPixels: maxPixels, name: name)
        }
        let h = try pngHeader(data, name: name)
        try checkLimit(width: Int(h.width), height: Int(h.height), maxPixels: maxPixels, name: name)
        let width = Int(h.width), height = Int(h.height)
        var err = shelf_codec_error()
        var rc: Int32 = 0
        let pixels = PixelBuffer.make(count: width * height * 3) { buffer, initialized in
            rc = data.withUnsafeBytes { raw in
                shelf_png_decode_rgb(raw.baseAddress, raw.count, buffer.baseAddress, width * height * 3, h.width, h.height, &err)
            }
            initialized = rc == Int32(SHELF_OK) ? width * height * 3 : 0
        }
        try CodecCall.check(rc, err, codec: "libpng", action: "decode", name: name)
        return RGBImage(width: width, height: height, pixels: pixels)
    }
}
