import BookModel
import Foundation
import Library
import LibraryCore
@testable import LibraryPostgres
import LibraryTestSupport
import Testing

func fakeJPEG(_ n: UInt8) -> [UInt8] { [0xFF, 0xD8, 0xFF, 0xE0, n, n, 0xFF, 0xD9] }

func spine(_ title: String?, authors: [String] = [], position: Int, isbn: String? = nil) -> SpineFiling {
    SpineFiling(title: title, authors: authors,
                boundingBox: BoundingBox(x: Double(position) * 0.05, y: 0.1, width: 0.04, height: 0.8),
                polygon: [[0, 0], [1, 0], [1, 1], [0, 1]], row: 0, position: position, detectionConfidence: 0.9,
                readingConfidence: title == nil ? nil : 0.8, readError: title == nil ? "no text" : nil, isbn: isbn,
                cropJPEG: fakeJPEG(UInt8(position)))
}

func photo(_ hash: String, _ spines: [SpineFiling]) -> PhotoFiling {
    PhotoFiling(contentHash: hash, originalImagePath: "/photos/\(hash.prefix(6)).jpg", imageWidth: 4000, imageHeight: 3000, spines: spines)
}

func hash(_ i: Int) -> String { String(format: "%064x", i) }

@Suite struct SharedStoreSuite {
    @Test(arguments: Engine.available)
    func filesAPhotoOnceWithItsCropAndAuthors(engine: Engine) async throws {
        // Given an empty library
        let store = try await engine.makeStore()
        // When a photo with three spines is filed, then filed again
        let ids = try await store.file(photo(hash(1), [spine("Dune", authors: ["Frank Herbert"], position: 0, isbn: "0441172717"),
                                                       spine(nil, position: 1), spine("Emma", authors: ["Jane Austen"], position: 2)]))
        let again = try await store.file(photo(hash(1), [spine("Other", position: 0)]))
        // Then three pending Works exist, once, with provenance, ISBN edition, authors and crop bytes
        #expect(ids.count == 3 && again.isEmpty)
        #expect(try await store.pendingCount() == 3)
        let dune = try #require(try await store.work(id: ids[0]))
        #expect(dune.title == "Dune" && dune.reviewStatus == .needsReview && dune.authors.map(\.name) == ["Frank Herbert"])
        #expect(dune.editions.first?.isbn == "0441172717")
        #expect(dune.spine?.photoContentHash == hash(1) && dune.spine?.position == 0)
        let crop = try #require(await store.cropURL(for: dune))
        #expect(try Data(contentsOf: crop) == Data(fakeJPEG(0)))
        let unread = try #require(try await store.work(id: ids[1]))
        #expect(unread.title == Work.unreadTitle && unread.spine?.readError == "no text")
        let status = try #require(try await store.photoStatus(contentHash: hash(1)))
        #expect(status.workCount == 3 && status.pendingCount == 3)
        #expect(try await store.pendingSummaries(limit: nil).map(\.title) == ["Dune", Work.unreadTitle, "Emma"])
        #expect(try await store.pendingSummaries(limit: nil).first?.authors == ["Frank Herbert"])
    }

    @Test(arguments: Engine.available)
    func listingEveryWorkMatchesReadingEachOne(engine: Engine) async throws {
        // Given pending Works with people and an ISBN edition, one of them verified into the library
        let store = try await engine.makeStore()
        var emma = spine("Emma", authors: ["Jane Austen"], position: 2)
        emma.textRunsUp = true
        let ids = try await store.file(photo(hash(7), [spine("Dune", authors: ["Frank Herbert", "Brian Herbert"], position: 0, isbn: "0441172717"),
                                                       spine(nil, position: 1), emma]))
        _ = try await store.review(ReviewDecision(workID: ids[0], action: .verify, session: "t"))
        // When the whole library is listed at once (the duplicate index, exports)
        let all = try await store.works(includePending: true)
        // Then each Work is what reading it alone gives: its people in order, its editions, its entry
        #expect(all.map(\.id) == ids)
        for work in all { await #expect(work == (try store.work(id: work.id!))) }
        #expect(all[0].authors.map(\.name) == ["Frank Herbert", "Brian Herbert"] && all[0].libraryEntry != nil)
        #expect(all[2].spine?.textRunsUp == true && all[0].spine?.textRunsUp == nil)
        #expect(try await store.works(includePending: false).map(\.id) == [ids[0]])
    }

    @Test(arguments: Engine.available)
    func staleDecisionIsRefusedAndNothingIsWrittenOver(engine: Engine) async throws {
        // Given a pending Work that one session edits
        let store = try await engine.makeStore()
        let id = try await store.file(photo(hash(2), [spine("Dnue", authors: ["Frank Herbert"], position: 0)]))[0]
        let seen = try #require(try await store.work(id: id)).revision
        _ = try await store.review(ReviewDecision(workID: id, action: .edit(WorkEdit(title: "Dune")), expectedRevision: seen, session: "a"))
        // When another session decides on the revision it saw before
        await #expect(throws: LibraryError.conflict(id, expected: seen, actual: seen + 1)) {
            try await store.review(ReviewDecision(workID: id, action: .reject, expectedRevision: seen, session: "b"))
        }
        // Then the first decision stands
        let work = try #require(try await store.work(id: id))
        #expect(work.title == "Dune" && work.reviewStatus == .userEdited)
        #expect(try await store.stats().userEdited == 1)
        #expect(try await store.stats().pending == 0)
        #expect(try await store.stats().decisions == 1)
    }

    @Test(arguments: Engine.available)
    func verifyPutsTheWorkInTheLibraryAndRejectRemovesIt(engine: Engine) async throws {
        let store = try await engine.makeStore()
        let ids = try await store.file(photo(hash(3), [spine("Dune", authors: ["Frank Herbert"], position: 0), spine("Junk", position: 1)]))
        await #expect(throws: LibraryError.self, "no author: refused on both engines") { try await store.review(ReviewDecision(workID: ids[1], action: .verify)) }
        let verified = try await store.review(ReviewDecision(workID: ids[0], action: .verify))
        let rejected = try await store.review(ReviewDecision(workID: ids[1], action: .reject))
        #expect(verified.resultingWorkID == ids[0] && rejected.resultingWorkID == nil)
        let stats = try await store.stats()
        #expect(stats.works == 1 && stats.verified == 1 && stats.pending == 0 && stats.owned == 1 && stats.byReadingStatus["toRead"] == 1)
        #expect(try await store.librarySummaries(limit: nil).map(\.title) == ["Dune"])
        #expect(try await store.work(id: ids[1]) == nil)
        await #expect(throws: LibraryError.notPending(ids[0], .verified)) { try await store.review(ReviewDecision(workID: ids[0], action: .verify)) }
        #expect(try await store.journal(limit: 10).map(\.kind) == ["reject", "verify"])
    }

    @Test(arguments: Engine.available)
    func migrationsAreAllApplied(engine: Engine) async throws {
        let store = try await engine.makeStore()
        let applied = try await store.appliedMigrations()
        #expect(Array(applied.prefix(3)) == ["v1 works, editions, authors, entries", "v2 photos, spines and crops", "v3 review cursors"])
    }
}

@Suite(.enabled(if: Engine.serverURL != nil, "needs SHELFSCAN_TEST_POSTGRES_URL (scripts/test starts a server)"))
struct PostgresTeamTests {
    @Test func twoReviewersNeverGetTheSameWork() async throws {
        // Given three pending Works and two reviewers on their own connections
        let url = try await Engine.freshDatabaseURL()
        let a = try await PostgresLibraryStore(url: url, password: Engine.password)
        let b = try await PostgresLibraryStore(url: url, password: Engine.password)
        _ = try await a.file(photo(hash(10), [spine("One", position: 0), spine("Two", position: 1), spine("Three", position: 2)]))
        // When both ask for the next Work
        let first = try #require(try await a.claimNextPending(reviewer: "ann", lease: 60))
        let second = try #require(try await b.claimNextPending(reviewer: "bob", lease: 60))
        // Then they differ; asking again keeps one's own claim; the other's Work is refused with who holds it
        #expect(first.work.id != second.work.id)
        #expect(try await a.claimNextPending(reviewer: "ann", lease: 60)?.work.id == first.work.id)
        await #expect(throws: LibraryError.claimedByOther(second.work.id!, reviewer: "bob")) {
            try await a.review(ReviewDecision(workID: second.work.id!, action: .verify, session: "ann"))
        }
        // And an expired claim is free again: the lease is run out in the database (whose clock judges it),
        // not waited out
        let third = try #require(try await a.claimNextPending(reviewer: "cy", lease: 60))
        #expect(try await b.claimNextPending(reviewer: "dee", lease: 60)?.work.id != third.work.id, "held by a live lease")
        _ = try await a.read { tx in try tx.query("UPDATE reviewClaim SET expiresAt = now() - interval '1 second' WHERE reviewer = 'cy'") }
        #expect(try await b.claimNextPending(reviewer: "dee", lease: 60)?.work.id == third.work.id)
    }

    @Test func readingTheQueueHoldsNothingAndPassesOverWhatOthersHold() async throws {
        // Given two pending Works and two stores on their own connections
        let url = try await Engine.freshDatabaseURL()
        let a = try await PostgresLibraryStore(url: url, password: Engine.password)
        let b = try await PostgresLibraryStore(url: url, password: Engine.password)
        let ids = try await a.file(photo(hash(11), [spine("One", position: 0), spine("Two", position: 1)]))
        // When one reads the queue's head, as on SQLite, and another reviewer then claims the next Work
        #expect(try await a.nextPending()?.work.id == ids[0])
        // Then the read held nothing: the other reviewer is given that same Work
        #expect(try await b.claimNextPending(reviewer: "bob", lease: 60)?.work.id == ids[0])
        // And reading again passes over the Work bob holds, forwards and backwards
        #expect(try await a.nextPending()?.work.id == ids[1])
        #expect(try await a.previousPending(before: ids[1]) == nil)
    }

    @Test func threeReviewersDecidingAtOnceDecideEveryWorkExactlyOnce() async throws {
        // Given 60 pending Works
        let url = try await Engine.freshDatabaseURL()
        let setup = try await PostgresLibraryStore(url: url, password: Engine.password)
        for p in 0..<6 { _ = try await setup.file(photo(hash(100 + p), (0..<10).map { spine("Book \(p)-\($0)", authors: ["A. Writer"], position: $0) })) }
        // When three reviewers, each on its own connection, claim and verify until the queue is empty
        let decided = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for name in ["ann", "bob", "cy"] {
                group.addTask {
                    let store = try await PostgresLibraryStore(url: url, password: Engine.password)
                    var mine: [Int64] = []
                    while let item = try await store.claimNextPending(reviewer: name, lease: 60) {
                        let receipt = try await store.review(ReviewDecision(workID: item.work.id!, action: .verify,
                                                                            expectedRevision: item.work.revision, session: name))
                        mine.append(receipt.workID)
                    }
                    return mine
                }
            }
            var all: [[Int64]] = []
            for try await ids in group { all.append(ids) }
            return all
        }
        // Then every Work was decided once, by exactly one reviewer, and every decision is in the journal
        let all = decided.flatMap { $0 }
        #expect(all.count == 60 && Set(all).count == 60)
        let stats = try await setup.stats()
        #expect(stats.pending == 0 && stats.verified == 60 && stats.decisions == 60)
    }

    @Test func concurrentWorkersFileEachPhotoOnce() async throws {
        // Given two workers filing the same 20 photos at once, each claiming before filing
        let url = try await Engine.freshDatabaseURL()
        _ = try await PostgresLibraryStore(url: url, password: Engine.password)
        let filed = try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in ["w1", "w2"] {
                group.addTask {
                    let store = try await PostgresLibraryStore(url: url, password: Engine.password)
                    var n = 0
                    for i in 0..<20 where try await store.claimPhoto(contentHash: hash(200 + i), worker: worker, lease: 60) {
                        await n += try store.file(photo(hash(200 + i), [spine("P\(i)", position: 0), spine("Q\(i)", position: 1)])).isEmpty ? 0 : 1
                    }
                    return n
                }
            }
            var total = 0
            for try await n in group { total += n }
            return total
        }
        // Then each photo was filed exactly once, by one worker
        let store = try await PostgresLibraryStore(url: url, password: Engine.password)
        #expect(filed == 20)
        #expect(try await store.stats().photos == 20)
        #expect(try await store.stats().works == 40)
    }

    @Test func aDeadWorkersLeaseRunsOutAndAnotherTakesThePhoto() async throws {
        let url = try await Engine.freshDatabaseURL()
        let a = try await PostgresLibraryStore(url: url, password: Engine.password)
        let b = try await PostgresLibraryStore(url: url, password: Engine.password)
        #expect(try await a.claimPhoto(contentHash: hash(300), worker: "a", lease: 60))
        #expect(try await !b.claimPhoto(contentHash: hash(300), worker: "b", lease: 60), "held by a live lease")
        // a dies; its lease runs out, in the database's time (set there, not waited for)
        _ = try await a.read { tx in try tx.query("UPDATE photoClaim SET expiresAt = now() - interval '1 second' WHERE contentHash = \(hash(300))") }
        #expect(try await b.claimPhoto(contentHash: hash(300), worker: "b", lease: 60), "a's lease ran out")
        _ = try await b.file(photo(hash(300), [spine("X", position: 0)]))
        #expect(try await !a.claimPhoto(contentHash: hash(300), worker: "a", lease: 60), "filed photos are never claimed again")
    }

    @Test func aDroppedConnectionIsReconnectedOnceAndNothingIsFiledTwice() async throws {
        // Given a library with one photo filed through store a, whose statements wait at most 5 s: a killed
        // session is sometimes only noticed when a statement goes unanswered
        let url = try Engine.withStatementTimeout(try await Engine.freshDatabaseURL(), seconds: 5)
        let a = try await PostgresLibraryStore(url: url, password: Engine.password)
        let b = try await PostgresLibraryStore(url: url, password: Engine.password)
        _ = try await a.file(photo(hash(400), [spine("X", position: 0)]))
        // When the server ends a's session, as a restart does
        let ended = try await b.read { tx in
            try tx.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
        }
        #expect(ended.count >= 1)
        // Then a's next call reconnects and works, and filing the photo again still files nothing
        #expect(try await a.pendingCount() == 1)
        #expect(try await a.file(photo(hash(400), [spine("X", position: 0)])).isEmpty)
        #expect(try await a.stats().photos == 1)
    }

    /// No hang: bounded by the test's time limit rather than a clock read here, which on a busy machine measures
    /// the wait for a free thread as much as the store.
    @Test(.timeLimit(.minutes(1)))
    func wrongPasswordOrNoServerIsOneClearError() async throws {
        let url = try #require(Engine.serverURL)
        await #expect {
            try await PostgresLibraryStore(url: url, password: "wrong")
        } throws: { error in
            guard case let LibraryError.cannotOpen(path, reason) = error else { return false }
            return path.hasPrefix("postgres://") && reason.contains("password") && !"\(error)".contains("wrong")
        }
        await #expect {
            try await PostgresLibraryStore(url: "postgres://shelfscan@127.0.0.1:1/none", password: nil, connectTimeout: 3)
        } throws: { error in
            guard case LibraryError.cannotOpen = error else { return false }
            return true
        }
        await #expect(throws: LibraryError.self) { try await PostgresLibraryStore(url: "postgres://u:secret@127.0.0.1/db", password: nil) }
    }
}
