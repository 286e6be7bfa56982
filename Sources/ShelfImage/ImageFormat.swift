/// The container formats `ShelfImage` decodes. Always detected from the bytes, never the file name.
public enum ImageFormat: String, Sendable, Codable, CaseIterable {
    /// JPEG through libjpeg-turbo.
    case jpeg
    /// PNG through libpng.
    case png
    /// HEIF/HEIC (an iPhone's default) through libheif, HEVC decoded by libde265.
    case heif
    /// WebP, lossy or lossless, still or animated (first frame), through libwebp.
    case webp
}

/// What a header says about an image, without decoding pixels.
public struct ImageInfo: Sendable, Equatable, Codable {
    public var format: ImageFormat
    /// Size as stored in the file, before EXIF orientation (for HEIF: after its irot/imir, see `orientation`).
    public var width: Int
    public var height: Int
    /// EXIF orientation 1-8; 1 when there is no EXIF or it is unreadable. Always 1 for HEIF: libheif
    /// applies the file's own irot/imir transforms, so `width` and `height` are already the upright size
    /// (any EXIF orientation in a HEIF repeats those transforms and is never applied on top).
    public var orientation: Int
    /// Size after applying `orientation`: what a viewer shows and what `decode` returns.
    public var uprightWidth: Int
    public var uprightHeight: Int

    public init(format: ImageFormat, width: Int, height: Int, orientation: Int) {
        self.format = format
        self.width = width
        self.height = height
        self.orientation = (1...8).contains(orientation) ? orientation : 1
        let swaps = self.orientation >= 5
        self.uprightWidth = swaps ? height : width
        self.uprightHeight = swaps ? width : height
    }
}

/// How to decode. The defaults suit a full-resolution, upright decode of a phone photo.
public struct DecodeOptions: Sendable {
    /// Largest accepted `width * height` as stored, checked from the header before any pixel buffer is
    /// allocated. Default 150 MP: above any phone camera, below what would exhaust a small machine.
    public var maxPixels: Int = 150_000_000
    /// Decode at 1/1, 1/2, 1/4 or 1/8 of the stored size. JPEG uses libjpeg's DCT scaling (fast: most of
    /// the work is skipped); WebP scales inside libwebp's decoder (no full-size buffer); HEIF uses the
    /// file's thumbnail when it is at least that large, else decodes fully; PNG and HEIF then area-average
    /// to the same size libjpeg would give, `ceil(size / scaleDenominator)`.
    public var scaleDenominator: Int = 1
    /// Apply the EXIF orientation so the result is upright. Default true.
    public var applyOrientation: Bool = true
    /// Return an image even when libjpeg reports damaged entropy data (bad Huffman codes, lost sync),
    /// which it patches with grey or smeared blocks. Default false: a damaged photo is a `.corrupt` error,
    /// as djpeg's non-zero exit says. Truncated data is always an error. (JPEG only: HEVC and VP8 data
    /// carry no such damage signal.)
    public var acceptsDamagedData: Bool = false

    public init(maxPixels: Int = 150_000_000, scaleDenominator: Int = 1, applyOrientation: Bool = true,
                acceptsDamagedData: Bool = false) {
        self.maxPixels = maxPixels
        self.scaleDenominator = scaleDenominator
        self.applyOrientation = applyOrientation
        self.acceptsDamagedData = acceptsDamagedData
    }
}

/// Recognises the format from the first bytes, and names the common formats we do not decode so the
/// error can say what the file is.
enum FormatSniffer {
    static let jpegMagic: [UInt8] = [0xFF, 0xD8, 0xFF]
    static let pngMagic: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// `ftyp` major brands of HEVC-coded HEIF (stills and sequences) and the generic HEIF brands. AVIF
    /// (`avif`, `avis`) is left out on purpose: it needs an AV1 decoder we do not ship.
    static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs", "mif1", "msf1"]

    static func format(of data: [UInt8], name: String) throws(ShelfImageError) -> ImageFormat {
        if data.isEmpty {
            throw ShelfImageError(code: .emptyFile, message: "Cannot decode \(name): the file is empty.")
        }
        if data.starts(with: jpegMagic) { return .jpeg }
        if data.starts(with: pngMagic) { return .png }
        if isWebP(data) { return .webp }
        if isHEIF(data) { return .heif }
        // A file cut inside the signature is a truncated image, not a foreign format.
        if data.count < pngMagic.count && pngMagic.starts(with: data) && data.count >= 2 {
            throw ShelfImageError(code: .truncated, message: "Cannot decode \(name): the PNG ends after \(data.count) bytes.")
        }
        if data.count < jpegMagic.count && jpegMagic.starts(with: data) && data.count >= 2 {
            throw ShelfImageError(code: .truncated, message: "Cannot decode \(name): the JPEG ends after \(data.count) bytes.")
        }
        // The same for the fixed parts of the WebP ("RIFF") and HEIF ("....ftyp") headers.
        if data.count < 12, data.count >= 4, Array("RIFF".utf8).starts(with: data.prefix(4)) {
            throw ShelfImageError(code: .truncated, message: "Cannot decode \(name): the WebP ends after \(data.count) bytes.")
        }
        if data.count < 12, data.count >= 6, Array("ftyp".utf8).starts(with: data[4...].prefix(4)) {
            throw ShelfImageError(code: .truncated, message: "Cannot decode \(name): the HEIF ends after \(data.count) bytes.")
        }
        let kind = foreignKind(data).map { " (it looks like \($0))" } ?? ""
        throw ShelfImageError(
            code: .unsupportedFormat,
            message: "Cannot decode \(name): not a JPEG, PNG, HEIC or WebP\(kind). Convert it to JPEG and try again.")
    }

    /// `RIFF` size `WEBP`.
    static func isWebP(_ d: [UInt8]) -> Bool {
        d.count >= 12 && d[0] == 0x52 && d[1] == 0x49 && d[2] == 0x46 && d[3] == 0x46
            && d[8] == 0x57 && d[9] == 0x45 && d[10] == 0x42 && d[11] == 0x50
    }

    /// An ISO-BMFF `ftyp` box first whose major brand is a HEIF brand.
    static func isHEIF(_ d: [UInt8]) -> Bool {
        guard let brand = majorBrand(d) else { return false }
        return heifBrands.contains(brand)
    }

    static func majorBrand(_ d: [UInt8]) -> String? {
        guard d.count >= 12, d[4] == 0x66, d[5] == 0x74, d[6] == 0x79, d[7] == 0x70 else { return nil }
        return String(decoding: d[8..<12], as: UTF8.self)
    }

    private static func foreignKind(_ d: [UInt8]) -> String? {
        func ascii(_ at: Int, _ s: String) -> Bool {
            let b = Array(s.utf8)
            return d.count >= at + b.count && Array(d[at..<at + b.count]) == b
        }
        if ascii(0, "GIF8") { return "GIF" }
        if ascii(4, "ftypavif") || ascii(4, "ftypavis") { return "AVIF" }
        if ascii(4, "ftyp") { return "an ISO media file of brand '\(majorBrand(d) ?? "?")', not HEIF" }
        if ascii(0, "BM") { return "BMP" }
        if ascii(0, "II*\u{0}") || ascii(0, "MM\u{0}*") { return "TIFF" }
        if ascii(0, "%PDF") { return "PDF" }
        return nil
    }
}
