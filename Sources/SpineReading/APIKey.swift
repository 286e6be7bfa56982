import Foundation
import UserDirectories

/// An API key that cannot leak through printing, string interpolation, `dump` or `Codable`: the
/// only way to its text is `withValue`, used where the request header is set.
public struct APIKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    private let value: String

    public init?(_ value: String) {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        self.value = trimmed
    }

    /// Where the key came from, for messages ("from OPENAI_API_KEY"), never the key itself.
    public var description: String { "APIKey(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: []) }

    func withValue<T>(_ body: (String) throws -> T) rethrows -> T { try body(value) }
}

/// Finds the API key for a reader kind: the kind's own variable (`OPENAI_API_KEY`, `GEMINI_API_KEY`), then
/// `SHELFSCAN_API_KEY`, then the config file. Never argv: a key on the command line ends up in shell
/// history and `ps` output.
public enum APIKeyResolver {
    /// The environment variable named in messages for this kind.
    public static func variable(for kind: ReaderConfiguration.Kind) -> String {
        switch kind {
        case .tesseract, .ppocr: "SHELFSCAN_API_KEY"
        case .openai: "OPENAI_API_KEY"
        case .gemini: "GEMINI_API_KEY"
        }
    }

    /// The key, or nil when none is configured. The config file is a JSON object with `openai_api_key`,
    /// `gemini_api_key` or `api_key`; an unreadable file counts as absent.
    public static func resolve(
        for kind: ReaderConfiguration.Kind,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        configPath: String? = nil
    ) -> APIKey? {
        if kind == .tesseract { return nil }
        return UserSettings.value(variables: [variable(for: kind), "SHELFSCAN_API_KEY"],
                                  fields: ["\(kind.rawValue)_api_key", "api_key"],
                                  environment: environment, configPath: configPath).flatMap(APIKey.init)
    }
}
