import Foundation
import Library
import LibraryCore
import ShelfImage
import ShelfScanTestSupport
import Testing

/// `shelfscan scan --reader openai|gemini` end to end: the real binary, the real HTTP client, and a local
/// server speaking the same protocols (127.0.0.1). The key comes from the environment only.
@Suite(.serialized)
struct ScanWithVisionEndpointTests {
    static func photo() throws -> (URL, String) {
        let dir = try ShelfscanProcess.temporaryDirectory("scan-vision")
        let fixture = ShelfFixture.make(width: 800, height: 450, spineCount: 5, seed: 21)
        let path = dir.appendingPathComponent("shelf.jpg").path
        try Data(fixture.image.jpegData(quality: 92)).write(to: URL(fileURLWithPath: path))
        return (dir, path)
    }

    @Test(arguments: ["openai", "gemini"])
    func readingsFromTheEndpointReachTheJSONAndTheLibrary(dialect: String) throws {
        let server = try FakeVisionServer(apiKey: "secret-test-key")
        defer { server.stop() }
        let (dir, photo) = try Self.photo()
        defer { try? FileManager.default.removeItem(at: dir) }
        let endpoint = dialect == "openai" ? server.openAIEndpoint : server.geminiEndpoint
        let keyVariable = dialect == "openai" ? "OPENAI_API_KEY" : "GEMINI_API_KEY"

        let run = try ShelfscanProcess.run(
            ["scan", photo, "--reader", dialect, "--endpoint", endpoint.absoluteString, "--model", "test-vision",
             "--dry-run", "--json"],
            environment: [keyVariable: "secret-test-key"])
        #expect(run.status == 0, "\(run.stderr)")
        let envelope = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let books = try #require((envelope["data"] as? [String: Any])?["detectedBooks"] as? [[String: Any]])
        #expect(!books.isEmpty)
        // The fake endpoint names each spine after the crop it was sent, so every title proves a real round trip.
        for book in books {
            let title = try #require((book["work"] as? [String: Any])?["title"] as? String)
            #expect(title.hasPrefix("Spine "), "\(title)")
            #expect(book["authors"] is [Any])
        }
        #expect(server.hits >= 1)
        #expect(server.calls.allSatisfy { $0.model == "test-vision" })
        #expect(!run.stdout.contains("secret-test-key") && !run.stderr.contains("secret-test-key"))
    }

    @Test func aWrongKeyLeavesSpinesUnreadButStillFiledAndNeverPrintsTheKey() async throws {
        let server = try FakeVisionServer(apiKey: "the-right-key")
        defer { server.stop() }
        let (dir, photo) = try Self.photo()
        defer { try? FileManager.default.removeItem(at: dir) }
        let library = dir.appendingPathComponent("lib/library.sqlite").path

        let run = try ShelfscanProcess.run(
            ["scan", photo, "--reader", "openai", "--endpoint", server.openAIEndpoint.absoluteString, "--model", "m",
             "--library", library],
            environment: ["OPENAI_API_KEY": "a-wrong-key-123"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("a-wrong-key-123"))
        #expect(run.stderr.contains("could not be read"), "\(run.stderr)")
        let store = try LibraryStore(path: library)
        let pending = try await store.pendingSummaries()
        #expect(!pending.isEmpty)
        #expect(pending.allSatisfy { $0.title == "Unread spine" })
        // The key is in no file of the library.
        let files = try FileManager.default.subpathsOfDirectory(atPath: dir.appendingPathComponent("lib").path)
        for file in files {
            let data = (try? Data(contentsOf: dir.appendingPathComponent("lib").appendingPathComponent(file))) ?? Data()
            #expect(data.range(of: Data("a-wrong-key-123".utf8)) == nil, "\(file)")
        }
    }
}
