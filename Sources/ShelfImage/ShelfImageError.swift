/// The one error type of `ShelfImage`: a short code, a one-line message that names the file, and the
/// codec's own text as the cause.
///
/// The message is written for the person at the terminal: it says what is wrong and, where it can, what
/// to do next ("Convert it to JPEG and scan again."). `description` is the message plus the cause, on one
/// line, so the CLI can print it as is.
public struct ShelfImageError: Error, CustomStringConvertible, Equatable, Sendable {
    /// Stable short codes: the CLI's JSON error envelope carries them, tests match on them.
    public enum Code: String, Sendable, Codable, CaseIterable {
        /// Not a JPEG or PNG (or a JPEG variant libjpeg cannot decode, such as 12-bit or arithmetic coded).
        case unsupportedFormat
        /// The data ends before the image does.
        case truncated
        /// The codec rejected the data.
        case corrupt
        /// Zero bytes.
        case emptyFile
        /// The path cannot be opened or read (missing, a directory, no permission).
        case unreadablePath
        /// The header declares more pixels than `DecodeOptions.maxPixels` (or than libheif's own security
        /// limits allow); nothing large was allocated.
        case tooManyPixels
        /// Encoding JPEG or PNG failed.
        case encodingFailed
        /// The caller passed an option outside its range (such as a DCT scale of 1/3).
        case invalidArgument
    }

    public var code: Code
    /// One line naming the file (or "image data" when decoding bytes).
    public var message: String
    /// The codec's or the system's own text, when there is one.
    public var cause: String?

    public init(code: Code, message: String, cause: String? = nil) {
        self.code = code
        self.message = ShelfImageError.oneLine(message)
        self.cause = cause.map(ShelfImageError.oneLine).flatMap { $0.isEmpty ? nil : $0 }
    }

    public var description: String {
        guard let cause else { return message }
        return "\(message) [\(cause)]"
    }

    /// Codec texts sometimes end in a newline; a one-line error must not.
    static func oneLine(_ s: String) -> String {
        String(s.map { $0.isNewline ? " " : $0 }).trimmingSpaces()
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
