import Foundation
import ShelfImage
import ShelfScanTestSupport
import Testing
@testable import SpineReading

@Suite("Response cache and API keys")
struct CacheAndKeyTests {
    @Test("Same photo twice costs no second call; a new model or prompt version is a miss")
    func cacheHits() async throws {
        let server = try FakeVisionServer(apiKey: "sk-secret-123")
        defer { server.stop() }
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let crops = (0..<5).map { crop($0, width: 30 + $0, height: 300) }
        let first = try reader(.openai, server, key: "sk-secret-123") { $0.cacheDirectory = dir }
        let a = await first.read(crops)
        #expect(a.allSatisfy { $0.isRead })
        #expect(server.hits == 1)
        #expect(a.totalUsage != nil)

        // A new reader (a second scan) with the same settings: all hits.
        let second = try reader(.openai, server, key: "sk-secret-123") { $0.cacheDirectory = dir }
        let renumbered = crops.map { SpineCrop(id: $0.id + 50, image: $0.image) }
        let b = await second.read(renumbered)
        #expect(server.hits == 1)
        #expect(b.map(\.title) == a.map(\.title))
        #expect(b.map(\.spineID) == renumbered.map(\.id))
        #expect(b.totalUsage == nil, "cached readings cost nothing")

        let otherModel = try reader(.openai, server, key: "sk-secret-123") {
            $0.cacheDirectory = dir
            $0.model = "other-model"
        }
        _ = await otherModel.read(crops)
        #expect(server.hits == 2)

        // The key is in no cache file.
        let files = try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
        #expect(files.count == 10)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(!text.contains("sk-secret-123"))
            #expect(text.contains("\"promptVersion\""))
        }
    }

    @Test("Unread crops are not cached, so they are retried next time")
    func failuresNotCached() async throws {
        let server = try FakeVisionServer()
        defer { server.stop() }
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        server.inject(.serverError)
        let r = try reader(.openai, server) {
            $0.cacheDirectory = dir
            $0.maxRetries = 0
        }
        let c = [crop(1, width: 30, height: 300)]
        #expect(await r.read(c)[0].isRead == false)
        #expect(await r.read(c)[0].isRead)
        #expect(server.hits == 2)
    }

    @Test("Key resolution: kind variable, then SHELFSCAN_API_KEY, then the config file")
    func keyResolution() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("shelfscan/config.json")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"gemini_api_key": "from-file", "api_key": "generic"}"#.utf8).write(to: config)
        let base = ["XDG_CONFIG_HOME": dir.path]
        #expect(APIKeyResolver.resolve(for: .openai, environment: base.merging(["OPENAI_API_KEY": "o", "SHELFSCAN_API_KEY": "s"]) { a, _ in a }) == APIKey("o"))
        #expect(APIKeyResolver.resolve(for: .openai, environment: base.merging(["SHELFSCAN_API_KEY": "s"]) { a, _ in a }) == APIKey("s"))
        #expect(APIKeyResolver.resolve(for: .gemini, environment: base) == APIKey("from-file"))
        #expect(APIKeyResolver.resolve(for: .openai, environment: base) == APIKey("generic"))
        #expect(APIKeyResolver.resolve(for: .openai, environment: ["XDG_CONFIG_HOME": "/nonexistent"]) == nil)
        let key = APIKey("sk-visible?")!
        #expect("\(key)" == "APIKey(redacted)")
        var dumped = ""
        dump(key, to: &dumped)
        #expect(!dumped.contains("sk-visible"))
    }

    @Test("The public endpoints need a key: one clear error naming the variable")
    func missingKey() {
        #expect {
            _ = try ReaderFactory.make(ReaderConfiguration(kind: .openai), environment: ["XDG_CONFIG_HOME": "/nonexistent"])
        } throws: { error in
            "\(error)".contains("OPENAI_API_KEY")
        }
    }

    @Test("The key travels only in its header, never in the body or URL")
    func keyOnlyInHeader() async throws {
        let server = try FakeVisionServer(apiKey: "sk-hidden-777")
        defer { server.stop() }
        for kind in [ReaderConfiguration.Kind.openai, .gemini] {
            let r = try reader(kind, server, key: "sk-hidden-777")
            _ = await r.read([crop(1, width: 30, height: 300)])
        }
        #expect(server.requests.count == 2)
        for request in server.requests {
            #expect(!String(decoding: request.body, as: UTF8.self).contains("sk-hidden-777"))
            #expect(!request.path.contains("sk-hidden") && request.query.isEmpty)
        }
        #expect(server.requests[0].headers["authorization"] == "Bearer sk-hidden-777")
        #expect(server.requests[1].headers["x-goog-api-key"] == "sk-hidden-777")
    }
}
