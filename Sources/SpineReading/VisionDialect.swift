import Foundation
import BookModel
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How strictly an endpoint is asked for JSON. Servers that reject a level are asked again one level down,
/// and the answer is parsed tolerantly at every level.
enum OutputFormat: Int, Sendable, Comparable {
    case plain = 0, jsonObject, schema

    static func < (a: OutputFormat, b: OutputFormat) -> Bool { a.rawValue < b.rawValue }
    var lower: OutputFormat? { OutputFormat(rawValue: rawValue - 1) }
}

/// What differs between the OpenAI-compatible and the Gemini wire formats; everything else (batching,
/// retries, limits, parsing, caching) is shared by `VisionClient`.
protocol VisionDialect: Sendable {
    var name: String { get }
    func request(
        endpoint: URL, model: String, key: APIKey?, prompt: PromptProfile, images: [ImagePayload], format: OutputFormat
    ) throws(ReaderError) -> URLRequest
    /// The model's text and the reported usage from a 200 reply.
    func content(of body: Data) throws(ReaderError) -> (text: String, usage: TokenUsage?)
    /// The service's own error message from an error reply.
    func errorMessage(_ body: Data) -> String
    /// True when a 400 says the requested output format is unsupported.
    func rejectsFormat(_ message: String) -> Bool
    /// True when an error reply (of any status) means the key is wrong.
    func isKeyRejection(status: Int, message: String) -> Bool
}

extension VisionDialect {
    func jsonRequest(_ url: URL, body: JSONValue) -> URLRequest {
        var r = URLRequest(url: url)
        r.httpMethod = "POST"
        r.setValue("application/json", forHTTPHeaderField: "Content-Type")
        r.setValue("application/json", forHTTPHeaderField: "Accept")
        r.httpBody = body.encoded()
        return r
    }
}

/// `POST {endpoint}/chat/completions`, spoken by OpenAI, Ollama, vLLM, LM Studio, llama.cpp and OpenRouter.
struct OpenAIDialect: VisionDialect {
    var name: String { "openai" }

    func request(
        endpoint: URL, model: String, key: APIKey?, prompt: PromptProfile, images: [ImagePayload], format: OutputFormat
    ) throws(ReaderError) -> URLRequest {
        var parts: [JSONValue] = []
        var text = prompt.userText(count: images.count)
        if format == .plain || format == .jsonObject { text += "\n" + prompt.plainInstruction }
        parts.append(["type": "text", "text": .string(text)])
        for (i, image) in images.enumerated() {
            let label = prompt.label(index: i)
            if !label.isEmpty { parts.append(["type": "text", "text": .string(label)]) }
            parts.append(["type": "image_url", "image_url": ["url": .string(image.dataURL)]])
        }
        var body: [String: JSONValue] = [
            "model": .string(model),
            "messages": [
                ["role": "system", "content": .string(prompt.system)],
                ["role": "user", "content": .array(parts)],
            ],
            "temperature": 0,
        ]
        switch format {
        case .schema:
            body["response_format"] = [
                "type": "json_schema",
                "json_schema": ["name": .string(prompt.schemaName), "strict": true, "schema": prompt.schema],
            ]
        case .jsonObject:
            body["response_format"] = ["type": "json_object"]
        case .plain:
            break
        }
        var r = jsonRequest(endpoint.appendingPathComponent("chat/completions"), body: .object(body))
        key?.withValue { r.setValue("Bearer \($0)", forHTTPHeaderField: "Authorization") }
        return r
    }

    func content(of body: Data) throws(ReaderError) -> (text: String, usage: TokenUsage?) {
        guard let json = JSONValue.parse(body) else { throw .malformedAnswer("reply is not JSON: \(AnswerParser.snippet(String(decoding: body, as: UTF8.self)))") }
        guard let message = json["choices"]?.arrayValue?.first?["message"] else {
            throw .malformedAnswer("reply has no choices[0].message")
        }
        let text: String
        switch message["content"] {
        case .string(let s): text = s
        case .array(let parts): text = parts.compactMap { $0["text"]?.stringValue }.joined()
        default:
            if let refusal = message["refusal"]?.stringValue { throw .malformedAnswer("model refused: \(refusal)") }
            throw .malformedAnswer("reply has no message content")
        }
        var usage: TokenUsage?
        if let u = json["usage"], let p = u["prompt_tokens"]?.intValue {
            let c = u["completion_tokens"]?.intValue ?? 0
            usage = TokenUsage(promptTokens: p, completionTokens: c, totalTokens: u["total_tokens"]?.intValue ?? p + c)
        }
        return (text, usage)
    }

    func errorMessage(_ body: Data) -> String {
        let json = JSONValue.parse(body)
        return json?["error"]?["message"]?.stringValue ?? json?["error"]?.stringValue
            ?? String(decoding: body.prefix(200), as: UTF8.self)
    }

    func rejectsFormat(_ message: String) -> Bool {
        let m = message.lowercased()
        return m.contains("response_format") || m.contains("json_schema") || m.contains("json_object")
            || m.contains("structured output")
    }

    func isKeyRejection(status: Int, message: String) -> Bool {
        status == 401 || status == 403
    }
}

/// `POST {endpoint}/v1beta/models/{model}:generateContent`, key in `x-goog-api-key`.
struct GeminiDialect: VisionDialect {
    var name: String { "gemini" }

    func request(
        endpoint: URL, model: String, key: APIKey?, prompt: PromptProfile, images: [ImagePayload], format: OutputFormat
    ) throws(ReaderError) -> URLRequest {
        var parts: [JSONValue] = []
        var text = prompt.userText(count: images.count)
        if format < .schema { text += "\n" + prompt.plainInstruction }
        parts.append(["text": .string(text)])
        for (i, image) in images.enumerated() {
            let label = prompt.label(index: i)
            if !label.isEmpty { parts.append(["text": .string(label)]) }
            parts.append(["inline_data": ["mime_type": .string(image.mimeType), "data": .string(image.base64)]])
        }
        var generation: [String: JSONValue] = ["temperature": 0]
        if format >= .jsonObject { generation["responseMimeType"] = "application/json" }
        if format == .schema { generation["responseSchema"] = prompt.geminiSchema }
        let body: JSONValue = [
            "system_instruction": ["parts": [["text": .string(prompt.system)]]],
            "contents": [["role": "user", "parts": .array(parts)]],
            "generationConfig": .object(generation),
        ]
        let escaped = model.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/:"))) ?? model
        guard let url = URL(string: endpoint.absoluteString.trimmingSuffix("/") + "/v1beta/models/\(escaped):generateContent") else {
            throw .invalidConfiguration("Cannot build a Gemini URL from endpoint \(endpoint) and model \(model)")
        }
        var r = jsonRequest(url, body: body)
        key?.withValue { r.setValue($0, forHTTPHeaderField: "x-goog-api-key") }
        return r
    }

    func content(of body: Data) throws(ReaderError) -> (text: String, usage: TokenUsage?) {
        guard let json = JSONValue.parse(body) else { throw .malformedAnswer("reply is not JSON: \(AnswerParser.snippet(String(decoding: body, as: UTF8.self)))") }
        guard let candidate = json["candidates"]?.arrayValue?.first else {
            let reason = json["promptFeedback"]?["blockReason"]?.stringValue
            throw .malformedAnswer(reason.map { "prompt blocked: \($0)" } ?? "reply has no candidates")
        }
        guard let parts = candidate["content"]?["parts"]?.arrayValue else {
            throw .malformedAnswer("candidate has no content (finishReason \(candidate["finishReason"]?.stringValue ?? "?"))")
        }
        let text = parts.compactMap { $0["text"]?.stringValue }.joined()
        var usage: TokenUsage?
        if let u = json["usageMetadata"], let p = u["promptTokenCount"]?.intValue {
            let c = u["candidatesTokenCount"]?.intValue ?? 0
            usage = TokenUsage(promptTokens: p, completionTokens: c, totalTokens: u["totalTokenCount"]?.intValue ?? p + c)
        }
        return (text, usage)
    }

    func errorMessage(_ body: Data) -> String {
        let json = JSONValue.parse(body)
        return json?["error"]?["message"]?.stringValue ?? String(decoding: body.prefix(200), as: UTF8.self)
    }

    func rejectsFormat(_ message: String) -> Bool {
        let m = message.lowercased()
        return m.contains("response_schema") || m.contains("responseschema") || m.contains("response_mime_type")
            || m.contains("responsemimetype")
    }

    func isKeyRejection(status: Int, message: String) -> Bool {
        // Gemini answers a wrong key with 400 INVALID_ARGUMENT "API key not valid", a missing one with 403.
        status == 401 || status == 403 || message.localizedCaseInsensitiveContains("API key not valid")
            || message.contains("API_KEY_INVALID")
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        var s = self
        while s.hasSuffix(suffix) { s.removeLast(suffix.count) }
        return s
    }
}
