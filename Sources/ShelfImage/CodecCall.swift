internal import CImageCodecs

/// The one place C return codes become `ShelfImageError`s, so no call site checks `rc != 0` by hand.
enum CodecCall {
    /// Throws unless `rc` is `SHELF_OK`. `codec` is the library name shown in the cause ("libjpeg").
    static func check(_ rc: Int32, _ err: shelf_codec_error, codec: String, action: String, name: String)
        throws(ShelfImageError)
    {
        guard rc != Int32(SHELF_OK) else { return }
        let text = message(err)
        let cause = text.isEmpty ? codec : "\(codec): \(text)"
        switch rc {
        case Int32(SHELF_ERR_TRUNCATED):
            throw ShelfImageError(code: .truncated, message: "Cannot \(action) \(name): the file is truncated (its data ends early).", cause: cause)
        case Int32(SHELF_ERR_UNSUPPORTED):
            throw ShelfImageError(code: .unsupportedFormat, message: "Cannot \(action) \(name): this kind of \(formatName(codec)) is not supported. Convert it to a baseline JPEG and try again.", cause: cause)
        case Int32(SHELF_ERR_LIMIT):
            throw ShelfImageError(code: .tooManyPixels, message: "Cannot \(action) \(name): it asks for more than \(codec)'s security limits allow.", cause: cause)
        case Int32(SHELF_ERR_ARGUMENT):
            throw ShelfImageError(code: .invalidArgument, message: "Cannot \(action) \(name): invalid arguments.", cause: cause)
        case Int32(SHELF_ERR_NOMEM):
            throw ShelfImageError(code: .corrupt, message: "Cannot \(action) \(name): out of memory.", cause: cause)
        default:
            if action == "encode" {
                throw ShelfImageError(code: .encodingFailed, message: "Cannot encode \(name).", cause: cause)
            }
            throw ShelfImageError(code: .corrupt, message: "Cannot \(action) \(name): the data is corrupt.", cause: cause)
        }
    }

    /// The format a codec library decodes, for messages.
    static func formatName(_ codec: String) -> String {
        switch codec {
        case "libpng": return "PNG"
        case "libheif": return "HEIF"
        case "libwebp": return "WebP"
        default: return "JPEG"
        }
    }

    /// Copies the fixed C message buffer into a `String` at once; the buffer dies with `err`.
    static func message(_ err: shelf_codec_error) -> String {
        withUnsafeBytes(of: err.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
