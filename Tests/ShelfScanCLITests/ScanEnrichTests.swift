import BookModel
import Foundation
import Library
import LibraryCore
import ShelfImage
import ShelfScanTestSupport
import Testing

/// `shelfscan scan --enrich` and `shelfscan library enrich` end to end: the real binary, a local vision
/// endpoint for the readings, and the local OpenLibrary / Google Books stand-in (127.0.0.1) for metadata.
@Suite(.serialized)
struct ScanEnrichTests {
    static let visionKey = "vision-test-key"

    /// A photo, a vision server, and the titles that server reads from it (learnt from a plain dry run), so
    /// the provider stand-in can hold exactly those books.
    static func setUp() throws -> (dir: URL, photo: String, vision: FakeVisionServer, titles: [String]) {
        let dir = try ShelfscanProcess.temporaryDirectory("scan-enrich")
        let fixture = ShelfFixture.make(width: 800, height: 450, spineCount: 5, seed: 33)
        let photo = dir.appendingPathComponent("shelf.jpg").path
        try Data(fixture.image.jpegData(quality: 92)).write(to: URL(fileURLWithPath: photo))
        let vision = try FakeVisionServer(apiKey: visionKey)
        let plain = try ShelfscanProcess.run(scanArguments(photo, vision) + ["--dry-run", "--json"],
                                             environment: ["OPENAI_API_KEY": visionKey])
        let titles = try detected(plain.stdout).compactMap { ($0["work"] as? [String: Any])?["title"] as? String }
        return (dir, photo, vision, titles)
    }

    static func scanArguments(_ photo: String, _ vision: FakeVisionServer) -> [String] {
        ["scan", photo, "--reader", "openai", "--endpoint", vision.openAIEndpoint.absoluteString, "--model", "m"]
    }

    static func detected(_ stdout: String) throws -> [[String: Any]] {
        let envelope = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
        return try #require((envelope["data"] as? [String: Any])?["detectedBooks"] as? [[String: Any]])
    }

    /// The stand-in's books: one per title read, as "Spine WxH" by "Author H", each with an ISBN.
    static func providerBooks(_ titles: [String]) -> [FakeBookProviders.Book] {
        titles.enumerated().map { i, title in
            let height = title.split(separator: "x").last.map(String.init) ?? "0"
            let core = "978000000" + String(format: "%03d", i)
            let sum = core.compactMap(\.wholeNumberValue).enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 1 : 3) }
            return FakeBookProviders.Book(title: title, authors: ["Author \(height)"], isbns: [core + String((10 - sum % 10) % 10)],
                                          year: 1990 + i, subjects: ["Science fiction"])
        }
    }

    @Test func dryRunJSONCarriesTheProvidersBooksISBNsAndIDs() throws {
        let (dir, photo, vision, titles) = try Self.setUp()
        defer { vision.stop(); try? FileManager.default.removeItem(at: dir) }
        #expect(!titles.isEmpty)
        let provider = try FakeBookProviders(books: Self.providerBooks(titles))
        defer { provider.stop() }
        let run = try ShelfscanProcess.run(Self.scanArguments(photo, vision) + ["--dry-run", "--json", "--enrich", "openlibrary"],
                                           environment: ["OPENAI_API_KEY": Self.visionKey,
                                                         "SHELFSCAN_OPENLIBRARY_URL": provider.baseURL.absoluteString,
                                                         "XDG_CACHE_HOME": dir.appendingPathComponent("cache").path])
        #expect(run.status == 0, "\(run.stderr)")
        let books = try Self.detected(run.stdout)
        #expect(books.count == titles.count)
        for book in books {
            let status = try #require(book["enrichmentStatus"] as? [String: Any])
            #expect(status["state"] as? String == "enriched", "\(status)")
            #expect(status["provider"] as? String == "openlibrary")
            let work = try #require(book["work"] as? [String: Any])
            #expect((work["openLibraryWorkID"] as? String)?.hasPrefix("OL") == true)
            #expect(work["primaryProvider"] as? String == "openlibrary")
            #expect(work["reviewStatus"] as? String == "needsReview")
            #expect(work["subjectTags"] as? [String] == ["Science Fiction"])
            #expect(work["boundingBox"] is [String: Any])
            let edition = try #require(book["edition"] as? [String: Any])
            #expect((edition["isbns"] as? [String])?.count == 1)
            #expect((edition["openLibraryEditionID"] as? String)?.hasPrefix("OL") == true)
        }
        // The five "Spine WxH" titles make one search once digits are dropped from the search words, so a book
        // whose search starts after another's reply was cached is answered from the cache: at most one request
        // per book, at least one in all (how many depends on how the searches overlap in time).
        #expect((1...titles.count).contains(provider.requestCount), "\(provider.requestCount) requests")
        #expect(provider.requests.allSatisfy { $0.path == "/search.json" })
    }

    @Test func aFailingProviderNeverFailsTheScanAndSaysSoOnce() async throws {
        let (dir, photo, vision, titles) = try Self.setUp()
        defer { vision.stop(); try? FileManager.default.removeItem(at: dir) }
        let provider = try FakeBookProviders(books: Self.providerBooks(titles))
        defer { provider.stop() }
        for _ in 0..<200 { provider.inject(.serverError) }
        let library = dir.appendingPathComponent("lib/library.sqlite").path
        let run = try ShelfscanProcess.run(Self.scanArguments(photo, vision) + ["--library", library, "--enrich", "openlibrary"],
                                           environment: ["OPENAI_API_KEY": Self.visionKey,
                                                         "SHELFSCAN_OPENLIBRARY_URL": provider.baseURL.absoluteString,
                                                         "XDG_CACHE_HOME": dir.appendingPathComponent("cache").path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.components(separatedBy: "keeps failing").count == 2, "\(run.stderr)")
        // Every spine is filed as read; none carries a provider ID.
        let store = try LibraryStore(path: library)
        let works = try await store.works(includePending: true)
        #expect(works.count == titles.count)
        #expect(Set(works.map(\.title)) == Set(titles))
        #expect(works.allSatisfy { $0.openLibraryWorkID == nil })
        // The library says why: the provider was unavailable (failing, then paused).
        for w in works {
            let status = try #require(w.spine?.enrichmentStatus)
            #expect(status.state == .unavailable)
            #expect(["PROVIDER_ERROR", "PROVIDER_PAUSED"].contains(status.failures?.first?.code ?? ""))
        }
    }

    @Test func theGoogleKeyReachesGoogleButNoOutputLogCacheOrDatabase() async throws {
        let (dir, photo, vision, titles) = try Self.setUp()
        defer { vision.stop(); try? FileManager.default.removeItem(at: dir) }
        let secret = "AIza-google-secret-789"
        let provider = try FakeBookProviders(books: Self.providerBooks(titles), googleKey: secret)
        defer { provider.stop() }
        let library = dir.appendingPathComponent("lib/library.sqlite").path
        let cache = dir.appendingPathComponent("cache")
        let environment = ["OPENAI_API_KEY": Self.visionKey, "GOOGLE_BOOKS_API_KEY": secret,
                           "SHELFSCAN_GOOGLEBOOKS_URL": provider.baseURL.absoluteString, "XDG_CACHE_HOME": cache.path]
        let run = try ShelfscanProcess.run(Self.scanArguments(photo, vision) + ["--library", library, "--enrich", "googlebooks", "--json"],
                                           environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(provider.requests.contains { $0.query["key"] == secret })
        #expect(!run.stdout.contains(secret) && !run.stderr.contains(secret))
        let store = try LibraryStore(path: library)
        let works = try await store.works(includePending: true)
        #expect(works.contains { !$0.googleBooksVolumeIDs.isEmpty })
        #expect(works.filter { !$0.googleBooksVolumeIDs.isEmpty }.allSatisfy { $0.spine?.enrichmentStatus?.state == .enriched })
        #expect(works.allSatisfy { $0.reviewStatus == .needsReview })
        // Nothing on disk holds the key: database, its WAL, crops, cache.
        for root in [dir.appendingPathComponent("lib"), cache] {
            for case let file as String in FileManager.default.enumerator(atPath: root.path) ?? NSEnumerator() {
                let data = FileManager.default.contents(atPath: root.appendingPathComponent(file).path) ?? Data()
                #expect(data.range(of: Data(secret.utf8)) == nil, "\(file)")
            }
        }
    }

    @Test func aScannedBookAlreadyInTheLibraryIsFoundByItsProviderID() async throws {
        let (dir, photo, vision, titles) = try Self.setUp()
        defer { vision.stop(); try? FileManager.default.removeItem(at: dir) }
        let provider = try FakeBookProviders(books: Self.providerBooks(titles))
        defer { provider.stop() }
        // Given the library already holds the first book, verified, under another spelling, with its OpenLibrary ID
        let library = dir.appendingPathComponent("lib/library.sqlite").path
        var known = Work(title: "A differently spelled title", authors: ["Somebody Else"])
        known.openLibraryWorkID = FakeBookProviders.workID(0)
        let existing = try await LibraryStore(path: library).add(known)
        // When the shelf is scanned with enrichment
        let run = try ShelfscanProcess.run(Self.scanArguments(photo, vision) + ["--library", library, "--enrich", "openlibrary"],
                                           environment: ["OPENAI_API_KEY": Self.visionKey,
                                                         "SHELFSCAN_OPENLIBRARY_URL": provider.baseURL.absoluteString,
                                                         "XDG_CACHE_HOME": dir.appendingPathComponent("cache").path])
        #expect(run.status == 0, "\(run.stderr)")
        // Then the pending Work for that spine is the same Work by seed 004 rule 2 (shared ID), which the
        // review's duplicate finder reports, though title and authors differ
        let store = try LibraryStore(path: library)
        let pending = try #require(try await store.works(includePending: true).first { $0.reviewStatus == .needsReview && $0.title == titles[0] })
        let duplicates = try await store.duplicates(of: pending)
        #expect(duplicates.first?.id == existing.id)
        #expect(duplicates.first?.reason == .externalID("olw:\(FakeBookProviders.workID(0))"))
    }

    @Test func libraryEnrichCompletesFiledWorksOnceAndReportsDuplicates() async throws {
        let dir = try ShelfscanProcess.temporaryDirectory("library-enrich")
        defer { try? FileManager.default.removeItem(at: dir) }
        let provider = try FakeBookProviders(books: [
            .init(title: "The Dispossessed", authors: ["Ursula K. Le Guin"], isbns: ["9780060512750"], year: 1974),
        ])
        defer { provider.stop() }
        let library = dir.appendingPathComponent("library.sqlite").path
        let store = try LibraryStore(path: library)
        let mine = try await store.add(Work(title: "The Dispossessed", authors: ["Ursula K. Le Guin"]))
        var other = Work(title: "Dispossessed, The", authors: ["Le Guin"])
        other.editions = [Edition(isbn: "9780060512750")]
        let twin = try await store.add(other)
        let environment = ["SHELFSCAN_OPENLIBRARY_URL": provider.baseURL.absoluteString,
                           "XDG_CACHE_HOME": dir.appendingPathComponent("cache").path]

        let run = try ShelfscanProcess.run(["library", "enrich", "--library", library, "--json", "--id", String(mine.id!)],
                                           environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let line = try #require(run.stdoutLines.first)
        let envelope = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let data = try #require(envelope["data"] as? [String: Any])
        #expect((data["enrichmentStatus"] as? [String: Any])?["state"] as? String == "enriched")
        #expect(data["duplicateOf"] as? [Int64] == [twin.id!] || (data["duplicateOf"] as? [Int])?.map(Int64.init) == [twin.id!])
        let updated = try #require(try await LibraryStore(path: library).work(id: mine.id!))
        #expect(updated.openLibraryWorkID == FakeBookProviders.workID(0))
        #expect(updated.firstPublicationYear == 1974)
        #expect(updated.title == "The Dispossessed")
        #expect(updated.editions.contains { $0.hasISBN("9780060512750") })

        // Run again over the whole library: the enriched Work is skipped; the twin is enriched.
        let before = provider.requestCount
        let again = try ShelfscanProcess.run(["library", "enrich", "--library", library], environment: environment)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("#\(mine.id!)"), "\(again.stdout)")
        #expect(provider.requestCount - before <= 4)
        #expect(try await LibraryStore(path: library).work(id: twin.id!)?.openLibraryWorkID == FakeBookProviders.workID(0))
    }

    @Test func badProviderNamesAndURLsAreOneClearLine() throws {
        let bad = try ShelfscanProcess.run(["scan", "/nonexistent.jpg", "--enrich", "amazon"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--enrich openlibrary, googlebooks"), "\(bad.stderr)")
        let dir = try ShelfscanProcess.temporaryDirectory("enrich-url")
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try ShelfscanProcess.run(["library", "enrich", "--library", dir.appendingPathComponent("l.sqlite").path],
                                           environment: ["SHELFSCAN_OPENLIBRARY_URL": "ftp:/nowhere"])
        #expect(url.status == 1)
        #expect(url.stderr.contains("SHELFSCAN_OPENLIBRARY_URL"), "\(url.stderr)")
        #expect(url.stderr.split(separator: "\n").count == 1)
    }
}
