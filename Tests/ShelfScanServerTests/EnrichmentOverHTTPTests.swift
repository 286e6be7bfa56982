import Foundation
import ShelfImage
import ShelfScanServer
import ShelfScanTestSupport
import Testing

/// `serve --enrich` against the local vision endpoint (readings) and the local OpenLibrary / Google Books
/// stand-in (127.0.0.1): the server's results carry the providers' books, as `scan --enrich` files them.
@Suite(.serialized)
struct EnrichmentOverHTTPTests {
    static let visionKey = "vision-test-key"

    @Test func resultsCarryTheFallbackChainsBooksAndNoKey() async throws {
        // Given a photo, the titles the vision stand-in reads from it (a dry run), and a provider stand-in
        // whose Google side wants a key and knows those books
        let dir = try ShelfscanProcess.temporaryDirectory("serve-enrich")
        defer { try? FileManager.default.removeItem(at: dir) }
        let photo = Data(try ShelfFixture.make(width: 800, height: 450, spineCount: 5, seed: 33).image.jpegData(quality: 92))
        let photoPath = dir.appendingPathComponent("shelf.jpg").path
        try photo.write(to: URL(fileURLWithPath: photoPath))
        let vision = try FakeVisionServer(apiKey: Self.visionKey)
        defer { vision.stop() }
        let reader = ["--reader", "openai", "--endpoint", vision.openAIEndpoint.absoluteString, "--model", "m"]
        let plain = try ShelfscanProcess.run(["scan", photoPath] + reader + ["--dry-run", "--json"], environment: ["OPENAI_API_KEY": Self.visionKey])
        let envelope = try #require(try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as? [String: Any])
        let titles = ((envelope["data"] as? [String: Any])?["detectedBooks"] as? [[String: Any]] ?? [])
            .compactMap { ($0["work"] as? [String: Any])?["title"] as? String }
        #expect(!titles.isEmpty)
        let googleKey = "AIza-google-secret-456"
        let provider = try FakeBookProviders(books: titles.enumerated().map { i, title in
            FakeBookProviders.Book(title: title, authors: ["Author \(i)"], isbns: [Self.isbn13(i)], year: 2000 + i)
        }, googleKey: googleKey)
        defer { provider.stop() }

        // When the server enriches with Google Books, then OpenLibrary, and the photo is scanned over v3
        let server = try ServerProcess.start(reader + ["--enrich", "googlebooks,openlibrary"], environment: [
            "OPENAI_API_KEY": Self.visionKey, "GOOGLE_BOOKS_API_KEY": googleKey,
            "SHELFSCAN_GOOGLEBOOKS_URL": provider.baseURL.absoluteString, "SHELFSCAN_OPENLIBRARY_URL": provider.baseURL.absoluteString,
            "XDG_CACHE_HOME": dir.appendingPathComponent("cache").path,
        ])
        let client = Client(server)
        defer { Task { try? await client.shutdown() } }
        let accepted = try await client.submit([photo])
        #expect(accepted.status == 202)
        let jobID = try #require(accepted.data["jobId"] as? String)
        let events = try await client.events(RoutePath.scanStream(jobID))
        #expect(events.last?.name == "completed")

        // Then every book is the provider's, in BooksTrack's words (`enrichmentStatus: success`) and ours
        let results = try await client.get(RoutePath.scanResults(jobID))
        #expect(results.status == 200)
        let books = try #require(results.data["books"] as? [[String: Any]])
        #expect(books.count == titles.count)
        for book in books {
            #expect(book["enrichmentStatus"] as? String == "success", "\(book)")
            let enrichment = try #require(book["enrichment"] as? [String: Any])
            #expect(enrichment["state"] as? String == "enriched")
            #expect(enrichment["provider"] as? String == "googlebooks")
            #expect((book["isbn"] as? String)?.count == 13)
            #expect((book["author"] as? String)?.hasPrefix("Author ") == true)
            #expect(book["reviewStatus"] as? String == "needsReview")
        }
        #expect(provider.requests.contains { $0.query["key"] == googleKey })

        // And the Google key is in no response and no log line
        #expect(!results.text.contains(googleKey))
        #expect(!events.contains { $0.data.contains(googleKey) })
        let log = server.log(atLeast: 1) { $0.contains("GET /v3/jobs/scans/\(jobID)/results 200") }
        #expect(!log.isEmpty)
        #expect(!log.contains { $0.contains(googleKey) || $0.contains(Self.visionKey) })
    }

    /// A valid ISBN-13 per book (the stand-in's search returns it as the edition's).
    static func isbn13(_ i: Int) -> String {
        let core = "978000000" + String(format: "%03d", i)
        let sum = core.compactMap(\.wholeNumberValue).enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 1 : 3) }
        return core + String((10 - sum % 10) % 10)
    }
}
