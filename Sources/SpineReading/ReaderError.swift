import Foundation
import UserDirectories

/// Why a reader could not be built or a call failed. A struct over a private code (as
/// AsyncHTTPClient's `HTTPClientError`) so new cases can ship without breaking callers; the message
/// says what failed and, where it can, how to fix it.
public struct ReaderError: Error, Sendable, Equatable, CustomStringConvertible {
    enum Code: Sendable, Equatable {
        case missingLanguageData, engineUnavailable, missingAPIKey, invalidConfiguration
        case endpointUnreachable, timedOut, rateLimited, server, rejected, unauthorized
        case responseTooLarge, malformedAnswer, promptUnavailable, cancelled
    }

    let code: Code
    public let message: String
    /// The HTTP status when the endpoint answered with one.
    public let status: Int?
    /// Seconds the endpoint asked us to wait (`Retry-After`).
    public let retryAfter: Double?

    init(_ code: Code, _ message: String, status: Int? = nil, retryAfter: Double? = nil) {
        self.code = code
        self.message = message
        self.status = status
        self.retryAfter = retryAfter
    }

    public var description: String { message }

    /// Faults worth another attempt: the same request may well succeed in a moment.
    public var isTransient: Bool {
        switch code {
        case .timedOut, .rateLimited, .server, .endpointUnreachable, .malformedAnswer: true
        default: false
        }
    }

    public static func missingLanguageData(_ language: String, dataPath: String) -> ReaderError {
        let package = "tesseract-ocr-" + (language.split(separator: "+").first.map(String.init) ?? "eng")
        return ReaderError(
            .missingLanguageData,
            "Tesseract language data '\(language)' not found in \(dataPath). Install it with `apt-get install \(package)`, set TESSDATA_PREFIX, or use --reader openai|gemini.")
    }
    /// The PP-OCR engine could not start; `message` already names the file and the set-up command.
    public static func ocrEngine(_ message: String) -> ReaderError {
        ReaderError(.engineUnavailable, message)
    }
    public static func engineUnavailable(_ why: String) -> ReaderError {
        ReaderError(.engineUnavailable, "Tesseract could not start: \(why). Install libtesseract5 and tesseract-ocr-eng.")
    }
    public static func missingAPIKey(_ kind: String, variable: String) -> ReaderError {
        ReaderError(
            .missingAPIKey,
            "No API key for \(kind). Set \(variable) or SHELFSCAN_API_KEY in the environment, or \"\(kind)_api_key\" in \(UserSettings.configPath()), or use --reader tesseract.")
    }
    public static func invalidConfiguration(_ what: String) -> ReaderError {
        ReaderError(.invalidConfiguration, what)
    }
    public static func endpointUnreachable(_ url: String) -> ReaderError {
        ReaderError(.endpointUnreachable, "Cannot reach \(url). Is the server running? Or use --reader tesseract.")
    }
    public static func timedOut(_ seconds: Double) -> ReaderError {
        ReaderError(.timedOut, "No answer within \(formatSeconds(seconds)) s (raise --timeout?)")
    }
    public static func http(_ status: Int, _ detail: String, retryAfter: Double? = nil) -> ReaderError {
        let code: Code =
            switch status {
            case 429: .rateLimited
            case 401, 403: .unauthorized
            case 408, 500...599: .server
            default: .rejected
            }
        let text = detail.isEmpty ? "" : ": \(detail)"
        let prefix =
            switch code {
            case .rateLimited: "Rate limited (HTTP 429)"
            case .unauthorized: "API key rejected (HTTP \(status))"
            case .server: "Server error (HTTP \(status))"
            default: "Request rejected (HTTP \(status))"
            }
        return ReaderError(code, prefix + text, status: status, retryAfter: retryAfter)
    }
    public static func unauthorized(_ status: Int, _ detail: String) -> ReaderError {
        ReaderError(.unauthorized, "API key rejected (HTTP \(status)): \(detail)", status: status)
    }
    public static func responseTooLarge(_ limit: Int) -> ReaderError {
        ReaderError(.responseTooLarge, "Reply larger than \(limit) bytes; refused")
    }
    public static func malformedAnswer(_ why: String) -> ReaderError {
        ReaderError(.malformedAnswer, "Unusable answer: \(why)")
    }
    public static func promptUnavailable(_ why: String) -> ReaderError {
        ReaderError(.promptUnavailable, "Prompt file unusable: \(why)")
    }
    public static let cancelled = ReaderError(.cancelled, "Cancelled")

    var isUnauthorized: Bool { code == .unauthorized }
    var isRejected: Bool { code == .rejected }
}

func formatSeconds(_ s: Double) -> String {
    s == s.rounded() ? String(Int(s)) : String(format: "%.1f", s)
}
