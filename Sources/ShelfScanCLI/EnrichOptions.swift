import ArgumentParser
import Enrichment
import Foundation
import UserDirectories

/// `--enrich` and its cache setting, shared by `scan` and `library enrich`. Keys and base URLs come from
/// the environment or the config file, never from flags.
struct EnrichOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Complete each book from OpenLibrary or Google Books; a comma list (openlibrary,googlebooks) is tried in order.",
        discussion: """
            A provider that is offline or failing never fails a scan: the book stays as read. \
            Mirrors or local servers: SHELFSCAN_OPENLIBRARY_URL, SHELFSCAN_GOOGLEBOOKS_URL. Google Books key (optional): \
            GOOGLE_BOOKS_API_KEY or "google_books_api_key" in $XDG_CONFIG_HOME/shelfscan/config.json.
            """,
        valueName: "providers"))
    var enrich: String?

    @Option(help: ArgumentHelp("Days a provider's cached answer is reused before asking again (0: always ask).", valueName: "days"))
    var enrichCacheDays: Double = 30

    func validate() throws {
        if let enrich, BookProvider.chain(enrich) == nil {
            throw ValidationError("Please pass --enrich openlibrary, googlebooks, or both as a comma list (openlibrary,googlebooks).")
        }
        guard enrichCacheDays >= 0 else { throw ValidationError("Please pass --enrich-cache-days 0 or more.") }
    }

    /// The enricher for `--enrich` (or `fallback` when the flag is absent); nil when neither names a provider.
    /// - Parameter notify: gets the one line said when a provider is paused after repeated failures.
    func makeEnricher(fallback: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
                      notify: @escaping @Sendable (String) -> Void) throws -> Enricher? {
        guard let text = enrich ?? fallback else { return nil }
        return try Self.enricher(providers: text, cacheDays: enrichCacheDays, environment: environment, notify: notify)
    }

    /// The enricher for a provider list as `--enrich` takes it, with keys, base URLs and the cache from the
    /// environment and the config file; nil when the list names no provider.
    static func enricher(providers text: String, cacheDays: Double, environment: [String: String] = ProcessInfo.processInfo.environment,
                         notify: @escaping @Sendable (String) -> Void) throws -> Enricher? {
        guard let providers = BookProvider.chain(text) else { return nil }
        var configuration = EnrichmentConfiguration(providers: providers)
        try configuration.applyEnvironment(environment)
        configuration.googleBooksKey = ProviderKey.resolveGoogleBooks(environment: environment)
        configuration.cacheDirectory = Self.cacheDirectory(environment)
        configuration.cacheMaxAge = cacheDays * 86_400
        return Enricher(configuration: configuration, notify: notify)
    }

    /// `$XDG_CACHE_HOME/shelfscan/enrichment`, or `~/.cache/shelfscan/enrichment`.
    static func cacheDirectory(_ environment: [String: String]) -> URL {
        UserDirectories.cache(environment).appendingPathComponent("enrichment", isDirectory: true)
    }

    /// "Enrichment: 12 requests, 30 answers from cache." on stderr after a scan.
    static func printSummary(_ enricher: Enricher) {
        let s = enricher.stats
        let names = enricher.configuration.providers.map(\.displayName).joined(separator: ", then ")
        stderrNotice("Enrichment (\(names)): \(s.requests) request(s), \(s.cacheHits) answer(s) from cache"
                     + (s.shortCircuited > 0 ? ", \(s.shortCircuited) skipped while a provider was paused" : "") + ".")
    }

    /// Writes one line to stderr; the circuit's notice goes here.
    static let stderrNotice: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
