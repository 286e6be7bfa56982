import Foundation
import ShelfImage

/// A crop as the bytes a vision endpoint receives: base64 JPEG, the format every endpoint takes.
struct ImagePayload: Sendable {
    var mimeType: String
    var data: Data

    var base64: String { data.base64EncodedString() }
    var dataURL: String { "data:\(mimeType);base64,\(base64)" }

    static func encode(_ image: RGBImage, quality: Int) throws(ReaderError) -> ImagePayload {
        do {
            return ImagePayload(mimeType: "image/jpeg", data: Data(try image.jpegData(quality: quality)))
        } catch {
            throw .invalidConfiguration("Cannot encode a \(image.width)x\(image.height) crop as JPEG: \(error)")
        }
    }
}
