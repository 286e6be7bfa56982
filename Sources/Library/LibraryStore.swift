import BookModel
import Foundation
import GRDB

/// The library: one SQLite database (GRDB) plus a directory of spine crops beside it.
///
/// Every write is one transaction: a filed photo, a review decision (with its undo-journal row), an import
/// row. Callers never see SQL or `Database`. Thread-safe: GRDB serializes writes, and a file-backed store
/// uses a WAL `DatabasePool` so readers never wait for a writer. Two processes on one file are safe too: writes
/// start `IMMEDIATE` and wait up to `busyTimeout` for each other, and decisions check the Work's revision.
public final class LibraryStore: Sendable {
    let writer: any DatabaseWriter
    /// The database file, or nil for an in-memory store.
    public let path: String?
    /// Where spine crops live: `<library>.crops/` beside the database file.
    public let cropsDirectory: URL

    /// How long a write waits for another process's write before giving up.
    public static let busyTimeout: TimeInterval = 10

    public static func makeConfiguration() -> Configuration {
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(busyTimeout)
        config.label = "ShelfScan library"
        return config
    }

    /// Opens (creating if needed) the library at `path`, its directory and crop directory, and migrates it.
    public init(path: String) throws {
        let url = URL(fileURLWithPath: path)
        let crops = url.deletingPathExtension().appendingPathExtension("crops")
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: crops, withIntermediateDirectories: true)
            let pool = try DatabasePool(path: path, configuration: Self.makeConfiguration())
            try Schema.migrator.migrate(pool)
            writer = pool
        } catch let error as DatabaseError {
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
    public func appliedMigrations() throws -> [String] {
        try writer.read { db in try Schema.migrator.appliedMigrations(db) }
    }

    /// The crop file of a Work, if it has one and the file exists.
    public func cropURL(for work: Work) -> URL? {
        guard let name = work.spine?.cropFile else { return nil }
        let url = cropsDirectory.appendingPathComponent(name)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    func run<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try writer.write(body) } catch let e as DatabaseError { throw wrap(e) }
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try writer.read(body) } catch let e as DatabaseError { throw wrap(e) }
    }

    private func wrap(_ e: DatabaseError) -> LibraryError {
        .cannotOpen(path: path ?? ":memory:", reason: e.message ?? "SQLite error \(e.resultCode)")
    }
}
