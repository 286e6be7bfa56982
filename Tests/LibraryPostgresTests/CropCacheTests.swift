import Foundation
@testable import LibraryPostgres
import ShelfScanTestSupport
import Testing

/// A cached crop is shown without asking the server, so the cache must be a folder no other user could make or
/// fill first: in a shared `/tmp`, a predictable path could be.
@Suite struct CropCacheSuite {
    let location: PostgresLocation

    init() throws { location = try PostgresLocation("postgres://me@db:5432/library") }

    @Test func theCacheIsInAFolderOnlyThisUserCanEnterAndTheSameNextTime() throws {
        let temporary = try ScratchDirectory.make("crop-cache")
        let cache = PostgresLibraryStore.cropCache(for: location, in: temporary)
        let parent = cache.deletingLastPathComponent()
        #expect(parent.path == temporary.appendingPathComponent("shelfscan-\(getuid())").path)
        #expect(cache.lastPathComponent == "crops-db-5432-library")
        var info = stat()
        #expect(lstat(parent.path, &info) == 0)
        #expect(info.st_uid == getuid())
        #expect(info.st_mode & 0o777 == 0o700)
        // The next run finds the crops it cached.
        #expect(PostgresLibraryStore.cropCache(for: location, in: temporary) == cache)
    }

    @Test func aFolderOpenToOthersIsNotUsed() throws {
        let temporary = try ScratchDirectory.make("crop-cache-open")
        let planted = temporary.appendingPathComponent("shelfscan-\(getuid())")
        try FileManager.default.createDirectory(at: planted, withIntermediateDirectories: false)
        #expect(chmod(planted.path, 0o777) == 0)
        let cache = PostgresLibraryStore.cropCache(for: location, in: temporary)
        #expect(!cache.path.hasPrefix(planted.path + "/"))
        // A folder of this process alone: the next store gets another.
        #expect(PostgresLibraryStore.cropCache(for: location, in: temporary) != cache)
    }

    @Test func aLinkInItsPlaceIsNotFollowed() throws {
        let temporary = try ScratchDirectory.make("crop-cache-link")
        let elsewhere = try ScratchDirectory.make("crop-cache-target")
        #expect(chmod(elsewhere.path, 0o700) == 0)
        let link = temporary.appendingPathComponent("shelfscan-\(getuid())")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: elsewhere)
        let cache = PostgresLibraryStore.cropCache(for: location, in: temporary)
        #expect(!cache.path.hasPrefix(link.path + "/"))
    }

    @Test func aSlashInTheDatabaseNameStaysInOneFolderName() throws {
        let slashed = try PostgresLocation("postgres://me@db:5432/books/2026")
        let cache = PostgresLibraryStore.cropCache(for: slashed, in: try ScratchDirectory.make("crop-cache-slash"))
        #expect(cache.lastPathComponent == "crops-db-5432-books_2026")
        #expect(cache.deletingLastPathComponent().lastPathComponent == "shelfscan-\(getuid())")
    }
}
