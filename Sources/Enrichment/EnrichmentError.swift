import Foundation

/// Why a provider gave no usable answer. Messages name the provider and never carry a URL's query (which
/// may hold a key).
public enum EnrichmentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Connection refused, host not found: the provider is offline from here.
    case unreachable(BookProvider)
    case timedOut(BookProvider)
    /// The provider answered with this HTTP status (after retries, for 429 and 5xx).
    case http(BookProvider, status: Int)
    /// A 200 whose body is not the JSON the provider documents (truncated, HTML error page...).
    case malformed(BookProvider, String)
    case tooLarge(BookProvider)
    /// The circuit is open after repeated failures: no call was made.
    case circuitOpen(BookProvider)
    case badBaseURL(variable: String, value: String)
    case cancelled

    public var description: String {
        switch self {
        case .unreachable(let p): "cannot reach \(p.displayName)"
        case .timedOut(let p): "\(p.displayName) did not answer in time"
        case .http(let p, let status): "\(p.displayName) answered HTTP \(status)"
        case .malformed(let p, let why): "\(p.displayName) sent an unreadable reply (\(why))"
        case .tooLarge(let p): "\(p.displayName) sent a reply too large to read"
        case .circuitOpen(let p): "\(p.displayName) is paused after repeated failures"
        case .badBaseURL(let variable, let value): "\(variable)=\(value) is not an http(s) URL; set it to e.g. http://127.0.0.1:8080"
        case .cancelled: "cancelled"
        }
    }

    /// A short stable code for JSON (`enrichmentStatus.reason`).
    public var code: String {
        switch self {
        case .unreachable: "PROVIDER_UNREACHABLE"
        case .timedOut: "PROVIDER_TIMEOUT"
        case .http(_, let s) where s == 429: "PROVIDER_RATE_LIMITED"
        case .http: "PROVIDER_ERROR"
        case .malformed: "PROVIDER_MALFORMED_REPLY"
        case .tooLarge: "PROVIDER_REPLY_TOO_LARGE"
        case .circuitOpen: "PROVIDER_PAUSED"
        case .badBaseURL: "BAD_PROVIDER_URL"
        case .cancelled: "CANCELLED"
        }
    }

    var isRetryable: Bool {
        switch self {
        // Offline is offline: retrying a refused connection only delays the scan; the circuit handles it.
        case .timedOut, .malformed: true
        case .http(_, let s): s == 429 || s >= 500
        default: false
        }
    }
}
