import BookModel
import Foundation
import ShelfScanTestSupport
import Testing
@testable import Enrichment

/// The enricher against the local OpenLibrary / Google Books stand-in on 127.0.0.1, faults included.
@Suite struct EnricherTests {
    static let books: [FakeBookProviders.Book] = [
        .init(title: "The Left Hand of Darkness", authors: ["Ursula K. Le Guin"], isbns: ["0-441-47812-3", "9780441478125"],
              year: 1969, subjects: ["Science fiction", "Gender"], publisher: "Ace", pages: 304, editionCount: 120),
        .init(title: "The Dispossessed", subtitle: "an ambiguous utopia", authors: ["Ursula K. Le Guin"], isbns: ["9780060512750"], year: 1974),
        .init(title: "Cien años de soledad", authors: ["Gabriel García Márquez"], isbns: ["9788497592208"], year: 1967,
              subjects: ["Fiction"], language: "spa"),
        .init(title: "Anonymous annals of the abbey", authors: [], isbns: [], year: 1200),
        .init(title: "三体", authors: ["刘慈欣"], isbns: ["9787536692930"], year: 2006, language: "chi"),
        .init(title: "Orphaned edition of sermons", authors: ["John Donne"], isbns: ["9780140424409"], linkedToWork: false),
        .init(title: "Darkness at Noon", authors: ["Arthur Koestler"], isbns: ["9781416540267"], year: 1940),
    ]

    /// Fast retries for tests: the delays are what is tested, not their length.
    static func configuration(_ providers: [BookProvider], server: FakeBookProviders, cache: URL? = nil) -> EnrichmentConfiguration {
        var c = EnrichmentConfiguration(providers: providers)
        for p in BookProvider.allCases { c.baseURLs[p] = server.baseURL }
        c.backoffBase = 0.01
        // Far beyond any reply here, so a starved test process on a busy machine never times a request out and
        // retries it; the test of slow replies sets its own.
        c.timeout = 60
        c.cacheDirectory = cache
        return c
    }

    @Test func noisyReadingIsEnrichedFromOpenLibrary() async throws {
        let server = try FakeBookProviders(books: Self.books)
        defer { server.stop() }
        let enricher = Enricher(configuration: Self.configuration([.openlibrary], server: server))
        // Given an OCR reading with a garbled word and a publisher on the spine
        let result = await enricher.enrich(EnrichmentRequest(rawText: "THE LEFT HAND OF DARKNFSS  URSULA K. LE GUIN  ACE"))
        // Then the fewer-words retry finds the Work and the calibrated ranker accepts it
        #expect(result.status.state == .enriched)
        let book = try #require(result.accepted?.book)
        #expect(book.work.title == "The Left Hand of Darkness")
        #expect(book.work.openLibraryWorkID == FakeBookProviders.workID(0))
        #expect(book.work.firstPublicationYear == 1969)
        #expect(book.work.subjectTags == ["Science Fiction"])
        #expect(book.edition.isbns.contains("9780441478125"))
        // 120 editions: a bounded list, ISBN-13s first.
        #expect(book.edition.isbns.count == 20)
        #expect(book.editionCount == 120)
        #expect(book.edition.openLibraryEditionID == FakeBookProviders.editionID(0))
        #expect(book.authors.first?.name == "Ursula K. Le Guin")
        #expect(result.status.provider == "openlibrary")
        #expect((result.status.score ?? 0) >= enricher.acceptThreshold)
        // Every search asked for the fields that carry ISBNs and IDs.
        #expect(server.requests.allSatisfy { $0.query["fields"]?.contains("isbn") == true })
        #expect(result.status.requests == server.requestCount)
    }

    @Test func titleAndAuthorSplitUsesTitleAndAuthorParameters() async throws {
        let server = try FakeBookProviders(books: Self.books)
        defer { server.stop() }
        let enricher = Enricher(configuration: Self.configuration([.openlibrary], server: server))
        let result = await enricher.enrich(EnrichmentRequest(rawText: "Cien años de soledad García Márquez",
                                                             title: "Cien años de soledad", authors: ["García Márquez"]))
        #expect(result.status.state == .enriched)
        #expect(result.accepted?.book.work.title == "Cien años de soledad")
        let first = try #require(server.requests.first)
        #expect(first.query["title"] == "cien anos soledad")
        #expect(first.query["author"] == "garcia marquez")
        #expect(server.requestCount == 1)
    }

    @Test func nonLatinTitleAndNoAuthorRecordsAreFound() async throws {
        let server = try FakeBookProviders(books: Self.books)
        defer { server.stop() }
        let enricher = Enricher(configuration: Self.configuration([.openlibrary], server: server))
        let cjk = await enricher.enrich(EnrichmentRequest(rawText: "三体 刘慈欣"))
        #expect(cjk.accepted?.book.work.title == "三体")
        #expect(cjk.accepted?.book.edition.isbn == "9787536692930")
        let anonymous = await enricher.enrich(EnrichmentRequest(rawText: "ANONYMOUS ANNALS OF THE ABBEY"))
        #expect(anonymous.accepted?.book.work.title == "Anonymous annals of the abbey")
        #expect(anonymous.accepted?.book.authors == [])
        #expect(anonymous.accepted?.book.edition.isbns == [])
    }

    @Test func isbnLookupFollowsTheRedirectThenReadsWorkAndAuthors() async throws {
        let server = try FakeBookProviders(books: Self.books)
        defer { server.stop() }
        let enricher = Enricher(configuration: Self.configuration([.openlibrary], server: server))
        let result = await enricher.enrich(EnrichmentRequest(rawText: "garbled", isbn: "978-0-06-051275-0"))
        #expect(result.status.state == .enriched)
        #expect(result.status.score == 1)
        let book = try #require(result.accepted?.book)
        #expect(book.work.title == "The Dispossessed")
        #expect(book.work.openLibraryWorkID == FakeBookProviders.workID(1))
        #expect(book.subtitle == "an ambiguous utopia")
        #expect(book.authors.first?.name == "Ursula K. Le Guin")
        #expect(book.authors.first?.birthYear == 1950)
        #expect(server.requests.map(\.path) == ["/isbn/9780060512750.json", "/books/\(FakeBookProviders.editionID(1)).json",
                                                "/works/\(FakeBookProviders.workID(1)).json", "/authors/OL100A.json"])
        // An edition OpenLibrary links to no Work: a synthetic Work (seed 004 rule 1).
        let orphan = await enricher.enrich(EnrichmentRequest(isbn: "9780140424409"))
        #expect(orphan.accepted?.book.work.synthetic == true)
        #expect(orphan.accepted?.book.work.title == "Orphaned edition of sermons")
    }

    @Test func googleBooksSearchAndISBN() async throws {
        let server = try FakeBookProviders(books: Self.books)
        defer { server.stop() }
        let enricher = Enricher(configuration: Self.configuration([.googlebooks], server: server))
        let result = await enricher.enrich(EnrichmentRequest(title: "Darkness at Noon", authors: ["Arthur Koestler"]))
        #expect(result.status.state == .enriched)
        let book = try #require(result.accepted?.book)
        #expect(book.work.synthetic == true)
        #expect(book.work.primaryProvider == "google")
        #expect(book.edition.googleBooksVolumeID == FakeBookProviders.googleID(6))
        #expect(server.requests.first?.query["q"] == "intitle:darkness intitle:noon inauthor:arthur inauthor:koestler")
        let byISBN = await enricher.enrich(EnrichmentRequest(isbn: "9788497592208"))
        #expect(byISBN.accepted?.book.work.title == "Cien años de soledad")
        #expect(server.requests.last?.query["q"] == "isbn:9788497592208")
        // Nothing found: Google's reply has no `items`.
        let none = await enricher.enrich(EnrichmentRequest(title: "Zzyzx quorble", authors: []))
        #expect(none.status.state == .notFound)
    }

    @Test func unsureMatchesStayCandidates() async throws {
        let server = try FakeBookProviders(books: Self.books)
        defer { server.stop() }
        // A threshold no candidate of an ambiguous one-word reading reaches.
        let enricher = Enricher(configuration: Self.configuration([.openlibrary], server: server), acceptThreshold: 0.99)
        // "darkness" alone matches two Works: neither is sure enough to apply; both are kept, best first.
        let result = await enricher.enrich(EnrichmentRequest(rawText: "DARKNESS"))
        #expect(result.status.state == .candidatesOnly)
        #expect(result.accepted == nil)
        #expect(Set(result.candidates.map(\.book.work.title)) == ["The Left Hand of Darkness", "Darkness at Noon"])
        #expect(result.candidates.allSatisfy { $0.score < enricher.acceptThreshold })
        #expect(result.candidates.map(\.score) == result.candidates.map(\.score).sorted(by: >))
        #expect(result.status.score == result.candidates.first.map { ($0.score * 10_000).rounded() / 10_000 })
    }

    @Test func aLoneCandidateThatOnlySharesTheAuthorIsNotApplied() async throws {
        // Given a provider that knows another book by one of the spine's authors, and not the spine's book
        let server = try FakeBookProviders(books: [
            .init(title: "Mentes criminales", authors: ["Francisco Pérez Fernández"], isbns: ["9788499672298"]),
        ])
        defer { server.stop() }
        let enricher = Enricher(configuration: Self.configuration([.openlibrary], server: server))
        // When the reading's words find only that book (by the author's names)
        let result = await enricher.enrich(EnrichmentRequest(rawText: "La ciencia en la sombra J M. Mulet Francisco Perez Fernandez 343.9 Mul"))
        // Then it wins the calibrated score by default, but the spine shows none of its title: kept, not applied
        let only = try #require(result.candidates.first)
        #expect(only.book.work.title == "Mentes criminales")
        #expect(only.score >= enricher.acceptThreshold)
        #expect(only.titleCoverage < enricher.configuration.minTitleCoverage)
        #expect(result.status.state == .candidatesOnly)
        #expect(result.accepted == nil)
    }

    @Test func requestsInFlightStayWithinTheConcurrencyLimit() async throws {
        let server = try FakeBookProviders(books: Self.books)
        defer { server.stop() }
        server.setLatency(0.1)
        var configuration = Self.configuration([.openlibrary], server: server)
        configuration.concurrency = 2
        let enricher = Enricher(configuration: configuration)
        let titles = ["The Dispossessed", "Darkness at Noon", "Cien años de soledad", "The Left Hand of Darkness"]
        // Twelve books at once, as a scan of a full shelf asks.
        let states = await withTaskGroup(of: EnrichmentStatus.State.self) { group in
            for i in 0..<12 { group.addTask { await enricher.enrich(EnrichmentRequest(title: titles[i % 4])).status.state } }
            return await group.reduce(into: [EnrichmentStatus.State]()) { $0.append($1) }
        }
        #expect(states.count == 12 && states.allSatisfy { $0 == .enriched })
        #expect(server.peakConcurrency == 2)
        #expect(server.requestCount == 12)
    }

    @Test func rateLimitHonoursRetryAfter() async throws {
        let server = try FakeBookProviders(books: Self.books)
        defer { server.stop() }
        server.inject(.rateLimited(retryAfter: 1))
        let enricher = Enricher(configuration: Self.configuration([.openlibrary], server: server))
        let clock = ContinuousClock()
        let start = clock.now
        let result = await enricher.enrich(EnrichmentRequest(title: "The Dispossessed", authors: ["Le Guin"]))
        let waited = clock.now - start
        #expect(result.status.state == .enriched)
        #expect(waited >= .seconds(1))
        #expect(server.requestCount == 2)
        #expect(enricher.stats.retries == 1)
    }

    @Test func aRetryAfterLongerThanTheLimitIsNotWaitedFor() async throws {
        let server = try FakeBookProviders(books: Self.books)
        defer { server.stop() }
        server.inject(.rateLimited(retryAfter: 3600))
        let enricher = Enricher(configuration: Self.configuration([.openlibrary], server: server))
        let result = await enricher.enrich(EnrichmentRequest(title: "The Dispossessed"))
        // An hour's wait would stall the scan: no retry is scheduled, the book stays as read and says it was
        // rate limited. (The test would not finish if the hour were waited.)
        #expect(enricher.stats.retries == 0)
        #expect(result.status.state == .unavailable)
        #expect(result.status.failures == [EnrichmentStatus.Failure(provider: "openlibrary", code: "PROVIDER_RATE_LIMITED")])
        #expect(server.requestCount == 1)
    }

    @Test func serverErrorsTruncatedJSONAndSlowRepliesAreRetried() async throws {
        let server = try FakeBookProviders(books: Self.books)
        defer { server.stop() }
        server.inject(.serverError, .truncated, .slow(seconds: 10))  // ten times the timeout: still slow on a loaded machine
        var configuration = Self.configuration([.openlibrary], server: server)
        configuration.timeout = 1
        let enricher = Enricher(configuration: configuration)
        let result = await enricher.enrich(EnrichmentRequest(title: "The Dispossessed", authors: ["Le Guin"]))
        #expect(result.status.state == .enriched)
        #expect(result.accepted?.book.work.title == "The Dispossessed")
        #expect(server.requestCount == 4)
        #expect(enricher.stats.retries == 3)
    }

    @Test func failingProviderOpensTheCircuitAndSaysSoOnce() async throws {
        let server = try FakeBookProviders(books: Self.books)
        defer { server.stop() }
        for _ in 0..<40 { server.inject(.serverError) }
        var configuration = Self.configuration([.openlibrary], server: server)
        configuration.maxRetries = 1
        configuration.circuitFailureThreshold = 2
        let notices = NoticeLog()
        let enricher = Enricher(configuration: configuration, notify: { notices.append($0) })
        var states: [EnrichmentStatus] = []
        for _ in 0..<5 { states.append(await enricher.enrich(EnrichmentRequest(title: "The Dispossessed")).status) }
        // The book stays as read and says why; after two failed books the provider is not called at all.
        #expect(states.allSatisfy { $0.state == .unavailable })
        #expect(states[0].failures == [EnrichmentStatus.Failure(provider: "openlibrary", code: "PROVIDER_ERROR")])
        #expect(states[4].failures == [EnrichmentStatus.Failure(provider: "openlibrary", code: "PROVIDER_PAUSED")])
        #expect(server.requestCount == 4)
        #expect(states[4].requests == 0)
        #expect(notices.lines.count == 1)
        #expect(notices.lines.first?.contains("OpenLibrary") == true)
    }

    @Test func offlineProviderFallsBackToTheNextInTheChain() async throws {
        let server = try FakeBookProviders(books: Self.books)
        defer { server.stop() }
        let dead = try FakeBookProviders(books: [])
        let deadURL = dead.baseURL
        dead.stop()
        var configuration = Self.configuration([.openlibrary, .googlebooks], server: server)
        configuration.baseURLs[.openlibrary] = deadURL
        let enricher = Enricher(configuration: configuration)
        let result = await enricher.enrich(EnrichmentRequest(title: "Darkness at Noon", authors: ["Koestler"]))
        #expect(result.status.state == .enriched)
        #expect(result.status.provider == "googlebooks")
        #expect(result.status.failures == [EnrichmentStatus.Failure(provider: "openlibrary", code: "PROVIDER_UNREACHABLE")])
    }

    @Test func cacheServesRepeatsAndRespectsMaxAge() async throws {
        let server = try FakeBookProviders(books: Self.books)
        defer { server.stop() }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("enrich-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let request = EnrichmentRequest(title: "The Dispossessed", authors: ["Le Guin"])
        let first = await Enricher(configuration: Self.configuration([.openlibrary], server: server, cache: dir)).enrich(request)
        let again = Enricher(configuration: Self.configuration([.openlibrary], server: server, cache: dir))
        let second = await again.enrich(request)
        #expect(first.accepted == second.accepted)
        #expect(server.requestCount == 1)
        #expect(second.status.requests == 0)
        #expect(again.stats.cacheHits == 1)
        var stale = Self.configuration([.openlibrary], server: server, cache: dir)
        stale.cacheMaxAge = 0
        _ = await Enricher(configuration: stale).enrich(request)
        #expect(server.requestCount == 2)
    }

    @Test func googleKeyIsSentButNeverCachedOrReported() async throws {
        let secret = "AIzaTEST-secret-key-123"
        let server = try FakeBookProviders(books: Self.books, googleKey: secret)
        defer { server.stop() }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("enrich-key-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        var configuration = Self.configuration([.googlebooks], server: server, cache: dir)
        configuration.googleBooksKey = ProviderKey(secret)
        let notices = NoticeLog()
        let enricher = Enricher(configuration: configuration, notify: { notices.append($0) })
        let result = await enricher.enrich(EnrichmentRequest(title: "Darkness at Noon"))
        #expect(result.status.state == .enriched)
        #expect(server.requests.first?.query["key"] == secret)
        // Not in the result, the status JSON, the cache files or the key's own descriptions.
        let json = String(decoding: try JSONEncoder().encode(result.status), as: UTF8.self)
            + String(decoding: try JSONEncoder().encode(result.candidates), as: UTF8.self)
        #expect(!json.contains(secret))
        #expect("\(configuration.googleBooksKey!)" == "ProviderKey(redacted)")
        #expect(!String(reflecting: configuration).contains(secret))
        let files = (FileManager.default.enumerator(atPath: dir.path)?.allObjects.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".json") }
        #expect(!files.isEmpty)
        for f in files {
            let data = FileManager.default.contents(atPath: dir.appendingPathComponent(f).path) ?? Data()
            #expect(!String(decoding: data, as: UTF8.self).contains(secret))
        }
        // A wrong key: Google's 400 is reported by code, without the URL.
        var wrong = Self.configuration([.googlebooks], server: server)
        wrong.googleBooksKey = ProviderKey("wrong-key-456")
        let refused = await Enricher(configuration: wrong).enrich(EnrichmentRequest(title: "Darkness at Noon"))
        #expect(refused.status.state == .unavailable)
        #expect(refused.status.failures?.first?.code == "PROVIDER_ERROR")
        #expect(!"\(refused)".contains("wrong-key-456"))
        #expect(notices.lines.allSatisfy { !$0.contains(secret) })
    }

    @Test func searchForReviewAsksEveryProvider() async throws {
        let server = try FakeBookProviders(books: Self.books)
        defer { server.stop() }
        let enricher = Enricher(configuration: Self.configuration([.openlibrary, .googlebooks], server: server))
        let found = await enricher.search("le guin dispossessed")
        #expect(found.failures.isEmpty)
        #expect(Set(found.candidates.map(\.provider)) == [.openlibrary, .googlebooks])
        #expect(found.candidates.first?.book.work.title == "The Dispossessed")
        let byISBN = await enricher.search("978-0-441-47812-5")
        #expect(byISBN.candidates.map(\.book.work.title) == ["The Left Hand of Darkness", "The Left Hand of Darkness"])
    }

    @Test func enrichedWorkIsRecognisedAsOneAlreadyInTheLibrary() async throws {
        let server = try FakeBookProviders(books: Self.books)
        defer { server.stop() }
        let enricher = Enricher(configuration: Self.configuration([.openlibrary], server: server))
        let book = try #require(await enricher.enrich(EnrichmentRequest(title: "The Dispossessed", authors: ["Le Guin"])).accepted?.book)
        // Same ISBN, different title spelling: seed 004 rule 2 matches by ISBN.
        var filed = Work(title: "Dispossessed (The)", authors: ["U. K. LeGuin"])
        filed.editions = [Edition(isbn: "9780060512750")]
        #expect(DuplicateRule.match(book.libraryWork, filed) == .isbn("9780060512750"))
        // Same title and author, no shared ID: >= 0.90 similar.
        let similar = Work(title: "The Dispossessed", authors: ["Ursula K. Le Guin"])
        if case .similarTitleAndAuthor(let s)? = DuplicateRule.match(book.libraryWork, similar) { #expect(s >= 0.9) } else {
            Issue.record("expected a fuzzy match")
        }
        // Applying the enrichment to a pending scanned Work keeps its review state and provenance.
        var scanned = Work(title: "DISPOSESSED", authors: ["LE GUIN"], reviewStatus: .needsReview)
        scanned.primaryProvider = "tesseract"
        scanned.originalImagePath = "/photos/shelf.jpg"
        scanned.applyEnrichment(book.record)
        #expect(scanned.title == "The Dispossessed")
        #expect(scanned.authors.map(\.name) == ["Ursula K. Le Guin"])
        #expect(scanned.reviewStatus == .needsReview)
        #expect(scanned.originalImagePath == "/photos/shelf.jpg")
        #expect(scanned.openLibraryWorkID == FakeBookProviders.workID(1))
        #expect(scanned.primaryProvider == "openlibrary")
        #expect(scanned.contributors == ["tesseract", "openlibrary"])
        #expect(scanned.editions.first?.isbns.contains("9780060512750") == true)
        #expect(scanned.validationIssues().isEmpty)
    }
}

/// Lines the enricher announced, collected across tasks.
final class NoticeLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ line: String) { lock.withLock { stored.append(line) } }
    var lines: [String] { lock.withLock { stored } }
}
