/// The container formats `ShelfImage` decodes. Always detected from the bytes, never the file name.
public enum ImageFormat: String, Sendable, Codable, CaseIterable {
    case jpeg, png
}

/// What a header says about an image, without decoding pixels.
public struct ImageInfo: Sendable, Equatable, Codable {
    public var format: ImageFormat
    /// Size as stored in the file, before EXIF orientation.
    public var width: Int
    public var height: Int
    /// EXIF orientation 1-8; 1 when there is no EXIF or it is unreadable.
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
    /// the work is skipped); PNG decodes fully and then area-averages to the same size libjpeg would give,
    /// `ceil(size / scaleDenominator)`.
    public var scaleDenominator: Int = 1
    /// Apply the EXIF orientation so the result is upright. Default true.
    public var applyOrientation: Bool = true
    /// Return an image even when libjpeg reports damaged entropy data (bad Huffman codes, lost sync),
    /// which it patches with grey or smeared blocks. Default false: a damaged photo is a `.corrupt` error,
    /// as djpeg's non-zero exit says. Truncated data is always an error.
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

    static func format(of data: [UInt8], name: String) throws(ShelfImageError) -> ImageFormat {
        if data.isEmpty {
            throw ShelfImageError(code: .emptyFile, message: "Cannot decode \(name): the file is empty.")
        }
        if data.starts(with: jpegMagic) { return .jpeg }
        if data.starts(with: pngMagic) { return .png }
        // A file cut inside the signature is a truncated image, not a foreign format.
        if data.count < pngMagic.count && pngMagic.starts(with: data) && data.count >= 2 {
            throw ShelfImageError(code: .truncated, message: "Cannot decode \(name): the PNG ends after \(data.count) bytes.")
        }
        if data.count < jpegMagic.count && jpegMagic.starts(with: data) && data.count >= 2 {
            throw ShelfImageError(code: .truncated, message: "Cannot decode \(name): the JPEG ends after \(data.count) bytes.")
        }
        let kind = foreignKind(data).map { " (it looks like \($0))" } ?? ""
        throw ShelfImageError(
            code: .unsupportedFormat,
            message: "Cannot decode \(name): not a JPEG or PNG\(kind). Convert it to JPEG and try again.")
    }

    private static func foreignKind(_ d: [UInt8]) -> String? {
        func ascii(_ at: Int, _ s: String) -> Bool {
            let b = Array(s.utf8)
            return d.count >= at + b.count && Array(d[at..<at + b.count]) == b
        }
        if ascii(0, "GIF8") { return "GIF" }
        if ascii(0, "RIFF") && ascii(8, "WEBP") { return "WebP" }
        if ascii(4, "ftypheic") || ascii(4, "ftypheix") || ascii(4, "ftypmif1") || ascii(4, "ftyphevc") { return "HEIC" }
        if ascii(4, "ftypavif") { return "AVIF" }
        if ascii(0, "BM") { return "BMP" }
        if ascii(0, "II*\u{0}") || ascii(0, "MM\u{0}*") { return "TIFF" }
        if ascii(0, "%PDF") { return "PDF" }
        return nil
    }
}
