import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1

/// Who may call what, one middleware per route group (`ShelfScanServer.register`).
///
/// A job's own routes (status, stream, results, cancel, its WebSocket, v1 results) want that job's token or the
/// server token, with or without a server token: a job ID turns up in logs, shared links and proxies, and it
/// must not be enough to read someone's books. Every other route wants the server token when there is one
/// (`SHELFSCAN_SERVER_TOKEN`) and is open without it, which `serve` allows on loopback only unless told
/// `--allow-open-network`.
///
/// Tokens are read as BooksTrack's clients send them: `Authorization: Bearer <token>`,
/// `Sec-WebSocket-Protocol: bookstrack-auth.<token>` (a browser's WebSocket cannot set headers) and, on
/// progress channels only (EventSource and old WebSocket clients cannot set headers either), a `token` query
/// parameter; a browser's, as the session cookie its login set (`BrowserSession`). The request log never
/// prints a query string.
enum Credential {
    static func of(_ request: Request) -> Substring? {
        if let header = request.headers[.authorization] { return bearer(header) }
        if let cookie = BrowserSession.cookieToken(request.headers) { return cookie[...] }
        if let offered = webSocketProtocol(request) { return offered.dropFirst(protocolPrefix.count) }
        let path = request.uri.path
        if path == RoutePath.progressSocket || path.hasSuffix("/stream"), let token = request.uri.queryParameters.get("token") {
            return token[...]
        }
        return nil
    }

    /// The token of `Bearer <token>` (scheme in any case), or the whole header for any other form. A slice of
    /// the header, found byte by byte: every request to a job's routes reads it, and splitting, lower-casing
    /// and trimming allocated three strings each time.
    static func bearer(_ header: String) -> Substring {
        let utf8 = header.utf8
        let scheme = "bearer ".utf8
        guard utf8.count > scheme.count, zip(utf8, scheme).allSatisfy({ $0 | 0x20 == $1 }) else { return header[...] }
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var start = utf8.index(utf8.startIndex, offsetBy: scheme.count), end = utf8.endIndex
        while start < end, isBlank(utf8[start]) { start = utf8.index(after: start) }
        while start < end, isBlank(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
        return header[start..<end]
    }

    static let protocolPrefix = "bookstrack-auth."

    /// The `bookstrack-auth.<token>` subprotocol the client offered, whole (the upgrade echoes it back).
    static func webSocketProtocol(_ request: Request) -> String? {
        request.headers[.secWebSocketProtocol]?.split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.hasPrefix(protocolPrefix) }
    }

    static func isServerToken(_ credential: Substring?, _ serverToken: String?) -> Bool {
        guard let credential, let serverToken else { return false }
        return constantTimeEqual(credential, serverToken)
    }
}

/// Routes that are not a job's own: the server token when there is one, else open.
struct ServerTokenMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let serverToken: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if serverToken != nil, !Credential.isServerToken(Credential.of(request), serverToken) { throw Problem.unauthorized }
        return try await next(request, context)
    }
}

/// A job's own routes: its token or the server token. The job is the route's `jobId` path parameter, or the
/// `jobId` query parameter of `/ws/progress`. Without a server token an unknown job is a 401 like a wrong
/// token, so the answer never says whether a job exists.
struct JobTokenMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let serverToken: String?
    let jobs: JobDirectory

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let credential = Credential.of(request)
        if Credential.isServerToken(credential, serverToken) { return try await next(request, context) }
        guard let credential else { throw Problem.unauthorized }
        let id = context.parameters.get("jobId", as: JobID.self) ?? request.uri.queryParameters.get("jobId", as: JobID.self)
        guard jobs.tokenMatches(id?.uuid, credential) else { throw Problem.unauthorized }
        return try await next(request, context)
    }
}

/// A WebSocket upgrade the router refused gets the router's problem rather than hummingbird-websocket's own
/// answer: it writes an empty 400 for every refusal (`HTTP1WebSocketUpgradeChannel.writeFailedUpgrade`), so a
/// wrong token would read as a malformed request. The problem is handed to the connection, whose
/// `RefusedUpgradeWriter` puts it in place of that 400.
struct RefusedUpgradeMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let problem as Problem where request.headers[.upgrade]?.lowercased() == "websocket" {
            try? await context.channel.pipeline.addHandler(RefusedUpgradeWriter(problem)).get()
            throw problem
        }
    }
}

/// Rewrites the empty answer to a refused WebSocket upgrade into `problem`. Added to the connection's pipeline
/// while the upgrade is being decided, so it sits between the HTTP/1 encoder and the codec hummingbird-websocket
/// adds for the refusal, and sees that answer as `HTTPServerResponsePart`s. It rewrites whatever status that
/// answer has (400 in hummingbird-websocket 2.8; an earlier release wrote 200): it is the only answer the
/// connection gives before it is closed.
final class RefusedUpgradeWriter: ChannelOutboundHandler, RemovableChannelHandler, Sendable {
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart
    private let problem: Problem

    init(_ problem: Problem) { self.problem = problem }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .head(var head) = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        let body = problem.body
        head.status = HTTPResponseStatus(statusCode: problem.status)
        head.headers.replaceOrAdd(name: "Content-Type", value: Problem.mediaType)
        head.headers.replaceOrAdd(name: "Content-Length", value: String(body.readableBytes))
        if let retryAfter = problem.retryAfter { head.headers.replaceOrAdd(name: "Retry-After", value: String(retryAfter)) }
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: promise)
    }
}

/// Per-client token buckets for scan submissions: each client (by address) may submit `burst` jobs at once
/// and `perMinute` a minute after that. Scanning is the one expensive thing a client can ask for.
actor RateLimiter {
    let perMinute: Int
    let burst: Int
    private var buckets: [String: (tokens: Double, at: Duration)] = [:]
    private let clock: ServerClock

    init(perMinute: Int, burst: Int, clock: ServerClock) {
        self.perMinute = perMinute
        self.burst = max(1, burst)
        self.clock = clock
    }

    /// nil when allowed (and counted); otherwise whole seconds until the next submission is allowed.
    func take(_ client: String) -> Int? {
        guard perMinute > 0 else { return nil }
        let now = clock.now()
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

/// The submission routes' group: `limiter` per client address.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let limiter: RateLimiter

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
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
        let elapsed = (ContinuousClock.now - start).components
        // Tenths of a millisecond in integers: `String(format:)` goes through Foundation's formatter and
        // `vfprintf`, on every request.
        let tenths = elapsed.seconds * 10_000 + elapsed.attoseconds / 100_000_000_000_000
        context.logger.info("\(request.method.rawValue) \(request.uri.path) \(response.status.code)", metadata: [
            "ms": "\(tenths / 10).\(tenths % 10)",
            "client": "\(context.clientKey)",
        ])
        return response
    }
}

/// The review decisions' group: a decision changes what a job's results say, so results served from memory are
/// checked against the library again after it.
struct DecisionMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let resultsCache: ResultsCache

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        defer { resultsCache.forgetChecks() }
        return try await next(request, context)
    }
}
