import Foundation
import UserDirectories

/// A provider API key that cannot leak through printing, interpolation, `dump` or `Codable`: its text is
/// reachable only through `withValue`, where the request URL is built. Keys never come from argv (shell
/// history, `ps`); `ProviderKey.resolve` reads the environment or the config file.
public struct ProviderKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    private let value: String

    public init?(_ value: String) {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        self.value = trimmed
    }

    public var description: String { "ProviderKey(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: []) }

    func withValue<T>(_ body: (String) throws -> T) rethrows -> T { try body(value) }

    /// The environment variable read for the Google Books key.
    public static let googleBooksVariable = "GOOGLE_BOOKS_API_KEY"
    /// The config file field read for the Google Books key.
    public static let googleBooksConfigField = "google_books_api_key"

    /// The Google Books key from `GOOGLE_BOOKS_API_KEY`, else the config file's `google_books_api_key`
    /// (`$XDG_CONFIG_HOME/shelfscan/config.json` by default); nil when neither has one, which Google Books
    /// accepts at a lower quota. An unreadable config file counts as absent.
    public static func resolveGoogleBooks(environment: [String: String], configPath: String? = nil) -> ProviderKey? {
        UserSettings.value(variables: [googleBooksVariable], fields: [googleBooksConfigField],
                           environment: environment, configPath: configPath).flatMap(ProviderKey.init)
    }
}
