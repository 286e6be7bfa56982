import BookModel
import Foundation
import GRDB
@testable import Library
@testable import LibraryCore
@testable import LibraryPostgres
import LibraryTestSupport
import PostgresNIO
import Testing

/// A database's failures reach the caller named for what happened, on both engines: a library held by another
/// writer is busy, a row that breaks a rule is a constraint; neither tells the person to check the path.
@Suite struct ErrorNamingSuite {
    @Test(arguments: Engine.available)
    func aRowBreakingAUniqueRuleIsAConstraintAndNothingIsWritten(engine: Engine) async throws {
        // Given a dump whose two photo rows share one content hash
        let source = try await engine.makeStore()
        _ = try await source.file(photo(hash(1), [spine("Dune", position: 0)]))
        var dump = try await source.dump()
        var twin = try #require(dump.rows["photo"]?.first)
        twin[0] = .integer(2)
        dump.rows["photo", default: []].append(twin)
        // When it is loaded into an empty library
        let target = try await engine.makeStore()
        // Then the refusal names the broken rule, and nothing was written
        await #expect {
            try await target.restore(dump)
        } throws: { error in
            guard case let LibraryError.constraint(location, reason) = error else { return false }
            return location == target.locationDescription && reason.lowercased().contains("unique")
        }
        #expect(try await target.stats().photos == 0)
    }

    @Test func aSQLiteFileHeldByAnotherWriterIsBusy() async throws {
        // Given a library file whose write lock another store holds, and a store that does not wait for it
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("shelfscan-busy-\(UUID().uuidString)/library.sqlite").path
        let holder = try LibraryStore(path: path)
        let id = try await holder.file(photo(hash(2), [spine("Dune", authors: ["Frank Herbert"], position: 0)]))[0]
        let store = try LibraryStore(path: path, busyTimeout: 0)
        // (a write transaction held open across the await: GRDB allows that only when told to)
        var config = LibraryStore.makeConfiguration()
        config.allowsUnsafeTransactions = true
        let lock = try DatabaseQueue(path: path, configuration: config)
        try await lock.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        // When the store decides while the lock is held
        // Then the library is busy (not unopenable), and nothing was written
        await #expect {
            try await store.review(ReviewDecision(workID: id, action: .verify))
        } throws: { error in
            guard case let LibraryError.busy(location, _) = error else { return false }
            return location == path
        }
        try await lock.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        #expect(try await store.work(id: id)?.reviewStatus == .needsReview)
        #expect(try await store.review(ReviewDecision(workID: id, action: .verify)).resultingWorkID == id, "free again once the lock is gone")
    }

    @Test func theURLSetsThePoolSizeOrSaysWhyNot() throws {
        #expect(try PostgresLocation("postgres://me@db:5432/library?pool_size=12").poolSize == 12)
        #expect(try PostgresLocation("postgres://me@db:5432/library").poolSize == nil)
        for bad in ["0", "65", "many"] {
            #expect {
                try PostgresLocation("postgres://me@db:5432/library?pool_size=\(bad)")
            } throws: { error in
                guard case let LibraryError.cannotOpen(path, reason) = error else { return false }
                return path == "postgres://me@db:5432/library" && reason.contains("pool_size=\(bad)")
            }
        }
    }

    @Test(.enabled(if: Engine.serverURL != nil, "needs SHELFSCAN_TEST_POSTGRES_URL"))
    func aPoolSizeInTheURLIsTheStoresPool() async throws {
        let url = try await Engine.freshDatabaseURL()
        #expect(try await PostgresLibraryStore(url: url + "?pool_size=2", password: Engine.password, connections: 4).connections == 2)
        #expect(try await PostgresLibraryStore(url: url, password: Engine.password, connections: 3).connections == 3)
    }

    @Test(.enabled(if: Engine.serverURL != nil, "needs SHELFSCAN_TEST_POSTGRES_URL"))
    func aPostgresRowLockedByAnotherSessionIsBusyAndTheConnectionStays() async throws {
        // Given a pending Work whose row another session holds locked, and a store that waits 100 ms for a lock
        let url = try await Engine.freshDatabaseURL()
        let holder = try await PostgresLibraryStore(url: url, password: Engine.password)
        let id = try await holder.file(photo(hash(3), [spine("Dune", authors: ["Frank Herbert"], position: 0)]))[0]
        let store = try await PostgresLibraryStore(url: url + "?lock_timeout=100ms", password: Engine.password)
        #expect(store.lockTimeout == 0.1)
        try await holder.withLeasedConnection { connection in
            _ = try await connection.query("BEGIN", logger: holder.logger)
            _ = try await connection.query("SELECT id FROM work WHERE id = \(id) FOR UPDATE", logger: holder.logger)
            // When the store decides on it
            // Then the server's lock timeout is a busy library, not a lost connection or an unopenable one
            await #expect {
                try await store.review(ReviewDecision(workID: id, action: .verify))
            } throws: { error in
                guard case let LibraryError.busy(location, reason) = error else { return false }
                return location == store.locationDescription && reason.contains("lock timeout")
            }
            _ = try await connection.query("ROLLBACK", logger: holder.logger)
        }
        // And nothing was written, and the same connection decides once the lock is gone
        #expect(try await store.work(id: id)?.reviewStatus == .needsReview)
        #expect(try await store.review(ReviewDecision(workID: id, action: .verify)).resultingWorkID == id)
    }
}
