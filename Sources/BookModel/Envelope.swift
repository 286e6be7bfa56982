import Foundation

/// Seed 004's `meta`, present on every response, success or error.
public struct ResponseMeta: Sendable, Equatable, Codable {
    /// ISO 8601.
    public var timestamp: String
    /// Milliseconds.
    public var processingTime: Int?
    public var provider: String?
    public var cached: Bool?
    public var cacheAge: Int?
    public var requestId: String?

    public init(timestamp: String, processingTime: Int? = nil, provider: String? = nil, cached: Bool? = nil,
                cacheAge: Int? = nil, requestId: String? = nil) {
        self.timestamp = timestamp; self.processingTime = processingTime; self.provider = provider
        self.cached = cached; self.cacheAge = cacheAge; self.requestId = requestId
    }

    /// Stamped now; `started` turns into `processingTime`.
    public static func now(since started: Date? = nil, provider: String? = nil, date: Date = Date()) -> ResponseMeta {
        ResponseMeta(timestamp: ISO8601.string(from: date),
                     processingTime: started.map { Int((date.timeIntervalSince($0) * 1000).rounded()) },
                     provider: provider)
    }
}

public struct SuccessResponse<T: Sendable>: Sendable {
    /// Always true; kept as a stored field so it is encoded.
    public var success: Bool
    public var data: T
    public var meta: ResponseMeta
    public init(data: T, meta: ResponseMeta) { success = true; self.data = data; self.meta = meta }
}

private enum SuccessKeys: String, CodingKey { case success, data, meta }

/// Encodable for any encodable payload (commands print ad-hoc data), decodable for decodable ones.
extension SuccessResponse: Encodable where T: Encodable {
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: SuccessKeys.self)
        try c.encode(success, forKey: .success)
        try c.encode(data, forKey: .data)
        try c.encode(meta, forKey: .meta)
    }
}

extension SuccessResponse: Decodable where T: Decodable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: SuccessKeys.self)
        success = try c.decode(Bool.self, forKey: .success)
        data = try c.decode(T.self, forKey: .data)
        meta = try c.decode(ResponseMeta.self, forKey: .meta)
    }
}

public struct ErrorBody: Sendable, Equatable, Codable {
    public var message: String
    /// 'INVALID_ISBN' | 'PROVIDER_TIMEOUT' | 'NOT_FOUND' | …
    public var code: String?
    public var details: JSONValue?
    public init(message: String, code: String? = nil, details: JSONValue? = nil) {
        self.message = message; self.code = code; self.details = details
    }
}

public struct ErrorResponse: Sendable, Equatable, Codable {
    public var success: Bool
    public var error: ErrorBody
    public var meta: ResponseMeta
    public init(error: ErrorBody, meta: ResponseMeta) { success = false; self.error = error; self.meta = meta }
}

/// `ApiResponse<T>`: decodes either envelope by its `success` flag.
public enum ApiResponse<T: Sendable & Codable>: Sendable, Codable {
    case success(SuccessResponse<T>)
    case failure(ErrorResponse)

    private enum Keys: String, CodingKey { case success }

    public init(from decoder: Decoder) throws {
        let ok = try decoder.container(keyedBy: Keys.self).decode(Bool.self, forKey: .success)
        self = ok ? .success(try SuccessResponse<T>(from: decoder)) : .failure(try ErrorResponse(from: decoder))
    }

    public func encode(to encoder: Encoder) throws {
        switch self {
        case let .success(s): try s.encode(to: encoder)
        case let .failure(e): try e.encode(to: encoder)
        }
    }
}

/// One place for the ISO 8601 form seed 004 uses ("2025-10-29T12:00:00Z").
public enum ISO8601 {
    public static func string(from date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }
    public static func date(from string: String) -> Date? {
        if let d = try? Date.ISO8601FormatStyle().parse(string) { return d }
        return try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(string)
    }

    /// Sorted keys and no escaped slashes: stable output for diffs and tests.
    public static func makeEncoder(pretty: Bool = false) -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return e
    }
}
