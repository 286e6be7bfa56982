import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ShelfScanTestSupport
import Testing

/// The fake must refuse what the real services refuse, or the reader tests prove nothing.
@Suite("Fake vision server validates like the real services")
struct FakeServerTests {
    private func post(_ url: URL, _ body: String, headers: [String: String]) async throws -> (Int, String) {
        var r = URLRequest(url: url)
        r.httpMethod = "POST"
        r.httpBody = Data(body.utf8)
        r.setValue("application/json", forHTTPHeaderField: "Content-Type")
        for (k, v) in headers { r.setValue(v, forHTTPHeaderField: k) }
        let (data, response) = try await URLSession.shared.data(for: r)
        return ((response as! HTTPURLResponse).statusCode, String(decoding: data, as: UTF8.self))
    }

    private let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"

    @Test func openAIValidation() async throws {
        let server = try FakeVisionServer(apiKey: "k")
        defer { server.stop() }
        let url = server.openAIEndpoint.appendingPathComponent("chat/completions")
        let auth = ["Authorization": "Bearer k"]
        func message(_ url: String) -> String {
            #"{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"hi"},{"type":"image_url","image_url":{"url":"\#(url)"}}]}]}"#
        }
        #expect(try await post(url, message("data:image/png;base64,\(png)"), headers: auth).0 == 200)
        #expect(try await post(url, message("data:image/png;base64,\(png)"), headers: ["Authorization": "Bearer nope"]).0 == 401)
        #expect(try await post(url, message("data:image/png;base64,\(png)"), headers: [:]).0 == 401)
        let noModel = try await post(url, #"{"messages":[{"role":"user","content":"hi"}]}"#, headers: auth)
        #expect(noModel.0 == 400 && noModel.1.contains("model"))
        #expect(try await post(url, "{not json", headers: auth).0 == 400)
        let badImage = try await post(url, message("data:image/png;base64,AAAAAAAAAAAAAAAA"), headers: auth)
        #expect(badImage.0 == 400 && badImage.1.contains("invalid_image_format"))
        #expect(try await post(url, message("data:image/jpeg;base64,/9j/4AAQ"), headers: auth).0 == 400)  // truncated JPEG
    }

    @Test func geminiValidation() async throws {
        let server = try FakeVisionServer(apiKey: "k")
        defer { server.stop() }
        let url = URL(string: "\(server.geminiEndpoint.absoluteString)/v1beta/models/gemini-x:generateContent")!
        func body(_ data: String) -> String {
            #"{"contents":[{"role":"user","parts":[{"text":"hi"},{"inline_data":{"mime_type":"image/png","data":"\#(data)"}}]}]}"#
        }
        let ok = try await post(url, body(png), headers: ["x-goog-api-key": "k"])
        #expect(ok.0 == 200 && ok.1.contains("usageMetadata"))
        let wrong = try await post(url, body(png), headers: ["x-goog-api-key": "bad"])
        #expect(wrong.0 == 400 && wrong.1.contains("API_KEY_INVALID"))
        #expect(try await post(url, body(png), headers: [:]).0 == 403)
        #expect(try await post(url, body("!!!"), headers: ["x-goog-api-key": "k"]).0 == 400)
        #expect(try await post(url, body("AAAAAAAA"), headers: ["x-goog-api-key": "k"]).0 == 400)
        let noModel = URL(string: "\(server.geminiEndpoint.absoluteString)/v1beta/models/:generateContent")!
        #expect(try await post(noModel, body(png), headers: ["x-goog-api-key": "k"]).0 == 400)
    }
}
