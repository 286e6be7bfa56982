import Foundation
import LibraryCore
import ShelfImage
import SpineDetection

/// A found book shown on its photo: the shelf photo shrunk for a screen, with the spine outlined. One
/// drawing for `shelfscan find --highlight` and the server's find page.
public enum SpineHighlight {
    /// 2000 px on the long side: enough to read the neighbouring spines on a laptop screen, a tenth of the
    /// bytes of a 12-megapixel original.
    public static let defaultMaxSide = 2000

    /// The photo at `place.photoPath`, upright, shrunk to at most `maxSide` pixels, spine outlined.
    /// - Throws: `ShelfImageError` naming the photo when it has moved or cannot be decoded.
    public static func image(_ place: ShelfPlace, maxSide: Int = defaultMaxSide) throws -> RGBImage {
        Overlay.outline(try photo(place, maxSide: maxSide), polygon: place.corners.map { Point(x: $0[0], y: $0[1]) })
    }

    /// The photo at `place.photoPath`, upright, shrunk to at most `maxSide` pixels, as it is.
    /// - Throws: `ShelfImageError` naming the photo when it has moved or cannot be decoded.
    public static func photo(_ place: ShelfPlace, maxSide: Int = defaultMaxSide) throws -> RGBImage {
        guard let path = place.photoPath else {
            throw ShelfImageError(code: .unreadablePath, message: "The library does not say where photo \(place.photoNumber) was scanned from.")
        }
        // libjpeg's DCT scaling skips most of the work on a large photo; the last step is an area average.
        let info = try ImageDecoder.info(fileAt: path)
        var denominator = 1
        while denominator < 8, max(info.width, info.height) / (denominator * 2) >= maxSide { denominator *= 2 }
        let photo = try ImageDecoder.decode(fileAt: path, options: DecodeOptions(scaleDenominator: denominator))
        return max(photo.width, photo.height) > maxSide ? photo.downscaled(maxSide: maxSide) : photo
    }

    /// The file format a highlight is written in, from the name the person gave it.
    public enum Format: String, Sendable {
        case jpeg, png

        /// - Returns: nil unless the name ends in .jpg, .jpeg or .png (any case).
        public init?(fileName: String) {
            switch URL(fileURLWithPath: fileName).pathExtension.lowercased() {
            case "jpg", "jpeg": self = .jpeg
            case "png": self = .png
            default: return nil
            }
        }
    }

    public static func encode(_ image: RGBImage, as format: Format) throws -> [UInt8] {
        switch format {
        case .jpeg: try image.jpegData(quality: 85)
        case .png: try image.pngData()
        }
    }
}
