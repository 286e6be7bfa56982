import BookModel
import Enrichment
import Foundation
import Library
import LibraryCore
import ShelfScanTestSupport
import Testing
@testable import ShelfScanCLI

/// The review's `/` search asking OpenLibrary (the local stand-in on 127.0.0.1, speaking its real JSON) when
/// Enter is pressed, and a number taking the provider's book with its IDs.
@Suite struct ReviewProviderSearchTests {
    static let books = [
        FakeBookProviders.Book(title: "The Left Hand of Darkness", authors: ["Ursula K. Le Guin"], isbns: ["9780441478125"],
                               year: 1969, subjects: ["Science fiction"]),
        FakeBookProviders.Book(title: "Parable of the Sower", authors: ["Octavia E. Butler"], isbns: ["9780446675505"], year: 1993),
    ]

    static func runner(_ store: LibraryStore, openLibrary url: URL, cache: URL) async throws -> ReviewRunner {
        var r = try await ReviewRunner(store: store, session: ReviewSession(sessionName: "p"))
        let enricher = try #require(try EnrichOptions.enricher(
            providers: "openlibrary", cacheDays: 30,
            environment: ["SHELFSCAN_OPENLIBRARY_URL": url.absoluteString, "XDG_CACHE_HOME": cache.path], notify: { _ in }))
        r.searchProviders.append(ProviderSearch(enricher: enricher))
        return r
    }

    static func type(_ text: String, into r: inout ReviewRunner) async {
        for c in text { await r.send(.char(c)) }
    }

    @Test func typingStaysLocalAndEnterAsksOpenLibraryWhoseBookANumberTakes() async throws {
        let dir = try ReviewFixture.tempDir()
        let (_, store, ids) = try await ReviewFixture.make(at: dir)
        let provider = try FakeBookProviders(books: Self.books)
        defer { provider.stop() }
        var r = try await Self.runner(store, openLibrary: provider.baseURL, cache: dir.appendingPathComponent("cache"))
        await r.start()
        await r.send(.char("s"))                                   // on to the unread spine
        #expect(r.session.work?.id == ids[1])
        await r.send(.char("/"))
        await Self.type("left hand darkness", into: &r)
        #expect(provider.requestCount == 0, "a request per keystroke")
        #expect(r.session.searchHits.isEmpty)
        let screen = ReviewScreen(columns: 100, rows: 30, style: Style(color: false))
        #expect(screen.lines(r.session).contains { $0.contains("Enter asks OpenLibrary too") })

        await r.send(.enter)
        #expect(provider.requestCount > 0)
        #expect(r.session.mode == .pickingSearch)
        let hit = try #require(r.session.searchHits.first)
        #expect(hit.title == "The Left Hand of Darkness" && hit.authors == ["Ursula K. Le Guin"] && hit.source == "OpenLibrary")
        #expect(screen.lines(r.session).contains { $0.contains("1. The Left Hand of Darkness — Ursula K. Le Guin") })

        await r.send(.char("1"))
        let work = try #require(try await store.work(id: ids[1]))
        #expect(work.title == "The Left Hand of Darkness" && work.authors.map(\.name) == ["Ursula K. Le Guin"])
        #expect(work.reviewStatus == .userEdited && work.firstPublicationYear == 1969)
        #expect(work.openLibraryWorkID != nil && work.subjectTags.contains { $0.lowercased().contains("science fiction") })
        #expect(work.editions.count == 1 && work.editions.first?.primaryISBN == "9780441478125")
        #expect(work.libraryEntry != nil)

        // One decision: undo takes the provider's record back with the title.
        await r.send(.char("u"))
        let undone = try #require(try await store.work(id: ids[1]))
        #expect(undone.reviewStatus == .needsReview && undone.openLibraryWorkID == nil && undone.editions.isEmpty)
    }

    @Test func anOfflineProviderIsOneLineAndTheLibraryStillAnswers() async throws {
        let dir = try ReviewFixture.tempDir()
        let (_, store, ids) = try await ReviewFixture.make(at: dir)
        // A port that was just free: nothing listens, so the connection is refused.
        let gone = try FakeBookProviders(books: [])
        let url = gone.baseURL
        gone.stop()
        var r = try await Self.runner(store, openLibrary: url, cache: dir.appendingPathComponent("cache"))
        await r.start()
        await r.send(.char("s"))
        await r.send(.char("/"))
        await Self.type("dune", into: &r)
        #expect(r.session.searchHits.map(\.title) == ["Dune"])
        await r.send(.enter)
        #expect(r.session.message == "Cannot reach OpenLibrary.")
        #expect(r.session.searchHits.map(\.title) == ["Dune"] && r.session.mode == .pickingSearch)
        await r.send(.char("1"))
        #expect(try await store.work(id: ids[1]) == nil)              // merged into Dune, as before
        #expect(try await store.pendingCount() == 3)
    }
}
