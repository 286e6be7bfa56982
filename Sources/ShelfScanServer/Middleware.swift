import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Who may call what. With a server token (`SHELFSCAN_SERVER_TOKEN`) every route wants it as
/// `Authorization: Bearer <token>`; a job's own routes (status, stream, results, cancel, its WebSocket)
/// also take the token returned with that job, as BooksTrack's clients send it. Without a server token the
/// routes are open, but a job token that is presented must still be the right one.
///
/// Tokens are read from the `Authorization` header, from `Sec-WebSocket-Protocol: bookstrack-auth.<token>`
/// and, on progress channels only (browsers' EventSource and old WebSocket clients cannot set headers),
/// from a `token` query parameter. The request log never prints a query string.
struct AuthMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let serverToken: String?
    let jobs: JobManager

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let credential = Self.credential(request)
        if let serverToken, let credential, constantTimeEqual(credential, serverToken) {
            return try await next(request, context)
        }
        if let credential, let jobID = Self.jobID(request) {
            if await jobs.tokenMatches(jobID, credential) { return try await next(request, context) }
            // Without a server token an unknown job is a 404 whatever the token (a 401 would hide a typo in the ID).
            if serverToken == nil, await jobs.job(jobID) == nil { return try await next(request, context) }
            throw Problem.unauthorized
        }
        if serverToken != nil { throw Problem.unauthorized }
        return try await next(request, context)
    }

    static func credential(_ request: Request) -> String? {
        if let header = request.headers[.authorization] {
            let parts = header.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer" { return parts[1].trimmingCharacters(in: .whitespaces) }
            return header
        }
        if let protocols = request.headers[.secWebSocketProtocol] {
            for offered in protocols.split(separator: ",") {
                let value = offered.trimmingCharacters(in: .whitespaces)
                if value.hasPrefix("bookstrack-auth.") { return String(value.dropFirst("bookstrack-auth.".count)) }
            }
        }
        let path = request.uri.path
        if path == "/ws/progress" || path.hasSuffix("/stream"), let token = request.uri.queryParameters.get("token") {
            return token
        }
        return nil
    }

    /// The job a request is about, when the route is one of a job's own.
    static func jobID(_ request: Request) -> UUID? {
        let parts = request.uri.path.split(separator: "/")
        if parts.count >= 4, parts[0] == "v3", parts[1] == "jobs", parts[2] == "scans" { return UUID(uuidString: String(parts[3])) }
        if parts.count == 4, parts[0] == "v1", parts[1] == "scan", parts[2] == "results" { return UUID(uuidString: String(parts[3])) }
        if parts.count == 2, parts[0] == "ws", parts[1] == "progress" { return request.uri.queryParameters.get("jobId").flatMap { UUID(uuidString: String($0)) } }
        return nil
    }
}

/// Per-client token buckets for scan submissions: each client (by address) may submit `burst` jobs at once
/// and `perMinute` a minute after that. Scanning is the one expensive thing a client can ask for.
actor RateLimiter {
    let perMinute: Int
    let burst: Int
    private var buckets: [String: (tokens: Double, at: ContinuousClock.Instant)] = [:]
    private let clock = ContinuousClock()

    init(perMinute: Int, burst: Int) {
        self.perMinute = perMinute
        self.burst = max(1, burst)
    }

    /// nil when allowed (and counted); otherwise whole seconds until the next submission is allowed.
    func take(_ client: String) -> Int? {
        guard perMinute > 0 else { return nil }
        let now = clock.now
        let rate = Double(perMinute) / 60
        var bucket = buckets[client] ?? (Double(burst), now)
        let elapsed = now - bucket.at
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        bucket.tokens = min(Double(burst), bucket.tokens + seconds * rate)
        bucket.at = now
        defer {
            buckets[client] = bucket
            if buckets.count > 10_000 { buckets = buckets.filter { $0.value.tokens < Double(burst) } }
        }
        if bucket.tokens >= 1 {
            bucket.tokens -= 1
            return nil
        }
        return max(1, Int(((1 - bucket.tokens) / rate).rounded(.up)))
    }
}

struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let limiter: RateLimiter

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        guard request.method == .post, path == "/v3/jobs/scans" || path == "/api/scan-bookshelf" else {
            return try await next(request, context)
        }
        if let wait = await limiter.take(context.clientKey) {
            throw Problem(.tooManyRequests, code: "RATE_LIMIT_EXCEEDED",
                          detail: "Too many scan submissions from this client; try again in \(wait) s.", retryable: true, retryAfter: wait)
        }
        return try await next(request, context)
    }
}

/// One line per request, after it is answered: method, path (never the query: it may hold a token),
/// status, milliseconds and the client's address.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - start
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        context.logger.info("\(request.method.rawValue) \(request.uri.path) \(response.status.code)", metadata: [
            "ms": "\(String(format: "%.1f", ms))",
            "client": "\(context.clientKey)",
        ])
        return response
    }
}
