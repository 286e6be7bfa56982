import Foundation
import BookModel
import ShelfModels

/// A versioned prompt and answer schema from models/prompts. The version goes into every reading and
/// every cache key, so changing a prompt is a new file, a reviewed diff, and a cache miss.
public struct PromptProfile: Sendable, Equatable {
    public var version: String
    public var system: String
    /// May contain `{count}` and `{last}`.
    public var user: String
    /// Text placed before each image; may contain `{index}`.
    public var imageLabel: String
    /// Appended to the user text when the endpoint supports no structured output at all.
    public var plainInstruction: String
    public var schemaName: String
    /// JSON Schema for OpenAI's strict `json_schema` response format.
    public var schema: JSONValue
    /// The OpenAPI-subset schema Gemini's `responseSchema` takes.
    public var geminiSchema: JSONValue

    /// Loads `models/prompts/<file>`.
    public static func load(_ file: String) throws -> PromptProfile {
        let data: Data
        do {
            data = try ShelfModels.data(file, in: "prompts")
        } catch {
            throw ReaderError.promptUnavailable("models/prompts/\(file) is not shipped")
        }
        return try parse(data, file: file)
    }

    static func parse(_ data: Data, file: String) throws -> PromptProfile {
        guard let json = JSONValue.parse(data) else { throw ReaderError.promptUnavailable("models/prompts/\(file) is not JSON") }
        func text(_ key: String) throws -> String {
            guard let s = json[key]?.stringValue else {
                throw ReaderError.promptUnavailable("models/prompts/\(file) lacks the string \"\(key)\"")
            }
            return s
        }
        guard let schema = json["schema"], let gemini = json["geminiSchema"] else {
            throw ReaderError.promptUnavailable("models/prompts/\(file) lacks \"schema\" or \"geminiSchema\"")
        }
        return PromptProfile(
            version: try text("version"), system: try text("system"), user: try text("user"),
            imageLabel: try text("imageLabel"), plainInstruction: try text("plainInstruction"),
            schemaName: try text("schemaName"), schema: schema, geminiSchema: gemini)
    }

    func userText(count: Int) -> String {
        user.replacingOccurrences(of: "{count}", with: String(count))
            .replacingOccurrences(of: "{last}", with: String(max(0, count - 1)))
    }

    func label(index: Int) -> String {
        imageLabel.replacingOccurrences(of: "{index}", with: String(index))
    }
}
