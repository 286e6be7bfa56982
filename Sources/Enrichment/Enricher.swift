import BookModel
import Catalog
import Foundation

/// What is known of one spine: the reader's raw text, its title/author split when it made one, an ISBN
/// when something (a catalogue, a barcode) gave one.
public struct EnrichmentRequest: Sendable, Equatable {
    public var rawText: String
    public var title: String?
    public var authors: [String]
    public var isbn: String?

    public init(rawText: String = "", title: String? = nil, authors: [String] = [], isbn: String? = nil) {
        self.rawText = rawText; self.title = title; self.authors = authors; self.isbn = isbn
    }

    /// The text the ranker scores candidates against: the raw reading (what the calibration was fitted
    /// on) without shelf marks, which providers do not know; else title and authors.
    var rankingText: String {
        let raw = QueryWords.withoutShelfMarks(TextNormalization.tokens(rawText)).joined(separator: " ")
        return raw.isEmpty ? ([title ?? ""] + authors).joined(separator: " ") : raw
    }
}

/// A provider's book proposed for a reading, with the calibrated probability that it is the book read.
public struct EnrichmentCandidate: Sendable, Equatable, Codable {
    public var provider: BookProvider
    public var book: EnrichedBook
    /// 0...1; 1 for an ISBN lookup.
    public var score: Double
    /// Weighted share of the candidate's main title found in the reading (1 for an ISBN lookup).
    public var titleCoverage: Double = 1

    /// Sure enough to apply: the calibrated score clears the threshold and the spine shows enough of the
    /// title. The second test matters with providers: the calibration's strongest input is how clearly a
    /// candidate beats the others, and a search that returns one book makes it win by default.
    func isAcceptable(threshold: Double, minTitleCoverage: Double) -> Bool {
        score >= threshold && titleCoverage >= minTitleCoverage
    }
}

public struct EnrichmentResult: Sendable, Equatable {
    public var status: EnrichmentStatus
    /// The candidate applied, when `status.state == .enriched`.
    public var accepted: EnrichmentCandidate?
    /// Every candidate, best first, for review (the accepted one included).
    public var candidates: [EnrichmentCandidate]

    public init(status: EnrichmentStatus, accepted: EnrichmentCandidate? = nil, candidates: [EnrichmentCandidate] = []) {
        self.status = status; self.accepted = accepted; self.candidates = candidates
    }
}

/// Turns a noisy reading into a provider's book: build a query from the reading's best words, ask the
/// providers in chain order, rank what comes back with the catalogue's calibrated matcher, and accept
/// the best above its threshold. Never throws: a provider that fails leaves the book as read, and
/// `EnrichmentStatus` says why. Safe to share across concurrent scans (one cache, limiter and circuit).
public final class Enricher: Sendable {
    public let configuration: EnrichmentConfiguration
    /// Calibrated score at or above which a candidate is applied; the catalogue matcher's own threshold
    /// (precision >= 95% on the Library Dataset's training half).
    public let acceptThreshold: Double
    let http: ProviderHTTP

    /// - Parameter notify: one line when a provider is paused after repeated failures (once per provider).
    public init(configuration: EnrichmentConfiguration, acceptThreshold: Double = CatalogIndex.acceptThreshold,
                notify: @escaping @Sendable (String) -> Void = { _ in }) {
        self.configuration = configuration
        self.acceptThreshold = acceptThreshold
        http = ProviderHTTP(configuration: configuration, notify: notify)
    }

    public var stats: EnrichmentStats { http.stats }

    private func accepts(_ c: EnrichmentCandidate) -> Bool {
        c.isAcceptable(threshold: acceptThreshold, minTitleCoverage: configuration.minTitleCoverage)
    }

    public func enrich(_ request: EnrichmentRequest) async -> EnrichmentResult {
        let tally = RequestTally()
        return await RequestTally.$current.withValue(tally) { await enrich(request, tally: tally) }
    }

    private func enrich(_ request: EnrichmentRequest, tally: RequestTally) async -> EnrichmentResult {
        var failures: [EnrichmentStatus.Failure] = []
        var candidates: [EnrichmentCandidate] = []
        var answered = false
        let words = QueryWords(request)
        let isbn = request.isbn.flatMap(ISBN.valid)
        guard isbn != nil || !words.isEmpty else {
            return EnrichmentResult(status: EnrichmentStatus(state: .nothingToSearch, requests: 0), accepted: nil, candidates: [])
        }
        for provider in configuration.providers {
            // Candidates ranked so far survive a later attempt's failure: they are still worth reviewing.
            var ranked: [EnrichmentCandidate] = []
            do {
                if let isbn, let book = try await lookup(isbn: isbn, provider) {
                    let hit = EnrichmentCandidate(provider: provider, book: book, score: 1)
                    return finish(.enriched, hit, [hit] + candidates, failures, tally)
                }
                // Each attempt's books join the pool and the pool is ranked again; stop once one is sure.
                var pool: [EnrichedBook] = []
                for attempt in words.attempts.prefix(max(1, configuration.maxSearchesPerBook)) {
                    let found = try await search(attempt, provider)
                    answered = true
                    let fresh = found.filter { b in !pool.contains { Self.sameRecord($0, b) } }
                    guard !fresh.isEmpty else { continue }
                    pool += fresh
                    ranked = rank(pool, provider: provider, against: request)
                    if ranked.contains(where: accepts) { break }
                }
                candidates = (candidates + ranked).sorted { $0.score > $1.score }
                if let best = ranked.first(where: accepts) {
                    return finish(.enriched, best, candidates, failures, tally)
                }
            } catch {
                candidates = (candidates + ranked).sorted { $0.score > $1.score }
                failures.append(EnrichmentStatus.Failure(provider: provider.rawValue, code: error.code))
            }
        }
        let state: EnrichmentStatus.State = !candidates.isEmpty ? .candidatesOnly : (answered ? .notFound : .unavailable)
        return finish(state, nil, candidates, failures, tally)
    }

    /// Free-text search across the chain, for a reviewer's typed words (the review `/` key): every
    /// provider is asked (not only until one answers), candidates ranked together, best first.
    /// - Returns: the candidates and the providers that could not answer.
    public func search(_ text: String, limit: Int = 10) async -> (candidates: [EnrichmentCandidate], failures: [EnrichmentStatus.Failure]) {
        let request = EnrichmentRequest(rawText: text)
        let words = QueryWords(request)
        var all: [EnrichmentCandidate] = []
        var failures: [EnrichmentStatus.Failure] = []
        if let isbn = ISBN.valid(text) {
            for provider in configuration.providers {
                do {
                    if let book = try await lookup(isbn: isbn, provider) { all.append(EnrichmentCandidate(provider: provider, book: book, score: 1)) }
                } catch { failures.append(EnrichmentStatus.Failure(provider: provider.rawValue, code: error.code)) }
            }
            return (all, failures)
        }
        guard !words.isEmpty else { return ([], []) }
        for provider in configuration.providers {
            do {
                var found: [EnrichedBook] = []
                for attempt in words.attempts.prefix(max(1, configuration.maxSearchesPerBook)) where found.isEmpty {
                    found = try await search(attempt, provider)
                }
                all += rank(found, provider: provider, against: request)
            } catch {
                failures.append(EnrichmentStatus.Failure(provider: provider.rawValue, code: error.code))
            }
        }
        return (Array(all.sorted { $0.score > $1.score }.prefix(limit)), failures)
    }

    private func finish(_ state: EnrichmentStatus.State, _ accepted: EnrichmentCandidate?, _ candidates: [EnrichmentCandidate],
                        _ failures: [EnrichmentStatus.Failure], _ tally: RequestTally) -> EnrichmentResult {
        let shown = accepted ?? candidates.first
        let status = EnrichmentStatus(state: state, provider: shown?.provider.rawValue,
                                      score: shown.map { ($0.score * 10_000).rounded() / 10_000 },
                                      failures: failures.isEmpty ? nil : failures,
                                      requests: tally.count)
        return EnrichmentResult(status: status, accepted: accepted, candidates: Array(candidates.prefix(configuration.searchLimit)))
    }

    private func lookup(isbn: String, _ provider: BookProvider) async throws(EnrichmentError) -> EnrichedBook? {
        switch provider {
        case .openlibrary: try await OpenLibraryClient(http: http).lookup(isbn: isbn)
        case .googlebooks: try await GoogleBooksClient(http: http, key: configuration.googleBooksKey).lookup(isbn: isbn)
        }
    }

    /// One search. Provider search engines need every word to match, so one OCR-garbled word finds
    /// nothing: `QueryWords.attempts` plans the retries with fewer words.
    private func search(_ attempt: QueryWords.Attempt, _ provider: BookProvider) async throws(EnrichmentError) -> [EnrichedBook] {
        switch provider {
        case .openlibrary:
            try await OpenLibraryClient(http: http).search(title: attempt.title, author: attempt.author, anyField: attempt.any,
                                                           limit: configuration.searchLimit)
        case .googlebooks:
            try await GoogleBooksClient(http: http, key: configuration.googleBooksKey)
                .search(title: attempt.title, author: attempt.author, anyField: attempt.any, limit: configuration.searchLimit)
        }
    }

    /// The same provider record seen by two attempts.
    static func sameRecord(_ a: EnrichedBook, _ b: EnrichedBook) -> Bool {
        if let x = a.work.openLibraryWorkID, x == b.work.openLibraryWorkID { return true }
        if let x = a.edition.googleBooksVolumeID, x == b.edition.googleBooksVolumeID { return true }
        return a.work.openLibraryWorkID == nil && a.edition.googleBooksVolumeID == nil && a == b
    }

    /// Scores the provider's candidates with the catalogue matcher's calibrated model, the candidates
    /// standing in for the catalogue: the same features (how much of the reading each explains, how much of
    /// its title and authors the reading shows, how clearly it beats the others) and the same threshold.
    func rank(_ books: [EnrichedBook], provider: BookProvider, against request: EnrichmentRequest) -> [EnrichmentCandidate] {
        guard !books.isEmpty else { return [] }
        let entries = books.map { CatalogEntry(title: $0.catalogueTitle, authors: $0.authors.map(\.name), isbn: $0.edition.isbn ?? "") }
        let index = CatalogIndex(Catalog(entries: entries))
        let matches = index.match(request.rankingText, top: books.count)
        return matches.map {
            EnrichmentCandidate(provider: provider, book: books[$0.entryIndex], score: $0.score, titleCoverage: $0.features.title)
        }
    }
}
