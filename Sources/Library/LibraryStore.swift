import BookModel
import Foundation
import GRDB
import LibraryCore

/// The library: one SQLite database (GRDB) plus a directory of spine crops beside it.
///
/// Every write is one transaction: a filed photo, a review decision (with its undo-journal row), an import
/// row. Callers never see SQL or `Database`. Thread-safe: GRDB serializes writes, and a file-backed store
/// uses a WAL `DatabasePool` so readers never wait for a writer. Two processes on one file are safe too: writes
/// start `IMMEDIATE` and wait up to `busyTimeout` for each other (then fail as `LibraryError.busy`, nothing
/// written), and decisions check the Work's revision.
public final class LibraryStore: Sendable {
    let writer: any DatabaseWriter
    /// The database file, or nil for an in-memory store.
    public let path: String?
    /// Where spine crops live: `<library>.crops/` beside the database file.
    public let cropsDirectory: URL

    /// How long a write waits for another process's write before giving up.
    public static let busyTimeout: TimeInterval = 10

    /// - Parameter busyTimeout: 0 refuses at once instead of waiting (tests that hold the file's write lock).
    public static func makeConfiguration(busyTimeout: TimeInterval = busyTimeout) -> Configuration {
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = busyTimeout > 0 ? .timeout(busyTimeout) : .immediateError
        config.label = "ShelfScan library"
        return config
    }

    /// Opens (creating if needed) the library at `path`, its directory and crop directory, and migrates it.
    /// - Throws: `LibraryError.busy` when another process holds the file past `busyTimeout`, else `.cannotOpen`.
    public init(path: String, busyTimeout: TimeInterval = LibraryStore.busyTimeout) throws {
        let url = URL(fileURLWithPath: path)
        let crops = url.deletingPathExtension().appendingPathExtension("crops")
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: crops, withIntermediateDirectories: true)
            let pool = try DatabasePool(path: path, configuration: Self.makeConfiguration(busyTimeout: busyTimeout))
            try Schema.migrator.migrate(pool)
            writer = pool
        } catch let error as DatabaseError {
            let named = LibraryError(error, location: path)
            if case .busy = named { throw named }
            throw LibraryError.cannotOpen(path: path, reason: error.message ?? "\(error.resultCode)")
        } catch {
            throw LibraryError.cannotOpen(path: path, reason: (error as NSError).localizedDescription)
        }
        self.path = path
        cropsDirectory = crops
    }

    /// An in-memory library with the production configuration, for tests and benchmarks. Its crops go to a
    /// fresh temporary directory.
    public static func inMemory() throws -> LibraryStore {
        let queue = try DatabaseQueue(configuration: makeConfiguration())
        try Schema.migrator.migrate(queue)
        let crops = FileManager.default.temporaryDirectory.appendingPathComponent("shelfscan-crops-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: crops, withIntermediateDirectories: true)
        return LibraryStore(writer: queue, path: nil, cropsDirectory: crops)
    }

    init(writer: any DatabaseWriter, path: String?, cropsDirectory: URL) {
        self.writer = writer; self.path = path; self.cropsDirectory = cropsDirectory
    }

    /// The migrations applied, oldest first (for `library stats` and the upgrade test).
    public func appliedMigrations() async throws -> [String] {
        try await read { db in try Schema.migrator.appliedMigrations(db) }
    }

    /// The crop file of a Work, if it has one and the file exists.
    public func cropURL(for work: Work) -> URL? { Self.cropURL(for: work, in: cropsDirectory) }

    static func cropURL(for work: Work, in cropsDirectory: URL) -> URL? {
        guard let name = work.spine?.cropFile else { return nil }
        let url = cropsDirectory.appendingPathComponent(name)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// GRDB's async access: the transaction runs on GRDB's own queue, synchronously as GRDB requires, and the
    /// caller awaits it without holding a thread.
    func run<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        do { return try await writer.write(body) } catch let e as DatabaseError { throw LibraryError(e, location: locationDescription) }
    }

    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        do { return try await writer.read(body) } catch let e as DatabaseError { throw LibraryError(e, location: locationDescription) }
    }
}

extension LibraryError {
    /// SQLite's result code, named for what the caller can do about it (see `LibraryError`).
    init(_ e: DatabaseError, location: String) {
        let reason = e.message ?? "SQLite error \(e.resultCode.rawValue)"
        switch e.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED: self = .busy(location: location, reason: reason)
        case .SQLITE_CONSTRAINT: self = .constraint(location: location, reason: reason)
        case .SQLITE_CANTOPEN, .SQLITE_NOTADB, .SQLITE_PERM, .SQLITE_AUTH: self = .cannotOpen(path: location, reason: reason)
        default: self = .databaseFailed(location: location, reason: reason)
        }
    }
}
