import Foundation

/// How enrichment talks to the providers. A plain value the CLI builds from flags, the environment and the
/// config file; library code never reads either itself.
public struct EnrichmentConfiguration: Sendable {
    /// Providers tried in order; the next one is asked only when the one before could not answer or
    /// found nothing acceptable (a fallback chain, not a vote).
    public var providers: [BookProvider]
    /// Per-provider base URL; a missing entry means the public service.
    public var baseURLs: [BookProvider: URL] = [:]
    /// Optional Google Books key (sent as `key=`, never cached, logged or stored).
    public var googleBooksKey: ProviderKey?
    /// Where raw provider replies are cached; nil disables the cache.
    public var cacheDirectory: URL?
    /// Cached replies older than this are fetched again. Default 30 days: book metadata changes slowly
    /// and providers ask clients not to refetch what they already have.
    public var cacheMaxAge: TimeInterval = 30 * 86_400
    /// Requests in flight across all providers. Default 4: OpenLibrary asks for gentle clients.
    public var concurrency: Int = 4
    /// Attempts after the first for 429, 5xx, dropped connections, timeouts and truncated replies. Default 3.
    public var maxRetries: Int = 3
    /// First backoff delay; doubled per attempt with jitter. Default 0.5 s.
    public var backoffBase: TimeInterval = 0.5
    /// A `Retry-After` longer than this is not waited for: the provider counts as failing. Default 30 s.
    public var maxRetryAfter: TimeInterval = 30
    /// Per-attempt timeout. Default 10 s.
    public var timeout: TimeInterval = 10
    /// Consecutive failed requests (after their retries) that open a provider's circuit. Default 3.
    public var circuitFailureThreshold: Int = 3
    /// How long an open circuit stops all calls to its provider. Default 60 s.
    public var circuitCooldown: TimeInterval = 60
    /// Replies larger than this fail instead of filling memory. Default 4 MiB.
    public var maxResponseBytes: Int = 4 << 20
    /// Candidates asked for per search. Default 10.
    public var searchLimit: Int = 10
    /// Searches per book at most, counting the retries with fewer words while nothing acceptable is found.
    /// Default 5, every attempt `QueryWords` plans for six words: on the Library Dataset (eval-enrichment)
    /// 3 searches gave top-1 73.5% at 2.00 requests per book, 5 give 80.3% at 2.30.
    public var maxSearchesPerBook: Int = 5

    /// Least share of a candidate's main title (IDF-weighted words) the reading must show for the candidate
    /// to be applied. Default 0.5, from eval-enrichment on the Library Dataset.
    public var minTitleCoverage: Double = 0.5

    public init(providers: [BookProvider]) { self.providers = providers }

    public func baseURL(for provider: BookProvider) -> URL { baseURLs[provider] ?? provider.defaultBaseURL }

    /// Base URL overrides from `SHELFSCAN_OPENLIBRARY_URL` / `SHELFSCAN_GOOGLEBOOKS_URL`.
    /// - Throws: `EnrichmentError.badBaseURL` for a value that is not an http(s) URL.
    public mutating func applyEnvironment(_ environment: [String: String]) throws(EnrichmentError) {
        for p in BookProvider.allCases {
            guard let text = environment[p.baseURLVariable], !text.isEmpty else { continue }
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  url.host != nil else { throw .badBaseURL(variable: p.baseURLVariable, value: text) }
            baseURLs[p] = url
        }
    }
}
