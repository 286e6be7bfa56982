import Foundation
import Library
import LibraryCore
import LibraryPostgres
import ShelfScanTestSupport

/// The engines a store test runs on: SQLite always; PostgreSQL when `SHELFSCAN_TEST_POSTGRES_URL` names a server
/// (scripts/test and .ci/run start one), so the suites still run, on SQLite alone, without one. Shared by the
/// SQLite store's tests and the PostgreSQL ones, so a test written against `LibraryStoring` runs on both.
public enum Engine: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite, postgres
    public var description: String { rawValue }

    public static var serverURL: String? { ProcessInfo.processInfo.environment["SHELFSCAN_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 } }
    public static var password: String? { ProcessInfo.processInfo.environment["PGPASSWORD"] }
    public static var available: [Engine] { serverURL == nil ? [.sqlite] : [.sqlite, .postgres] }

    /// Asked for PostgreSQL without a server, or for a URL that does not parse.
    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String
    }

    /// A fresh, empty library: a SQLite file in the test run's scratch folder (removed at exit), or a new
    /// database on the test server.
    public func makeStore() async throws -> any LibraryStoring {
        switch self {
        case .sqlite:
            return try LibraryStore(path: try ScratchDirectory.make("library").appendingPathComponent("library.sqlite").path)
        case .postgres:
            return try await PostgresLibraryStore(url: try Self.freshDatabaseURL(), password: Self.password)
        }
    }

    /// `url` with `?statement_timeout=` set, for tests that wait out an unanswered statement.
    public static func withStatementTimeout(_ url: String, seconds: Int) throws -> String {
        guard var c = URLComponents(string: url) else { throw Unavailable(description: "not a URL: \(url)") }
        c.queryItems = (c.queryItems ?? []).filter { $0.name != "statement_timeout" } + [URLQueryItem(name: "statement_timeout", value: "\(seconds)")]
        guard let out = c.string else { throw Unavailable(description: "not a URL: \(url)") }
        return out
    }

    /// Creates an empty database on the test server and returns its URL.
    public static func freshDatabaseURL() async throws -> String {
        guard let serverURL else { throw Unavailable(description: "no SHELFSCAN_TEST_POSTGRES_URL") }
        let name = "shelfscan_t_\(UUID().uuidString.prefix(13).lowercased().replacingOccurrences(of: "-", with: ""))"
        return try await PostgresLibraryStore.createDatabase(named: name, besides: serverURL, password: password)
    }
}
