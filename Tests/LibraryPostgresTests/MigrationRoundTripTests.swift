import BookModel
import Foundation
import Library
import LibraryCore
@testable import LibraryPostgres
import LibraryTestSupport
import ShelfScanTestSupport
import Testing

/// `library migrate` copies a library exactly, both ways: a library made by several scan workers and reviewers,
/// with undo, split and join, and timestamps finer than a millisecond, goes from one engine to the other and back
/// with the same counts and the same checksum bytes at every step.
@Suite(.enabled(if: Engine.serverURL != nil, "needs SHELFSCAN_TEST_POSTGRES_URL (scripts/test starts a server)"))
struct MigrationRoundTripTests {
    /// 2026-11-18 11:06:40.105736 UTC: microseconds PostgreSQL would keep and SQLite would not.
    static let start = Date(timeIntervalSince1970: 1_795_000_000.105_736)
    static func at(_ step: Double) -> Date { start.addingTimeInterval(step * 0.000_731_9) }

    /// Two workers file two photos each (claiming first, as `scan` does); two reviewers verify, edit, reject and
    /// merge, one undoes a decision, one splits a box and joins two; both leave a cursor.
    static func build(workers: [any LibraryStoring], reviewers: [any LibraryStoring]) async throws {
        var filed: [[Work.ID]] = []
        for p in 0..<4 {
            let worker = workers[p % workers.count]
            #expect(try await worker.claimPhoto(contentHash: hash(500 + p), worker: "w\(p % workers.count)", lease: 60))
            filed.append(try await worker.file(photo(hash(500 + p), [spine("Kindred \(p)", authors: ["Octavia E. Butler"], position: 0),
                                                                      spine(nil, position: 1),
                                                                      spine("Noise \(p)", authors: ["Daniel Kahneman"], position: 2, isbn: "0441172717")]),
                                         replacePending: false, date: at(Double(p))))
            try await worker.releasePhoto(contentHash: hash(500 + p), worker: "w\(p % workers.count)")
        }
        let (ann, bob) = (reviewers[0], reviewers[1 % reviewers.count])
        _ = try await ann.review(ReviewDecision(workID: filed[0][0], action: .verify, session: "ann"), defaults: ReviewDefaults(), date: at(10))
        _ = try await bob.review(ReviewDecision(workID: filed[1][0], action: .edit(WorkEdit(title: "Kindred", readingStatus: .reading)), session: "bob"),
                                 defaults: ReviewDefaults(), date: at(11))
        _ = try await bob.review(ReviewDecision(workID: filed[1][1], action: .reject, session: "bob"), defaults: ReviewDefaults(), date: at(12))
        _ = try await ann.review(ReviewDecision(workID: filed[2][0], action: .merge(into: filed[0][0]), session: "ann"),
                                 defaults: ReviewDefaults(), date: at(13))
        _ = try await ann.review(ReviewDecision(workID: filed[3][2], action: .verify, session: "ann"), defaults: ReviewDefaults(readingStatus: .read), date: at(14))
        _ = try await ann.undoLast(session: "ann", date: at(15))
        let halves = [0.0, 0.02].map { x in
            SpinePiece(boundingBox: BoundingBox(x: x, y: 0.1, width: 0.02, height: 0.8), polygon: [[x, 0.1], [x + 0.02, 0.9]], cropJPEG: fakeJPEG(9))
        }
        let split = try await bob.reshape([filed[2][1]], into: halves, kind: "split", expectedRevisions: [:], session: "bob", date: at(16))
        let whole = SpinePiece(boundingBox: BoundingBox(x: 0.1, y: 0.1, width: 0.09, height: 0.8), polygon: [], cropJPEG: fakeJPEG(7),
                               title: "Noise", authors: ["Daniel Kahneman"])
        _ = try await ann.reshape([filed[3][0], filed[3][1]], into: [whole], kind: "join", expectedRevisions: [:], session: "ann", date: at(17))
        _ = try await bob.review(ReviewDecision(workID: split.created[0], action: .reject, session: "bob"), defaults: ReviewDefaults(), date: at(18))
        try await ann.saveCursor(filed[3][2], session: "ann", date: at(19))
        try await bob.saveCursor(nil, session: "bob", date: at(20))
    }

    /// Copies `source` into `target` as `library migrate` does and checks the copy: same counts, same bytes.
    @discardableResult
    static func migrate(_ source: any LibraryStoring, to target: any LibraryStoring) async throws -> LibraryDump {
        let original = try await source.dump()
        try await target.restore(original)
        let copy = try await target.dump()
        #expect(copy.counts.map(\.rows) == original.counts.map(\.rows), "\(source.locationDescription) → \(target.locationDescription)")
        #expect(difference(copy, original) == nil, "\(source.locationDescription) → \(target.locationDescription)")
        return copy
    }

    /// The first row whose checksum bytes differ, named so a failure reads as a row, not two byte arrays.
    static func difference(_ a: LibraryDump, _ b: LibraryDump) -> String? {
        if a.canonicalBytes() == b.canonicalBytes() { return nil }
        for table in LibraryDump.tables {
            let (left, right) = (a.rows[table.name] ?? [], b.rows[table.name] ?? [])
            for (i, (x, y)) in zip(left, right).enumerated()
            where LibraryDump(rows: [table.name: [x]]).canonicalBytes() != LibraryDump(rows: [table.name: [y]]).canonicalBytes() {
                return "\(table.name) row \(i): \(x) ≠ \(y)"
            }
            if left.count != right.count { return "\(table.name): \(left.count) rows ≠ \(right.count)" }
        }
        return "crops"
    }

    @Test func sqliteToPostgresAndBackIsExact() async throws {
        // Given a SQLite library made by two processes on one file
        let first = try #require(try await Engine.sqlite.makeStore() as? LibraryStore)
        let second = try LibraryStore(path: try #require(first.path))
        try await Self.build(workers: [first, second], reviewers: [second, first])
        let original = try await first.dump()
        #expect(original.counts.allSatisfy { $0.rows > 0 }, "every table has rows: \(original.counts)")
        // When it is copied to PostgreSQL and from there to a new SQLite file
        let server = try await Engine.postgres.makeStore()
        try await Self.migrate(first, to: server)
        let back = try await Self.migrate(server, to: try await Engine.sqlite.makeStore())
        // Then the last copy is the original, byte for byte
        #expect(Self.difference(back, original) == nil)
        #expect(back.rows == original.rows)
    }

    @Test func postgresToSQLiteAndBackIsExact() async throws {
        // Given a PostgreSQL library made by two workers and two reviewers, each on a connection of its own
        let url = try await Engine.freshDatabaseURL()
        let stores = try await (0..<3).asyncMap { _ in try await PostgresLibraryStore(url: url, password: Engine.password) }
        try await Self.build(workers: [stores[0], stores[1]], reviewers: [stores[1], stores[2]])
        // and one photo's time as a library written before timestamps were kept to the millisecond has it
        try await stores[0].transaction { tx in try tx.query("UPDATE photo SET filedAt = filedAt + interval '737 microseconds' WHERE id = 1") }
        let original = try await stores[0].dump()
        #expect(original.counts.allSatisfy { $0.rows > 0 }, "every table has rows: \(original.counts)")
        // When it is copied to SQLite and from there to a new PostgreSQL database
        let file = try await Engine.sqlite.makeStore()
        try await Self.migrate(stores[0], to: file)
        let back = try await Self.migrate(file, to: try await Engine.postgres.makeStore())
        // Then the last copy has the original's counts and checksum bytes
        #expect(back.counts.map(\.rows) == original.counts.map(\.rows) && Self.difference(back, original) == nil)
    }

    @Test func bothEnginesKeepTheSameInstantForTheSameWrite() async throws {
        // Given the same photo filed at the same sub-millisecond instant on each engine
        let stored = try await Engine.available.asyncMap { engine -> Date in
            let store = try await engine.makeStore()
            _ = try await store.file(photo(hash(600), [spine("Dune", position: 0)]), replacePending: false, date: Self.start)
            return try #require(try await store.photoStatus(contentHash: hash(600))).filedAt
        }
        // Then both keep the same whole millisecond
        #expect(stored.map(\.storedMilliseconds) == [1_795_000_000_106, 1_795_000_000_106])
        #expect(stored.allSatisfy { abs($0.timeIntervalSince1970 - 1_795_000_000.106) < 0.000_001 })
    }

    @Test func bothEnginesStoreTheSameRowsForTheSameWrites() async throws {
        // Given the same spine on each engine, with every kind of column a Work has: lists and a nested value
        // (JSON text), an enum, booleans, reals and dates; then verified and edited at the same instants
        var read = spine("Dune", authors: ["Frank Herbert"], position: 0, isbn: "9780441172719")
        read.enrichmentStatus = EnrichmentStatus(state: .candidatesOnly, provider: "openlibrary", score: 0.61,
                                                 failures: [EnrichmentStatus.Failure(provider: "googlebooks", code: "PROVIDER_TIMEOUT")], requests: 3)
        read.textRunsUp = true
        let dumps = try await [Engine.sqlite, Engine.postgres].asyncMap { engine -> LibraryDump in
            let store = try await engine.makeStore()
            let id = try await store.file(photo(hash(601), [read]), replacePending: false, date: Self.start)[0]
            _ = try await store.review(ReviewDecision(workID: id, action: .verify), defaults: ReviewDefaults(), date: Self.at(1))
            _ = try await store.review(ReviewDecision(workID: id, action: .edit(WorkEdit(firstPublicationYear: 1965, readingStatus: .reading))),
                                       defaults: ReviewDefaults(), date: Self.at(2))
            return try await store.dump()
        }
        // Then the Work's rows are the same, value for value (the crop's file name, random, aside)
        for table in ["work", "author", "credit", "edition", "libraryEntry"] {
            let columns = LibraryDump.tables.first { $0.name == table }!.columns.map(\.name)
            func comparable(_ dump: LibraryDump) -> [[String: LibraryDump.Value]] {
                (dump.rows[table] ?? []).map { row in
                    Dictionary(uniqueKeysWithValues: zip(columns, row).filter { $0.0 != "cropFile" })
                }
            }
            #expect(comparable(dumps[0]) == comparable(dumps[1]), "\(table)")
        }
    }
}
