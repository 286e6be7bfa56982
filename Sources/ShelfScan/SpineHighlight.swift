import Foundation
import Library
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
        guard let path = place.photoPath else {
            throw ShelfImageError(code: .unreadablePath, message: "The library does not say where photo \(place.photoNumber) was scanned from.")
        }
        // libjpeg's DCT scaling skips most of the work on a large photo; the last step is an area average.
        let info = try ImageDecoder.info(fileAt: path)
        var denominator = 1
        while denominator < 8, max(info.width, info.height) / (denominator * 2) >= maxSide { denominator *= 2 }
        let photo = try ImageDecoder.decode(fileAt: path, options: DecodeOptions(scaleDenominator: denominator))
        let small = max(photo.width, photo.height) > maxSide ? photo.downscaled(maxSide: maxSide) : photo
        return Overlay.outline(small, polygon: place.corners.map { Point(x: $0[0], y: $0[1]) })
    }

    /// The band of `highlighted` (an `image(_:)`) holding the spine's shelf row: the box's height and a sixth
    /// more above and below, full width, so a reviewer sees the spine among its neighbours.
    public static func shelfStrip(_ highlighted: RGBImage, _ place: ShelfPlace) -> RGBImage {
        let ys = place.corners.map { $0[1] }
        guard let top = ys.min(), let bottom = ys.max(), bottom > top else { return highlighted }
        let margin = (bottom - top) / 6
        let y0 = max(0, Int(((top - margin) * Double(highlighted.height)).rounded(.down)))
        let y1 = min(highlighted.height, Int(((bottom + margin) * Double(highlighted.height)).rounded(.up)))
        guard y1 > y0 else { return highlighted }
        let rowBytes = highlighted.width * 3
        return RGBImage(width: highlighted.width, height: y1 - y0, pixels: Array(highlighted.pixels[(y0 * rowBytes)..<(y1 * rowBytes)]))
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
