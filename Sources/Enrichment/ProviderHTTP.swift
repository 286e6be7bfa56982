import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Counters of one enrichment run, for `requests per book` and the summary line.
public struct EnrichmentStats: Sendable, Equatable {
    /// HTTP requests sent, retries included.
    public var requests = 0
    /// Replies served from the on-disk cache.
    public var cacheHits = 0
    public var retries = 0
    /// Calls refused by an open circuit.
    public var shortCircuited = 0
}

/// One GET's outcome as the clients need it: the status (200 or 404 reach them; every other status is an
/// error) and where it came from.
struct ProviderReply: Sendable {
    var status: Int
    var body: Data
    var cacheAge: TimeInterval?
}

/// Every request to a provider goes through here: the cache, the concurrency limit, the circuit, retries
/// with backoff and `Retry-After`. URLSession does the HTTP (FoundationNetworking on Linux).
final class ProviderHTTP: Sendable {
    let configuration: EnrichmentConfiguration
    private let session: URLSession
    private let cache: ResponseCache?
    private let breaker: CircuitBreaker
    private let limiter: RequestLimiter
    private let counters = Counters()
    private let notify: @Sendable (String) -> Void

    /// - Parameter notify: receives one line when a provider's circuit opens (once per provider), for
    ///   stderr; never receives a URL or a key.
    init(configuration: EnrichmentConfiguration, notify: @escaping @Sendable (String) -> Void) {
        self.configuration = configuration
        let c = URLSessionConfiguration.ephemeral
        c.urlCache = nil
        c.httpCookieStorage = nil
        c.requestCachePolicy = .reloadIgnoringLocalCacheData
        c.httpMaximumConnectionsPerHost = max(2, configuration.concurrency)
        c.timeoutIntervalForRequest = configuration.timeout
        c.httpAdditionalHeaders = ["User-Agent": "ShelfScan/1.0 (bookshelf scanner; metadata enrichment)",
                                   "Accept": "application/json"]
        session = URLSession(configuration: c)
        cache = configuration.cacheDirectory.map { ResponseCache(directory: $0, maxAge: configuration.cacheMaxAge) }
        breaker = CircuitBreaker(threshold: configuration.circuitFailureThreshold, cooldown: configuration.circuitCooldown)
        limiter = RequestLimiter(limit: configuration.concurrency)
        self.notify = notify
    }

    deinit { session.finishTasksAndInvalidate() }

    var stats: EnrichmentStats { counters.value }

    /// GETs `path` with `query` from the provider's base URL. `secretQuery` items (the API key) are sent but
    /// kept out of the cache key and of every message.
    /// - Returns: a 200 or 404 reply; 404 is an answer ("no such ISBN"), not a failure.
    /// - Throws: `EnrichmentError` once retries are spent or the circuit is open.
    func get(_ provider: BookProvider, path: String, query: [URLQueryItem] = [], secretQuery: [URLQueryItem] = [])
        async throws(EnrichmentError) -> ProviderReply {
        let cacheKey = provider.rawValue + " " + path + "?" + query.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
        if let hit = cache?.lookup(cacheKey) {
            counters.update { $0.cacheHits += 1 }
            return ProviderReply(status: hit.status, body: hit.body, cacheAge: hit.age)
        }
        guard await breaker.allows(provider) else {
            counters.update { $0.shortCircuited += 1 }
            throw .circuitOpen(provider)
        }
        guard let url = Self.url(configuration.baseURL(for: provider), path: path, query: query + secretQuery) else {
            throw .malformed(provider, "bad request path")
        }
        var attempt = 0
        while true {
            if Task.isCancelled { throw .cancelled }
            let outcome = await once(provider, url: url)
            switch outcome {
            case .success(let reply):
                await breaker.recordSuccess(provider)
                cache?.store(cacheKey, status: reply.status, body: reply.body)
                return reply
            case .failure(let failure):
                guard failure.error.isRetryable, attempt < configuration.maxRetries,
                      (failure.retryAfter ?? 0) <= configuration.maxRetryAfter else {
                    if await breaker.recordFailure(provider) {
                        notify("\(provider.displayName) keeps failing (\(failure.error)); not asking it again for "
                               + "\(Int(configuration.circuitCooldown)) s. Books stay as read.")
                    }
                    throw failure.error
                }
                attempt += 1
                counters.update { $0.retries += 1 }
                let backoff = configuration.backoffBase * pow(2, Double(attempt - 1)) * Double.random(in: 0.75...1.25)
                let delay = max(failure.retryAfter ?? 0, backoff)
                do { try await Task.sleep(nanoseconds: UInt64(delay * 1e9)) } catch { throw .cancelled }
            }
        }
    }

    private struct Failure: Error {
        var error: EnrichmentError
        var retryAfter: TimeInterval?
    }

    /// One attempt, under the concurrency limit.
    private func once(_ provider: BookProvider, url: URL) async -> Result<ProviderReply, Failure> {
        await limiter.acquire()
        counters.update { $0.requests += 1 }
        RequestTally.current?.add()
        var request = URLRequest(url: url)
        request.timeoutInterval = configuration.timeout
        let result: Result<ProviderReply, Failure>
        do {
            let (data, response) = try await session.data(for: request)
            result = Self.judge(provider, data: data, response: response, maxBytes: configuration.maxResponseBytes)
        } catch {
            let code = URLError.Code(rawValue: (error as NSError).code)
            switch code {
            case .timedOut: result = .failure(Failure(error: .timedOut(provider)))
            case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet:
                result = .failure(Failure(error: .unreachable(provider)))
            case .cancelled where Task.isCancelled: result = .failure(Failure(error: .cancelled))
            default:
                // Dropped connections, resets, empty replies: a truncated transfer, worth retrying.
                result = .failure(Failure(error: .malformed(provider, "connection closed early")))
            }
        }
        await limiter.release()
        return result
    }

    private static func judge(_ provider: BookProvider, data: Data, response: URLResponse, maxBytes: Int) -> Result<ProviderReply, Failure> {
        guard let http = response as? HTTPURLResponse else {
            return .failure(Failure(error: .malformed(provider, "not an HTTP reply")))
        }
        let status = http.statusCode
        if status == 200 || status == 404 {
            guard data.count <= maxBytes else { return .failure(Failure(error: .tooLarge(provider))) }
            // A 200 must be whole JSON; a truncated body is caught here, retried, and never cached.
            if status == 200, (try? JSONSerialization.jsonObject(with: data)) == nil {
                return .failure(Failure(error: .malformed(provider, "truncated or not JSON")))
            }
            return .success(ProviderReply(status: status, body: status == 200 ? data : Data(), cacheAge: nil))
        }
        let retryAfter = (http.value(forHTTPHeaderField: "Retry-After")).flatMap(parseRetryAfter)
        return .failure(Failure(error: .http(provider, status: status), retryAfter: retryAfter))
    }

    /// `Retry-After` as delta-seconds or an HTTP date.
    static func parseRetryAfter(_ value: String) -> TimeInterval? {
        let v = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(v) { return max(0, seconds) }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return f.date(from: v).map { max(0, $0.timeIntervalSinceNow) }
    }

    static func url(_ base: URL, path: String, query: [URLQueryItem]) -> URL? {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else { return nil }
        let basePath = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = basePath + path
        if !query.isEmpty {
            components.queryItems = query
            // `+` is a space to most servers' query parsers; encode it so "C++" survives.
            components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        }
        return components.url
    }
}

/// Requests made on behalf of one book, whatever else runs at the same time: set as a task-local around
/// one `Enricher.enrich` call, bumped by every attempt made inside it.
final class RequestTally: @unchecked Sendable {
    @TaskLocal static var current: RequestTally?
    private let lock = NSLock()
    private var n = 0
    func add() { lock.withLock { n += 1 } }
    var count: Int { lock.withLock { n } }
}

/// A lock-protected value: counters bumped from many tasks, read at the end. `@unchecked Sendable`
/// because `stats` is only touched under `lock`.
final class Counters: @unchecked Sendable {
    private let lock = NSLock()
    private var stats = EnrichmentStats()
    var value: EnrichmentStats { lock.withLock { stats } }
    func update(_ body: (inout EnrichmentStats) -> Void) { lock.withLock { body(&stats) } }
}
