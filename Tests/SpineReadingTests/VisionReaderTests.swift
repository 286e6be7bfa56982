import Foundation
import ShelfImage
import ShelfScanTestSupport
import Testing
@testable import SpineReading

@Suite("Vision readers against the local fake endpoint")
struct VisionReaderTests {
    @Test("OpenAI: crops are batched, answers land on the right spine, usage is summed",
          arguments: [ReaderConfiguration.Kind.openai, .gemini])
    func batchedReading(kind: ReaderConfiguration.Kind) async throws {
        let server = try FakeVisionServer()
        defer { server.stop() }
        server.register(width: 40, height: 300, .init(title: "Cien años de soledad", authors: ["Gabriel García Márquez"], confidence: 0.95))
        server.register(width: 44, height: 280, .init(title: "La plaça del Diamant", authors: ["Mercè Rodoreda"], confidence: 0.8))
        let r = try reader(kind, server) { $0.batchSize = 4 }
        let crops = [crop(7, width: 40, height: 300), crop(9, width: 44, height: 280)] + (0..<8).map { crop(100 + $0, width: 30 + $0, height: 200) }
        let readings = await r.read(crops)

        #expect(readings.map(\.spineID) == crops.map(\.id))
        #expect(readings.allSatisfy { $0.isRead })
        #expect(readings[0].title == "Cien años de soledad")
        #expect(readings[0].authors == ["Gabriel García Márquez"])
        #expect(readings[0].confidence == 0.95)
        #expect(readings[1].title == "La plaça del Diamant")
        #expect(readings[5].title == "Spine 33x200")
        #expect(readings[0].promptVersion == "spine-v1")
        #expect(readings[0].model == "vision-test")
        #expect(readings[0].reader == kind.rawValue)
        // 10 crops at 4 per call: 3 calls, not 10.
        #expect(server.calls.count == 3)
        #expect(server.calls.map(\.imageSizes.count).sorted() == [2, 4, 4])
        let perCall = kind == .openai ? [120 + 85 * 4, 120 + 85 * 4, 120 + 85 * 2] : [90 + 258 * 4, 90 + 258 * 4, 90 + 258 * 2]
        #expect(readings.totalUsage?.promptTokens == perCall.reduce(0, +))
        #expect(readings.compactMap(\.usage).count == 3)
        #expect(server.calls.allSatisfy { $0.format == (kind == .openai ? "json_schema" : "schema") })
    }

    @Test("Every injected fault ends in a reading after retries", arguments: [
        // A slow reply is many times the timeout: a timer that fires late on a loaded machine still fires first.
        FakeVisionServer.Fault.rateLimited(retryAfter: 1), .serverError, .slow(seconds: 12), .prose, .dropConnection,
        .proseAroundJSON,
    ])
    func transientFaultsRecover(fault: FakeVisionServer.Fault) async throws {
        for kind in [ReaderConfiguration.Kind.openai, .gemini] {
            let server = try FakeVisionServer()
            defer { server.stop() }
            server.inject(fault)
            let r = try reader(kind, server) { $0.timeout = .milliseconds(1500) }
            let readings = await r.read([crop(1, width: 50, height: 400), crop(2, width: 52, height: 400)])
            #expect(readings.map(\.title) == ["Spine 50x400", "Spine 52x400"], "\(kind) \(fault)")
            #expect(readings.allSatisfy { $0.error == nil })
            if case .proseAroundJSON = fault {
                #expect(server.hits == 1)  // parsed tolerantly, no second call
            } else {
                #expect(server.hits == 2, "\(kind) \(fault): one failed attempt, one retry")
            }
        }
    }

    @Test("Retry-After is honoured")
    func retryAfterHonoured() async throws {
        let server = try FakeVisionServer()
        defer { server.stop() }
        server.inject(.rateLimited(retryAfter: 1))
        let r = try reader(.openai, server)
        let start = ContinuousClock.now
        let readings = await r.read([crop(1, width: 30, height: 300)])
        let waited = ContinuousClock.now - start
        #expect(readings[0].isRead)
        #expect(waited >= .milliseconds(950))  // backoff alone would be ~10 ms
    }

    @Test("Faults that outlast the retries leave unread crops with a reason, never a crash", arguments: [
        FakeVisionServer.Fault.serverError, .prose, .dropConnection, .slow(seconds: 12), .rateLimited(retryAfter: 0),
    ])
    func persistentFaults(fault: FakeVisionServer.Fault) async throws {
        let server = try FakeVisionServer()
        defer { server.stop() }
        for _ in 0..<3 { server.inject(fault) }
        let r = try reader(.openai, server) {
            $0.maxRetries = 2
            $0.timeout = .milliseconds(1200)
            $0.batchSize = 2
        }
        // First batch exhausts the faults; the second batch (queued after, concurrency 1) still reads.
        let crops = [crop(1, width: 30, height: 300), crop(2, width: 31, height: 300), crop(3, width: 32, height: 300)]
        let readings = await r.read(Array(crops[0..<2]))
        #expect(readings.allSatisfy { !$0.isRead })
        let reason = readings[0].error ?? ""
        #expect(reason.contains("after 3 attempts"), "\(reason)")
        #expect(readings[0].spineID == 1 && readings[1].spineID == 2)
        #expect(server.hits == 3)
        let later = await r.read([crops[2]])
        #expect(later[0].title == "Spine 32x300")
    }

    @Test("A runaway reply is refused at the size cap, not buffered")
    func oversizedReply() async throws {
        let server = try FakeVisionServer()
        defer { server.stop() }
        server.inject(.oversized(bytes: 3 << 20))
        let r = try reader(.openai, server) { $0.maxResponseBytes = 1 << 20 }
        let readings = await r.read([crop(1, width: 30, height: 300)])
        #expect(readings[0].error?.contains("larger than 1048576 bytes") == true, "\(readings[0].error ?? "")")
        #expect(server.hits == 1)
    }

    @Test("An endpoint that is down: unread with a hint, after the retries")
    func unreachable() async throws {
        let server = try FakeVisionServer()
        let endpoint = server.openAIEndpoint
        server.stop()
        var c = testConfiguration(.openai, server)
        c.endpoint = endpoint
        c.maxRetries = 1
        let r = try ReaderFactory.make(c, environment: ["OPENAI_API_KEY": "k"])
        let readings = await r.read([crop(1, width: 30, height: 300), crop(2, width: 31, height: 300)])
        #expect(readings.allSatisfy { $0.error?.contains("Cannot reach http://127.0.0.1:") == true }, "\(readings.map(\.error))")
    }

    @Test("A wrong key is not retried and names the problem", arguments: [ReaderConfiguration.Kind.openai, .gemini])
    func wrongKey(kind: ReaderConfiguration.Kind) async throws {
        let server = try FakeVisionServer(apiKey: "right-key")
        defer { server.stop() }
        let r = try reader(kind, server, key: "wrong-key")
        let readings = await r.read([crop(1, width: 30, height: 300)])
        #expect(readings[0].error?.contains("API key rejected") == true, "\(readings[0].error ?? "")")
        #expect(readings[0].error?.contains("wrong-key") == false)
        #expect(readings[0].error?.contains("***") == false, "the masked echo is redacted too")
        #expect(readings[0].error?.contains("wr*") == false)
        #expect(server.hits == 1)
    }

    @Test("json_schema rejected: falls back to json_object, then to a plain instruction")
    func formatFallback() async throws {
        let server = try FakeVisionServer()
        defer { server.stop() }
        server.reject(formats: ["json_schema"])
        let r = try reader(.openai, server) { $0.batchSize = 1 }
        let first = await r.read([crop(1, width: 30, height: 300)])
        #expect(first[0].title == "Spine 30x300")
        #expect(server.calls.map(\.format) == ["json_object"])
        #expect(server.hits == 2)  // the rejected attempt plus the fallback
        _ = await r.read([crop(2, width: 31, height: 300)])
        #expect(server.hits == 3, "the downgrade is remembered")

        let plain = try FakeVisionServer()
        defer { plain.stop() }
        plain.reject(formats: ["json_schema", "json_object"])
        let p = try reader(.openai, plain)
        let readings = await p.read([crop(1, width: 30, height: 300)])
        #expect(readings[0].title == "Spine 30x300")
        #expect(plain.calls.map(\.format) == ["text"])
        let body = String(decoding: plain.requests.last!.body, as: UTF8.self)
        #expect(body.contains("Reply with only a JSON object"))
    }

    @Test("Gemini: responseSchema rejected falls back to JSON mode")
    func geminiFallback() async throws {
        let server = try FakeVisionServer()
        defer { server.stop() }
        server.reject(formats: ["responseSchema"])
        let r = try reader(.gemini, server)
        let readings = await r.read([crop(1, width: 30, height: 300)])
        #expect(readings[0].title == "Spine 30x300")
        #expect(server.calls.map(\.format) == ["json"])
    }

    @Test("Malformed answers: what is valid is kept, the rest is unread with a reason")
    func malformedAnswers() async throws {
        let server = try FakeVisionServer()
        defer { server.stop() }
        server.inject(.content("""
            Here you go: {"books": [
              {"index": 0, "title": "Good Title", "authors": "Solo Author", "confidence": "0.7"},
              {"index": 1, "title": 42, "authors": []},
              {"index": 2, "title": "   ", "authors": []},
              {"index": 9, "title": "Extra", "authors": []},
              {"index": 0, "title": "Duplicate", "authors": []}
            ]} hope that helps
            """))
        let r = try reader(.openai, server)
        let readings = await r.read((0..<4).map { crop($0, width: 30 + $0, height: 300) })
        #expect(readings[0].title == "Good Title")
        #expect(readings[0].authors == ["Solo Author"])
        #expect(readings[0].confidence == 0.7)
        #expect(readings[1].error == "no answer for image 1 in the reply")  // wrong type: item dropped
        #expect(readings[2].error == "model found no title")
        #expect(readings[3].error == "no answer for image 3 in the reply")
        #expect(server.hits == 1)
    }

    @Test("A shared limiter caps calls in flight across concurrent photos")
    func concurrencyLimit() async throws {
        let server = try FakeVisionServer(latency: 0.15)
        defer { server.stop() }
        let r = try reader(.openai, server) {
            $0.batchSize = 1
            $0.concurrency = 3
        }
        async let a = r.read((0..<6).map { crop($0, width: 30 + $0, height: 300) })
        async let b = r.read((0..<6).map { crop(10 + $0, width: 60 + $0, height: 300) })
        let (ra, rb) = await (a, b)
        #expect((ra + rb).allSatisfy { $0.isRead })
        #expect(server.peakConcurrency <= 3)
        #expect(server.peakConcurrency >= 2)
        #expect(server.hits == 12)
    }

    @Test("Whole-photo mode returns every book with its box in photo pixels", arguments: [ReaderConfiguration.Kind.openai, .gemini])
    func wholePhoto(kind: ReaderConfiguration.Kind) async throws {
        let server = try FakeVisionServer()
        defer { server.stop() }
        server.registerPhoto(width: 400, height: 300, [
            .init(title: "Rayuela", authors: ["Julio Cortázar"], confidence: 0.9, box: (0.1, 0.2, 0.05, 0.5)),
            .init(title: "Ficciones", authors: ["Jorge Luis Borges"], confidence: 0.8, box: (0.5, 0.2, 0.06, 0.5)),
        ])
        var c = testConfiguration(kind, server)
        c.wholePhoto = true
        let r = try ReaderFactory.makeWholePhoto(c, environment: [kind == .openai ? "OPENAI_API_KEY" : "GEMINI_API_KEY": "test-key"])
        let photo = try await r.readPhoto(RGBImage(width: 400, height: 300))
        #expect(photo.books.map(\.title) == ["Rayuela", "Ficciones"])
        #expect(photo.books[0].box == PhotoReading.Box(x: 40, y: 60, width: 20, height: 150))
        #expect(photo.promptVersion == "photo-v1")
        #expect(photo.usage != nil)
    }
}
