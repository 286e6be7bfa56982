import Foundation
public import ShelfImage

/// Reads spines through any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM, LM Studio,
/// llama.cpp's server, OpenRouter): several crops per call, answers keyed by crop index.
public struct OpenAIVisionReader: SpineReader, WholePhotoReader {
    let client: VisionClient
    public var name: String { "openai" }
    public var model: String { client.model }
    public var promptVersion: String { client.prompt.version }

    /// `key` nil is fine for local servers that need none.
    public init(configuration: ReaderConfiguration, key: APIKey?) throws {
        var c = configuration
        c.kind = .openai
        client = try VisionClient(dialect: OpenAIDialect(), configuration: c, key: key)
    }

    public func read(_ crops: [SpineCrop]) async -> [Reading] { await client.read(crops) }
    public func readPhoto(_ photo: RGBImage) async throws -> PhotoReading { try await client.readPhoto(photo) }
}

/// Reads spines through Gemini's `generateContent` with a response schema.
public struct GeminiReader: SpineReader, WholePhotoReader {
    let client: VisionClient
    public var name: String { "gemini" }
    public var model: String { client.model }
    public var promptVersion: String { client.prompt.version }

    public init(configuration: ReaderConfiguration, key: APIKey?) throws {
        var c = configuration
        c.kind = .gemini
        client = try VisionClient(dialect: GeminiDialect(), configuration: c, key: key)
    }

    public func read(_ crops: [SpineCrop]) async -> [Reading] { await client.read(crops) }
    public func readPhoto(_ photo: RGBImage) async throws -> PhotoReading { try await client.readPhoto(photo) }
}
