import Foundation
import ShelfImage

/// A local stand-in for OpenAI chat-completions and Gemini generateContent, for testing the real reader
/// code end to end. It validates requests as the real services do (key, model, JSON body, image parts that
/// decode), "reads" each image deterministically (an answer registered for its pixel size, or one derived
/// from that size), reports token usage, and injects faults on demand.
public final class FakeVisionServer: @unchecked Sendable {
    public struct Book: Sendable, Equatable {
        public var title: String
        public var authors: [String]
        public var confidence: Double
        /// Fractions 0...1 of the photo, whole-photo answers only.
        public var box: (x: Double, y: Double, width: Double, height: Double)?

        public init(title: String, authors: [String] = [], confidence: Double = 0.9,
                    box: (x: Double, y: Double, width: Double, height: Double)? = nil) {
            self.title = title; self.authors = authors; self.confidence = confidence; self.box = box
        }

        public static func == (a: Book, b: Book) -> Bool {
            a.title == b.title && a.authors == b.authors && a.confidence == b.confidence
        }
    }

    /// One injected fault, consumed by the next valid request (FIFO).
    public enum Fault: Sendable {
        /// 429 with `Retry-After: seconds`.
        case rateLimited(retryAfter: Int)
        /// 500 with a service-style error body.
        case serverError
        /// Wait this long, then answer normally (use a value beyond the client's timeout).
        case slow(seconds: Double)
        /// A 200 whose model text is prose with no JSON in it.
        case prose
        /// A 200 whose model text wraps the normal JSON answer in prose and a code fence.
        case proseAroundJSON
        /// A 200 whose model text is exactly this string (missing indices, wrong types, ...).
        case content(String)
        /// Read the request, then close the connection without replying.
        case dropConnection
        /// A 200 whose body is this many bytes of padding: a runaway reply.
        case oversized(bytes: Int)
    }

    public enum Dialect: String, Sendable { case openai, gemini }

    public struct Call: Sendable {
        public var dialect: Dialect
        public var model: String
        public var imageSizes: [(width: Int, height: Int)]
        /// `response_format.type` (openai) or `schema`/`json`/`plain` (gemini).
        public var format: String
        public var status: Int
    }

    private let server: LoopbackHTTPServer
    private let state = State()

    /// Every request must carry this key (`Authorization: Bearer`, or `x-goog-api-key`); nil accepts any.
    public init(apiKey: String? = "test-key", latency: Double = 0) throws {
        let state = self.state
        state.apiKey = apiKey
        state.latency = latency
        server = try LoopbackHTTPServer { request in state.handle(request) }
    }

    public func stop() { server.stop() }

    /// `http://127.0.0.1:PORT/v1`, the OpenAI-style base URL.
    public var openAIEndpoint: URL { server.baseURL.appendingPathComponent("v1") }
    /// `http://127.0.0.1:PORT`, the Gemini-style base URL.
    public var geminiEndpoint: URL { server.baseURL }
    public var port: Int { server.port }

    /// Answer `book` for every image of this pixel size.
    public func register(width: Int, height: Int, _ book: Book) {
        state.locked { $0.answers[Size(width, height)] = [book] }
    }

    /// Answer these books (with boxes) for a whole photo of this size.
    public func registerPhoto(width: Int, height: Int, _ books: [Book]) {
        state.locked { $0.answers[Size(width, height)] = books; $0.photos.insert(Size(width, height)) }
    }

    public func inject(_ faults: Fault...) {
        state.locked { $0.faults.append(contentsOf: faults) }
    }

    /// Output formats this server rejects with 400, as older or local servers do: `json_schema`,
    /// `json_object` (openai) or `responseSchema`, `responseMimeType` (gemini).
    public func reject(formats: Set<String>) {
        state.locked { $0.rejectedFormats = formats }
    }

    public func setLatency(_ seconds: Double) { state.locked { $0.latency = seconds } }

    /// Every request that reached the server, valid or not.
    public var hits: Int { state.locked { $0.hits } }
    /// The requests that passed validation, in arrival order.
    public var calls: [Call] { state.locked { $0.calls } }
    /// Raw bodies and headers of every request, to check what the client sent.
    public var requests: [HTTPRequestRecord] { state.locked { $0.requests } }
    /// The most requests this server was handling at the same moment.
    public var peakConcurrency: Int { state.locked { $0.peak } }

    // MARK: Handling

    struct Size: Hashable {
        var w: Int, h: Int
        init(_ w: Int, _ h: Int) { self.w = w; self.h = h }
    }

    private final class State: @unchecked Sendable {
        let lock = NSLock()
        var apiKey: String?
        var latency: Double = 0
        var answers: [Size: [Book]] = [:]
        var photos: Set<Size> = []
        var faults: [Fault] = []
        var rejectedFormats: Set<String> = []
        var hits = 0
        var calls: [Call] = []
        var requests: [HTTPRequestRecord] = []
        var inFlight = 0
        var peak = 0

        func locked<T>(_ body: (State) -> T) -> T { lock.withLock { body(self) } }

        func handle(_ request: HTTPRequestRecord) -> HTTPServerAction {
            locked { s in
                s.hits += 1
                s.requests.append(request)
                s.inFlight += 1
                s.peak = max(s.peak, s.inFlight)
            }
            defer { locked { $0.inFlight -= 1 } }
            let result: Outcome
            if request.method == "POST", request.path.hasSuffix("/chat/completions") {
                result = openAI(request)
            } else if request.method == "POST", request.path.contains("/v1beta/models/"), request.path.hasSuffix(":generateContent") {
                result = gemini(request)
            } else {
                return json(404, ["error": ["message": "Unknown route \(request.method) \(request.path)", "code": 404]])
            }
            switch result {
            case .reject(let action): return action
            case .accept(let call, let books, let photo, let render):
                let fault: Fault? = locked { $0.faults.isEmpty ? nil : $0.faults.removeFirst() }
                let delay = locked { $0.latency }
                if delay > 0 { Thread.sleep(forTimeInterval: delay) }
                var content = answerJSON(books, photo: photo)
                var status = 200
                var action: HTTPServerAction?
                switch fault {
                case .rateLimited(let seconds)?:
                    status = 429
                    action = errorReply(call.dialect, 429, "Rate limit reached for requests", headers: ["Retry-After": String(seconds)])
                case .serverError?:
                    status = 500
                    action = errorReply(call.dialect, 500, "The server had an error while processing your request.")
                case .slow(let seconds)?:
                    Thread.sleep(forTimeInterval: seconds)
                case .prose?:
                    content = "I'm sorry, but I can't make out the titles on these spines clearly."
                case .proseAroundJSON?:
                    content = "Sure! Here is what I can read:\n```json\n\(content)\n```\nLet me know if you need anything else."
                case .content(let text)?:
                    content = text
                case .dropConnection?:
                    status = 0
                    action = .drop
                case .oversized(let bytes)?:
                    action = .respond(status: 200, headers: ["Content-Type": "application/json"], body: Data(repeating: 0x20, count: bytes))
                case nil:
                    break
                }
                var recorded = call
                recorded.status = status
                locked { $0.calls.append(recorded) }
                return action ?? render(content)
            }
        }

        enum Outcome {
            case reject(HTTPServerAction)
            case accept(Call, [Book], photo: Bool, render: @Sendable (String) -> HTTPServerAction)
        }

        // MARK: OpenAI

        private func openAI(_ request: HTTPRequestRecord) -> Outcome {
            let key = locked { $0.apiKey }
            if let key, request.headers["authorization"] != "Bearer \(key)" {
                let sent = request.headers["authorization"].map { String($0.dropFirst("Bearer ".count)) }
                // Like the real service: the rejected key is echoed, masked in the middle.
                let masked = sent.map { $0.count > 6 ? "\($0.prefix(2))\(String(repeating: "*", count: $0.count - 4))\($0.suffix(2))" : "***" }
                return .reject(json(401, ["error": [
                    "message": masked.map { "Incorrect API key provided: \($0). You can find your API key at https://platform.openai.com/account/api-keys." }
                        ?? "You didn't provide an API key.",
                    "type": "invalid_request_error", "code": "invalid_api_key"]]))
            }
            guard let body = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any] else {
                return .reject(openAIError(400, "We could not parse the JSON body of your request."))
            }
            guard let model = body["model"] as? String, !model.isEmpty else {
                return .reject(openAIError(400, "you must provide a model parameter"))
            }
            guard let messages = body["messages"] as? [[String: Any]], !messages.isEmpty else {
                return .reject(openAIError(400, "'messages' is a required property"))
            }
            var format = "text"
            if let rf = body["response_format"] as? [String: Any], let type = rf["type"] as? String {
                format = type
                if locked({ $0.rejectedFormats.contains(type) }) {
                    return .reject(openAIError(400, "Invalid parameter: 'response_format' of type '\(type)' is not supported with this model."))
                }
                if type == "json_schema", (rf["json_schema"] as? [String: Any])?["schema"] == nil {
                    return .reject(openAIError(400, "Missing required parameter: 'response_format.json_schema.schema'."))
                }
            }
            var sizes: [Size] = []
            for message in messages {
                guard let parts = message["content"] as? [[String: Any]] else { continue }
                for part in parts where part["type"] as? String == "image_url" {
                    guard let url = (part["image_url"] as? [String: Any])?["url"] as? String,
                        let size = decodeDataURL(url)
                    else {
                        return .reject(json(400, ["error": [
                            "message": "You uploaded an unsupported image. Please make sure your image is valid.",
                            "type": "invalid_request_error", "code": "invalid_image_format"]]))
                    }
                    sizes.append(size)
                }
            }
            let (books, photo) = readImages(sizes)
            let call = Call(dialect: .openai, model: model, imageSizes: sizes.map { ($0.w, $0.h) }, format: format, status: 200)
            let prompt = 120 + 85 * sizes.count
            return .accept(call, books, photo: photo) { content in
                json(200, [
                    "id": "chatcmpl-fake", "object": "chat.completion", "created": 1_700_000_000, "model": model,
                    "choices": [["index": 0, "message": ["role": "assistant", "content": content], "finish_reason": "stop"]],
                    "usage": ["prompt_tokens": prompt, "completion_tokens": content.utf8.count / 4,
                              "total_tokens": prompt + content.utf8.count / 4],
                ])
            }
        }

        private func openAIError(_ status: Int, _ message: String) -> HTTPServerAction {
            json(status, ["error": ["message": message, "type": "invalid_request_error", "param": NSNull(), "code": NSNull()]])
        }

        // MARK: Gemini

        private func gemini(_ request: HTTPRequestRecord) -> Outcome {
            let key = locked { $0.apiKey }
            let sent = request.headers["x-goog-api-key"] ?? request.query["key"]
            if let key, sent != key {
                if sent == nil {
                    return .reject(geminiError(403, "PERMISSION_DENIED", "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API."))
                }
                return .reject(json(400, ["error": [
                    "code": 400, "message": "API key not valid. Please pass a valid API key.", "status": "INVALID_ARGUMENT",
                    "details": [["@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID"]]]]))
            }
            let name = request.path.components(separatedBy: "/v1beta/models/").last ?? ""
            let model = String(name.dropLast(":generateContent".count))
            guard !model.isEmpty else {
                return .reject(geminiError(400, "INVALID_ARGUMENT", "model is required"))
            }
            guard let body = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any] else {
                return .reject(geminiError(400, "INVALID_ARGUMENT", "Invalid JSON payload received."))
            }
            guard let contents = body["contents"] as? [[String: Any]], !contents.isEmpty else {
                return .reject(geminiError(400, "INVALID_ARGUMENT", "* GenerateContentRequest.contents: contents is not specified"))
            }
            var format = "plain"
            if let generation = body["generationConfig"] as? [String: Any] {
                let rejected = locked { $0.rejectedFormats }
                if generation["responseSchema"] != nil {
                    format = "schema"
                    if rejected.contains("responseSchema") {
                        return .reject(geminiError(400, "INVALID_ARGUMENT", "Invalid JSON payload received. Unknown name \"responseSchema\" at 'generation_config': Cannot find field."))
                    }
                } else if generation["responseMimeType"] != nil {
                    format = "json"
                }
                if generation["responseMimeType"] != nil, rejected.contains("responseMimeType") {
                    return .reject(geminiError(400, "INVALID_ARGUMENT", "Invalid JSON payload received. Unknown name \"responseMimeType\" at 'generation_config': Cannot find field."))
                }
            }
            var sizes: [Size] = []
            for content in contents {
                for part in content["parts"] as? [[String: Any]] ?? [] {
                    guard let inline = (part["inline_data"] ?? part["inlineData"]) as? [String: Any] else { continue }
                    guard let b64 = inline["data"] as? String, let data = Data(base64Encoded: b64) else {
                        return .reject(geminiError(400, "INVALID_ARGUMENT", "Invalid value at 'contents[0].parts' (TYPE_BYTES), Base64 decoding failed"))
                    }
                    guard let size = decodedSize(data) else {
                        return .reject(geminiError(400, "INVALID_ARGUMENT", "Unable to process input image. Please retry or report in https://developers.generativeai.google/guide/troubleshooting"))
                    }
                    sizes.append(size)
                }
            }
            let (books, photo) = readImages(sizes)
            let call = Call(dialect: .gemini, model: model, imageSizes: sizes.map { ($0.w, $0.h) }, format: format, status: 200)
            let prompt = 90 + 258 * sizes.count
            return .accept(call, books, photo: photo) { content in
                json(200, [
                    "candidates": [["content": ["parts": [["text": content]], "role": "model"], "finishReason": "STOP", "index": 0]],
                    "usageMetadata": ["promptTokenCount": prompt, "candidatesTokenCount": content.utf8.count / 4,
                                      "totalTokenCount": prompt + content.utf8.count / 4],
                    "modelVersion": model,
                ])
            }
        }

        private func geminiError(_ status: Int, _ code: String, _ message: String) -> HTTPServerAction {
            json(status, ["error": ["code": status, "message": message, "status": code]])
        }

        // MARK: Answers

        private func errorReply(_ dialect: Dialect, _ status: Int, _ message: String, headers: [String: String] = [:]) -> HTTPServerAction {
            let body: [String: Any] = dialect == .openai
                ? ["error": ["message": message, "type": status == 429 ? "requests" : "server_error", "code": NSNull()]]
                : ["error": ["code": status, "message": message, "status": status == 429 ? "RESOURCE_EXHAUSTED" : "INTERNAL"]]
            var action = json(status, body)
            if case .respond(let s, var h, let b) = action {
                h.merge(headers) { _, new in new }
                action = .respond(status: s, headers: h, body: b)
            }
            return action
        }

        /// Registered books for each image size, or a title derived from the size, so answers are
        /// deterministic functions of what was sent.
        private func readImages(_ sizes: [Size]) -> ([Book], Bool) {
            locked { s in
                if sizes.count == 1, s.photos.contains(sizes[0]) { return (s.answers[sizes[0]] ?? [], true) }
                let books = sizes.map { size in
                    s.answers[size]?.first ?? Book(title: "Spine \(size.w)x\(size.h)", authors: ["Author \(size.h)"], confidence: 0.9)
                }
                return (books, false)
            }
        }

        private func answerJSON(_ books: [Book], photo: Bool) -> String {
            let items: [[String: Any]] = books.enumerated().map { i, book in
                var item: [String: Any] = ["title": book.title, "authors": book.authors, "confidence": book.confidence]
                if photo {
                    if let b = book.box { item["box"] = ["x": b.x, "y": b.y, "width": b.width, "height": b.height] }
                } else {
                    item["index"] = i
                }
                return item
            }
            let data = try! JSONSerialization.data(withJSONObject: ["books": items], options: [.sortedKeys])
            return String(decoding: data, as: UTF8.self)
        }

        private func decodeDataURL(_ url: String) -> Size? {
            guard url.hasPrefix("data:image/"), let comma = url.firstIndex(of: ","),
                url[..<comma].hasSuffix(";base64"),
                let data = Data(base64Encoded: String(url[url.index(after: comma)...])),
                let size = decodedSize(data)
            else { return nil }
            return size
        }

        /// A full decode with the project's own decoder, as the real services decode before inference.
        private func decodedSize(_ data: Data) -> Size? {
            guard let image = try? ImageDecoder.decode([UInt8](data)) else { return nil }
            return Size(image.width, image.height)
        }
    }
}

private func json(_ status: Int, _ object: [String: Any]) -> HTTPServerAction {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    return .respond(status: status, headers: ["Content-Type": "application/json; charset=UTF-8"], body: data)
}
