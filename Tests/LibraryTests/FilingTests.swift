import BookModel
import Foundation
import GRDB
import Testing
@testable import Library
@testable import LibraryCore
import LibraryTestSupport

@Suite struct Filing {
    @Test(arguments: Engine.available)
    func filesEverySpineAsPendingWithItsCrop(engine: Engine) async throws {
        // Given a photo with three spines, one unreadable
        let store = try await engine.makeStore()
        let (ids, _) = try await seed(store)
        defer { removeTemporary(store.cropsDirectory) }
        // Then every spine is a pending Work, in spine order, with its provenance and crop
        #expect(ids.count == 3)
        let unread = try #require(try await store.work(id: ids[1]))
        #expect(unread.title == Work.unreadTitle && unread.reviewStatus == .needsReview && unread.authors.isEmpty)
        #expect(unread.spine?.readError == "no text" && unread.spine?.position == 1)
        let first = try #require(try await store.work(id: ids[0]))
        #expect(first.boundingBox == BoundingBox(x: 0, y: 0.1, width: 0.04, height: 0.8))
        #expect(first.spine?.polygon.count == 4 && first.spine?.photoContentHash.count == 64)
        #expect(first.editions.first?.isbn == "0441172717", "the catalogue's ISBN becomes an edition")
        #expect(first.originalImagePath == "/photos/shelf.jpg")
        let crop = try #require(await store.cropURL(for: first))
        #expect(try Data(contentsOf: crop) == Data(fakeJPEG(0)))
        let status = try #require(try await store.photoStatus(contentHash: String(repeating: "a", count: 64)))
        #expect(status.workCount == 3 && status.pendingCount == 3)
        #expect(try await store.photoStatus(contentHash: "nope") == nil)
    }

    @Test(arguments: Engine.available)
    func filingTheSamePhotoTwiceChangesNothing(engine: Engine) async throws {
        let store = try await engine.makeStore()
        _ = try await seed(store)
        defer { removeTemporary(store.cropsDirectory) }
        let again = try await store.file(photo(String(repeating: "a", count: 64), [spine("Other", position: 0)]))
        #expect(again.isEmpty)
        #expect(try await store.pendingCount() == 3)
    }

    @Test(arguments: Engine.available)
    func rescanReplacesOnlyPendingWorks(engine: Engine) async throws {
        // Given one spine of the photo verified
        let store = try await engine.makeStore()
        let (ids, _) = try await seed(store)
        defer { removeTemporary(store.cropsDirectory) }
        try await store.review(ReviewDecision(workID: ids[2], action: .verify))
        let firstWork = try #require(try await store.work(id: ids[0]))
        let oldCrop = try #require(await store.cropURL(for: firstWork))
        // When the photo is filed again with replacePending
        let new = try await store.file(photo(String(repeating: "a", count: 64), [spine("Dune", ["Frank Herbert"], position: 0)]),
                                       replacePending: true)
        // Then the verified Work is kept, the pending ones are replaced, and their old crops are gone
        #expect(new.count == 1)
        #expect(try await store.work(id: ids[2])?.reviewStatus == .verified)
        #expect(try await store.work(id: ids[0]) == nil)
        #expect(try await store.work(id: ids[1]) == nil)
        #expect(try await store.pendingSummaries().map(\.id) == new)
        // A crop file is the SQLite store's crop itself; PostgreSQL keeps crops in the database, and its files are
        // only a local cache of them.
        if engine == .sqlite { #expect(!FileManager.default.fileExists(atPath: oldCrop.path)) }
        let status = try await store.photoStatus(contentHash: String(repeating: "a", count: 64))
        #expect(status?.workCount == 2 && status?.pendingCount == 1)
    }

    @Test func aFailedFilingLeavesNothingBehind() async throws {
        // Given a store whose crops directory cannot be written (a file sits where the directory should be)
        let dir = try temporaryDirectory()
        defer { removeTemporary(dir) }
        let store = try LibraryStore(path: dir.appendingPathComponent("library.sqlite").path)
        try FileManager.default.removeItem(at: store.cropsDirectory)
        try Data("x".utf8).write(to: store.cropsDirectory)
        // When a photo is filed
        await #expect(throws: LibraryError.self) { try await store.file(photo("h1", [spine("A", position: 0)])) }
        // Then neither the photo nor any Work was recorded
        #expect(try await store.photoStatus(contentHash: "h1") == nil)
        #expect(try await store.pendingCount() == 0)
    }

    @Test func cropsSurviveTheOriginalPhotoMoving() async throws {
        let dir = try temporaryDirectory()
        defer { removeTemporary(dir) }
        let original = dir.appendingPathComponent("shelf.jpg")
        try Data([1, 2, 3]).write(to: original)
        let store = try LibraryStore(path: dir.appendingPathComponent("lib/library.sqlite").path)
        let ids = try await store.file(photo("h2", [spine("A", ["B"], position: 0)], path: original.path))
        try FileManager.default.removeItem(at: original)
        let work = try #require(try await store.work(id: ids[0]))
        let crop = try #require(store.cropURL(for: work))
        #expect(crop.path.hasPrefix(dir.appendingPathComponent("lib/library.crops").path))
        #expect(try Data(contentsOf: crop) == Data(fakeJPEG(0)))
    }

    @Test func fileStoreUsesWALAndForeignKeys() throws {
        let dir = try temporaryDirectory()
        defer { removeTemporary(dir) }
        let store = try LibraryStore(path: dir.appendingPathComponent("deep/er/library.sqlite").path)
        let (mode, fk) = try store.writer.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode")!, try Int.fetchOne(db, sql: "PRAGMA foreign_keys")!)
        }
        #expect(mode == "wal" && fk == 1)
    }
}

@Suite struct Schema_ {
    @Test func upgradesADatabaseMadeByTheFirstMigration() async throws {
        // Given a database file created by the first migration only, holding a Work
        let dir = try temporaryDirectory()
        defer { removeTemporary(dir) }
        let path = dir.appendingPathComponent("old.sqlite").path
        do {
            let queue = try DatabaseQueue(path: path, configuration: LibraryStore.makeConfiguration())
            try Schema.migrator.migrate(queue, upTo: Schema.firstMigration)
            try await queue.write { db in
                try db.execute(sql: """
                    INSERT INTO work (title, normalizedTitle, reviewStatus, dateCreated, lastModified)
                    VALUES ('Old Book', 'old book', 'verified', '2024-01-01 00:00:00.000', '2024-01-01 00:00:00.000')
                    """)
                try db.execute(sql: "INSERT INTO author (name, normalizedName, dateCreated, lastModified) VALUES ('Old Author', 'old author', '2024-01-01', '2024-01-01')")
                try db.execute(sql: "INSERT INTO credit (workId, authorId, role, position) VALUES (1, 1, 'author', 0)")
            }
            #expect(try await queue.read { db in try db.tableExists("photo") } == false)
        }
        // When the store opens it
        let store = try LibraryStore(path: path)
        // Then every later migration has run and the old data is intact
        #expect(try await store.appliedMigrations() == Schema.migrator.migrations)
        let work = try #require(try await store.work(id: 1))
        #expect(work.title == "Old Book" && work.authors.map(\.name) == ["Old Author"] && work.spine == nil)
        let ids = try await store.file(photo("h3", [spine("New", position: 0)]))
        #expect(try await store.work(id: ids[0])?.spine?.photoContentHash == "h3")
    }

    @Test func oneEntryPerWorkIsEnforcedBySQLite() async throws {
        let (store, _, dune) = try await seededStore()
        defer { removeTemporary(store.cropsDirectory) }
        #expect(throws: DatabaseError.self) {
            try store.writer.write { db in
                try db.execute(sql: "INSERT INTO libraryEntry (workId, dateAdded, readingStatus, lastModified) VALUES (?, '2024-01-01', 'read', '2024-01-01')",
                               arguments: [dune.id])
            }
        }
    }
}

@Suite struct DeleteRules {
    @Test func deletingAWorkCascadesToEditionsAndEntryButKeepsAuthors() async throws {
        let (store, _, dune) = try await seededStore()
        defer { removeTemporary(store.cropsDirectory) }
        try await store.deleteWork(id: dune.id!)
        let counts = try await store.writer.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM edition WHERE workId = ?", arguments: [dune.id])!,
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM libraryEntry WHERE workId = ?", arguments: [dune.id])!)
        }
        #expect(counts == (0, 0))
        let herbert = try #require(try await store.authors().first { $0.name == "Frank Herbert" })
        #expect(herbert.bookCount == 1, "still credited on the pending DUNE spine")
        await #expect(throws: LibraryError.notFound(dune.id!)) { try await store.deleteWork(id: dune.id!) }
    }

    @Test func deletingAnEditionNullifiesTheEntryAndKeepsProgress() async throws {
        let store = try LibraryStore.inMemory()
        defer { removeTemporary(store.cropsDirectory) }
        var w = Work(title: "Dune", authors: ["Frank Herbert"], reviewStatus: .verified)
        w.editions = [Edition(isbn: "9780441172719")]
        w = try await store.add(w)
        w.libraryEntry = .createOwnedEntry(edition: w.editions[0].id!, status: .reading)
        w.libraryEntry?.currentPage = 120
        w = try await store.update(w)
        try await store.deleteEdition(id: w.editions[0].id!)
        let after = try #require(try await store.work(id: w.id!))
        #expect(after.editions.isEmpty && after.libraryEntry?.editionID == nil)
        #expect(after.libraryEntry?.currentPage == 120 && after.libraryEntry?.readingStatus == .reading)
        #expect(after.revision > w.revision)
    }

    @Test func deletingAnAuthorKeepsTheWorks() async throws {
        let (store, _, dune) = try await seededStore()
        defer { removeTemporary(store.cropsDirectory) }
        let herbert = try #require(try await store.authors().first { $0.name == "Frank Herbert" })
        try await store.deleteAuthor(id: herbert.id!)
        let after = try #require(try await store.work(id: dune.id!))
        #expect(after.authors.isEmpty && after.title == "Dune")
    }
}
