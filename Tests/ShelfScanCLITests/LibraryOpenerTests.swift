import Foundation
import Library
import LibraryCore
@testable import ShelfScanCLI
import Testing

@Suite struct LibraryOpenerTests {
    /// A vision reader's answers are kept beside a library file, so a rescan costs no calls; a server's library
    /// has no folder on this machine, so none are kept for it.
    @Test func theReadingCacheSitsBesideALibraryFileAndNowhereForAServer() {
        #expect(LibraryOpener.readingCache(for: "/home/u/books/library.sqlite")?.path == "/home/u/books/reading-cache")
        #expect(LibraryOpener.readingCache(for: "postgres://u@db.example.org/library") == nil)
        #expect(LibraryOpener.readingCache(for: "postgresql://u@db.example.org/library") == nil)
    }

    @Test func aPathOpensSQLiteAndAFailedServerOpenCreatesNothing() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("shelfscan-opener-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try await LibraryOpener.open(dir.appendingPathComponent("library.sqlite").path, environment: [:])
        #expect(store is LibraryStore)
        await #expect(throws: LibraryError.self) {
            try await LibraryOpener.open("postgres://shelfscan@127.0.0.1:1/none", environment: ["PGPASSWORD": "x"])
        }
    }
}
