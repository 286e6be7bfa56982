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
    func filesAPhotoOnceWithItsCropAndAuthors(engine: Engine) throws {
        // Given an empty library
        let store = try engine.makeStore()
        // When a photo with three spines is filed, then filed again
        let ids = try store.file(photo(hash(1), [spine("Dune", authors: ["Frank Herbert"], position: 0, isbn: "0441172717"),
                                                 spine(nil, position: 1), spine("Emma", authors: ["Jane Austen"], position: 2)]))
        let again = try store.file(photo(hash(1), [spine("Other", position: 0)]))
        // Then three pending Works exist, once, with provenance, ISBN edition, authors and crop bytes
        #expect(ids.count == 3 && again.isEmpty)
        #expect(try store.pendingCount() == 3)
        let dune = try #require(try store.work(id: ids[0]))
        #expect(dune.title == "Dune" && dune.reviewStatus == .needsReview && dune.authors.map(\.name) == ["Frank Herbert"])
        #expect(dune.editions.first?.isbn == "0441172717")
        #expect(dune.spine?.photoContentHash == hash(1) && dune.spine?.position == 0)
        let crop = try #require(store.cropURL(for: dune))
        #expect(try Data(contentsOf: crop) == Data(fakeJPEG(0)))
        let unread = try #require(try store.work(id: ids[1]))
        #expect(unread.title == Work.unreadTitle && unread.spine?.readError == "no text")
        let status = try #require(try store.photoStatus(contentHash: hash(1)))
        #expect(status.workCount == 3 && status.pendingCount == 3)
        #expect(try store.pendingSummaries(limit: nil).map(\.title) == ["Dune", Work.unreadTitle, "Emma"])
        #expect(try store.pendingSummaries(limit: nil).first?.authors == ["Frank Herbert"])
    }

    @Test(arguments: Engine.available)
    func listingEveryWorkMatchesReadingEachOne(engine: Engine) throws {
        // Given pending Works with people and an ISBN edition, one of them verified into the library
        let store = try engine.makeStore()
        var emma = spine("Emma", authors: ["Jane Austen"], position: 2)
        emma.textRunsUp = true
        let ids = try store.file(photo(hash(7), [spine("Dune", authors: ["Frank Herbert", "Brian Herbert"], position: 0, isbn: "0441172717"),
                                                 spine(nil, position: 1), emma]))
        _ = try store.review(ReviewDecision(workID: ids[0], action: .verify, session: "t"))
        // When the whole library is listed at once (the duplicate index, exports)
        let all = try store.works(includePending: true)
        // Then each Work is what reading it alone gives: its people in order, its editions, its entry
        #expect(all.map(\.id) == ids)
        for work in all { #expect(work == (try store.work(id: work.id!))) }
        #expect(all[0].authors.map(\.name) == ["Frank Herbert", "Brian Herbert"] && all[0].libraryEntry != nil)
        #expect(all[2].spine?.textRunsUp == true && all[0].spine?.textRunsUp == nil)
        #expect(try store.works(includePending: false).map(\.id) == [ids[0]])
    }

    @Test(arguments: Engine.available)
    func staleDecisionIsRefusedAndNothingIsWrittenOver(engine: Engine) throws {
        // Given a pending Work that one session edits
        let store = try engine.makeStore()
        let id = try store.file(photo(hash(2), [spine("Dnue", authors: ["Frank Herbert"], position: 0)]))[0]
        let seen = try #require(try store.work(id: id)).revision
        _ = try store.review(ReviewDecision(workID: id, action: .edit(WorkEdit(title: "Dune")), expectedRevision: seen, session: "a"))
        // When another session decides on the revision it saw before
        #expect(throws: LibraryError.conflict(id, expected: seen, actual: seen + 1)) {
            try store.review(ReviewDecision(workID: id, action: .reject, expectedRevision: seen, session: "b"))
        }
        // Then the first decision stands
        let work = try #require(try store.work(id: id))
        #expect(work.title == "Dune" && work.reviewStatus == .userEdited)
        #expect(try store.stats().userEdited == 1 && store.stats().pending == 0 && store.stats().decisions == 1)
    }

    @Test(arguments: Engine.available)
    func verifyPutsTheWorkInTheLibraryAndRejectRemovesIt(engine: Engine) throws {
        let store = try engine.makeStore()
        let ids = try store.file(photo(hash(3), [spine("Dune", authors: ["Frank Herbert"], position: 0), spine("Junk", position: 1)]))
        #expect(throws: LibraryError.self, "no author: refused on both engines") { try store.review(ReviewDecision(workID: ids[1], action: .verify)) }
        let verified = try store.review(ReviewDecision(workID: ids[0], action: .verify))
        let rejected = try store.review(ReviewDecision(workID: ids[1], action: .reject))
        #expect(verified.resultingWorkID == ids[0] && rejected.resultingWorkID == nil)
        let stats = try store.stats()
        #expect(stats.works == 1 && stats.verified == 1 && stats.pending == 0 && stats.owned == 1 && stats.byReadingStatus["toRead"] == 1)
        #expect(try store.librarySummaries(limit: nil).map(\.title) == ["Dune"])
        #expect(try store.work(id: ids[1]) == nil)
        #expect(throws: LibraryError.notPending(ids[0], .verified)) { try store.review(ReviewDecision(workID: ids[0], action: .verify)) }
        #expect(try store.journal(limit: 10).map(\.kind) == ["reject", "verify"])
    }

    @Test(arguments: Engine.available)
    func migrationsAreAllApplied(engine: Engine) throws {
        let store = try engine.makeStore()
        let applied = try store.appliedMigrations()
        #expect(Array(applied.prefix(3)) == ["v1 works, editions, authors, entries", "v2 photos, spines and crops", "v3 review cursors"])
    }
}

@Suite(.enabled(if: Engine.serverURL != nil, "needs SHELFSCAN_TEST_POSTGRES_URL (scripts/test starts a server)"))
struct PostgresTeamTests {
    @Test func twoReviewersNeverGetTheSameWork() throws {
        // Given three pending Works and two reviewers on their own connections
        let url = try Engine.freshDatabaseURL()
        let a = try PostgresLibraryStore(url: url, password: Engine.password)
        let b = try PostgresLibraryStore(url: url, password: Engine.password)
        _ = try a.file(photo(hash(10), [spine("One", position: 0), spine("Two", position: 1), spine("Three", position: 2)]))
        // When both ask for the next Work
        let first = try #require(try a.claimNextPending(reviewer: "ann", lease: 60))
        let second = try #require(try b.claimNextPending(reviewer: "bob", lease: 60))
        // Then they differ; asking again keeps one's own claim; the other's Work is refused with who holds it
        #expect(first.work.id != second.work.id)
        #expect(try a.claimNextPending(reviewer: "ann", lease: 60)?.work.id == first.work.id)
        #expect(throws: LibraryError.claimedByOther(second.work.id!, reviewer: "bob")) {
            try a.review(ReviewDecision(workID: second.work.id!, action: .verify, session: "ann"))
        }
        // And an expired claim is free again: the lease is run out in the database (whose clock judges it),
        // not waited out
        let third = try #require(try a.claimNextPending(reviewer: "cy", lease: 60))
        #expect(try b.claimNextPending(reviewer: "dee", lease: 60)?.work.id != third.work.id, "held by a live lease")
        _ = try a.read { try a.query("UPDATE reviewClaim SET expiresAt = now() - interval '1 second' WHERE reviewer = 'cy'") }
        #expect(try b.claimNextPending(reviewer: "dee", lease: 60)?.work.id == third.work.id)
    }

    @Test func readingTheQueueHoldsNothingAndPassesOverWhatOthersHold() throws {
        // Given two pending Works and two stores on their own connections
        let url = try Engine.freshDatabaseURL()
        let a = try PostgresLibraryStore(url: url, password: Engine.password)
        let b = try PostgresLibraryStore(url: url, password: Engine.password)
        let ids = try a.file(photo(hash(11), [spine("One", position: 0), spine("Two", position: 1)]))
        // When one reads the queue's head, as on SQLite, and another reviewer then claims the next Work
        #expect(try a.nextPending()?.work.id == ids[0])
        // Then the read held nothing: the other reviewer is given that same Work
        #expect(try b.claimNextPending(reviewer: "bob", lease: 60)?.work.id == ids[0])
        // And reading again passes over the Work bob holds, forwards and backwards
        #expect(try a.nextPending()?.work.id == ids[1])
        #expect(try a.previousPending(before: ids[1]) == nil)
    }

    @Test func threeReviewersDecidingAtOnceDecideEveryWorkExactlyOnce() async throws {
        // Given 60 pending Works
        let url = try Engine.freshDatabaseURL()
        let setup = try PostgresLibraryStore(url: url, password: Engine.password)
        for p in 0..<6 { _ = try setup.file(photo(hash(100 + p), (0..<10).map { spine("Book \(p)-\($0)", authors: ["A. Writer"], position: $0) })) }
        // When three reviewers, each on its own connection, claim and verify until the queue is empty
        let decided = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for name in ["ann", "bob", "cy"] {
                group.addTask {
                    let store = try PostgresLibraryStore(url: url, password: Engine.password)
                    var mine: [Int64] = []
                    while let item = try store.claimNextPending(reviewer: name, lease: 60) {
                        let receipt = try store.review(ReviewDecision(workID: item.work.id!, action: .verify,
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
        let stats = try setup.stats()
        #expect(stats.pending == 0 && stats.verified == 60 && stats.decisions == 60)
    }

    @Test func concurrentWorkersFileEachPhotoOnce() async throws {
        // Given two workers filing the same 20 photos at once, each claiming before filing
        let url = try Engine.freshDatabaseURL()
        _ = try PostgresLibraryStore(url: url, password: Engine.password)
        let filed = try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in ["w1", "w2"] {
                group.addTask {
                    let store = try PostgresLibraryStore(url: url, password: Engine.password)
                    var n = 0
                    for i in 0..<20 where try store.claimPhoto(contentHash: hash(200 + i), worker: worker, lease: 60) {
                        n += try store.file(photo(hash(200 + i), [spine("P\(i)", position: 0), spine("Q\(i)", position: 1)])).isEmpty ? 0 : 1
                    }
                    return n
                }
            }
            var total = 0
            for try await n in group { total += n }
            return total
        }
        // Then each photo was filed exactly once, by one worker
        let store = try PostgresLibraryStore(url: url, password: Engine.password)
        #expect(filed == 20)
        #expect(try store.stats().photos == 20 && store.stats().works == 40)
    }

    @Test func aDeadWorkersLeaseRunsOutAndAnotherTakesThePhoto() throws {
        let url = try Engine.freshDatabaseURL()
        let a = try PostgresLibraryStore(url: url, password: Engine.password)
        let b = try PostgresLibraryStore(url: url, password: Engine.password)
        #expect(try a.claimPhoto(contentHash: hash(300), worker: "a", lease: 60))
        #expect(try !b.claimPhoto(contentHash: hash(300), worker: "b", lease: 60), "held by a live lease")
        // a dies; its lease runs out, in the database's time (set there, not waited for)
        _ = try a.read { try a.query("UPDATE photoClaim SET expiresAt = now() - interval '1 second' WHERE contentHash = \(hash(300))") }
        #expect(try b.claimPhoto(contentHash: hash(300), worker: "b", lease: 60), "a's lease ran out")
        _ = try b.file(photo(hash(300), [spine("X", position: 0)]))
        #expect(try !a.claimPhoto(contentHash: hash(300), worker: "a", lease: 60), "filed photos are never claimed again")
    }

    @Test func aDroppedConnectionIsReconnectedOnceAndNothingIsFiledTwice() throws {
        // Given a library with one photo filed through store a, whose statements wait at most 5 s: a killed
        // session is sometimes only noticed when a statement goes unanswered
        let url = try Engine.withStatementTimeout(try Engine.freshDatabaseURL(), seconds: 5)
        let a = try PostgresLibraryStore(url: url, password: Engine.password)
        let b = try PostgresLibraryStore(url: url, password: Engine.password)
        _ = try a.file(photo(hash(400), [spine("X", position: 0)]))
        // When the server ends a's session, as a restart does
        let ended = try b.read {
            try b.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
        }
        #expect(ended.count >= 1)
        // Then a's next call reconnects and works, and filing the photo again still files nothing
        #expect(try a.pendingCount() == 1)
        #expect(try a.file(photo(hash(400), [spine("X", position: 0)])).isEmpty)
        #expect(try a.stats().photos == 1)
    }

    @Test func wrongPasswordOrNoServerIsOneClearError() throws {
        let url = try #require(Engine.serverURL)
        let start = Date()
        #expect {
            try PostgresLibraryStore(url: url, password: "wrong")
        } throws: { error in
            guard case let LibraryError.cannotOpen(path, reason) = error else { return false }
            return path.hasPrefix("postgres://") && reason.contains("password") && !"\(error)".contains("wrong")
        }
        #expect {
            try PostgresLibraryStore(url: "postgres://shelfscan@127.0.0.1:1/none", password: nil, connectTimeout: 3)
        } throws: { error in
            guard case LibraryError.cannotOpen = error else { return false }
            return true
        }
        #expect(throws: LibraryError.self) { try PostgresLibraryStore(url: "postgres://u:secret@127.0.0.1/db", password: nil) }
        #expect(Date().timeIntervalSince(start) < 10, "no hang")
    }
}
