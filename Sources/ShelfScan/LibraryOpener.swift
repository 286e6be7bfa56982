import Foundation
import Library
import LibraryPostgres
import SpineReading

/// Opens the library a command names: a SQLite file path (the embedded default) or a `postgres://` URL (a team's
/// shared library). Every command that opens a library comes through here, so both work everywhere.
public enum LibraryOpener {
    /// True for `postgres://` and `postgresql://` locations.
    public static func isServer(_ location: String) -> Bool {
        location.hasPrefix("postgres://") || location.hasPrefix("postgresql://")
    }

    /// - Parameter location: a path, or `postgres://user@host:port/database`. The server's password comes from
    ///   `PGPASSWORD`, else `postgres_password` in the config file (`~/.config/shelfscan/config.json`); never
    ///   from the URL or argv, which show in `ps` and shell history.
    /// - Throws: `LibraryError.cannotOpen`, one line naming the library and the cause.
    public static func open(_ location: String,
                            environment: [String: String] = ProcessInfo.processInfo.environment) throws -> any LibraryStoring {
        guard isServer(location) else { return try LibraryStore(path: location) }
        return try PostgresLibraryStore(url: location, password: password(environment: environment))
    }

    static func password(environment: [String: String]) -> String? {
        if let v = environment["PGPASSWORD"], !v.isEmpty { return v }
        let path = APIKeyResolver.defaultConfigPath(environment: environment)
        guard let data = FileManager.default.contents(atPath: path),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return object["postgres_password"] as? String
    }
}
