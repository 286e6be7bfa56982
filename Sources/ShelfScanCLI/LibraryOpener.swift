import Foundation
import Library
import LibraryCore
import LibraryPostgres
import UserDirectories

/// Opens the library a command names: a SQLite file path (the embedded default) or a `postgres://` URL (a team's
/// shared library). Every command that opens a library comes through here, so both work everywhere. It lives
/// where the program is put together, not in the pipeline, so the pipeline (and whatever embeds it) sees only
/// `LibraryStoring` and links no database client it was not asked for.
enum LibraryOpener {
    /// True for `postgres://` and `postgresql://` locations.
    static func isServer(_ location: String) -> Bool {
        location.hasPrefix("postgres://") || location.hasPrefix("postgresql://")
    }

    /// - Parameter location: a path, or `postgres://user@host:port/database`. The server's password comes from
    ///   `PGPASSWORD`, else `postgres_password` in the config file (`~/.config/shelfscan/config.json`); never
    ///   from the URL or argv, which show in `ps` and shell history.
    /// - Throws: `LibraryError.cannotOpen`, one line naming the library and the cause.
    static func open(_ location: String,
                            environment: [String: String] = ProcessInfo.processInfo.environment) async throws -> any LibraryStoring {
        guard isServer(location) else { return try LibraryStore(path: location) }
        return try await PostgresLibraryStore(url: location, password: password(environment: environment))
    }

    /// Where a vision reader keeps its answers for the library at `location`: beside a library file, so a rescan
    /// costs no calls; nil for a server's library, which has no place on this machine.
    static func readingCache(for location: String) -> URL? {
        guard !isServer(location) else { return nil }
        return URL(fileURLWithPath: location).deletingLastPathComponent().appendingPathComponent("reading-cache", isDirectory: true)
    }

    static func password(environment: [String: String]) -> String? {
        UserSettings.value(variables: ["PGPASSWORD"], fields: ["postgres_password"], environment: environment)
    }
}
