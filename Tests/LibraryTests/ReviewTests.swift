import BookModel
import Foundation
import Testing
@testable import Library
@testable import LibraryCore
import LibraryTestSupport

@Suite struct Decisions {
    @Test(arguments: Engine.available)
    func verifyFilesAnOwnedToReadCopyAndUndoPutsItBack(engine: Engine) async throws {
        let store = try await engine.makeStore()
        let (ids, _) = try await seed(store)
        defer { removeTemporary(store.cropsDirectory) }
        let before = try #require(try await store.work(id: ids[2]))
        let receipt = try await store.review(ReviewDecision(workID: ids[2], action: .verify, expectedRevision: before.revision))
        let after = try #require(try await store.work(id: ids[2]))
        #expect(after.reviewStatus == .verified && after.isOwned && after.libraryEntry?.readingStatus == .toRead)
        #expect(after.editions.count == 1 && after.revision == before.revision + 1)
        #expect(receipt.summary.contains("The Dispossessed"))
        #expect(try await store.pendingCount() == 2)

        let undo = try await store.undoLast()
        #expect(undo.restoredWorkIDs == [ids[2]] && undo.journalID == receipt.journalID)
        let restored = try #require(try await store.work(id: ids[2]))
        #expect(restored.reviewStatus == .needsReview && restored.libraryEntry == nil && restored.editions.isEmpty)
        #expect(restored.title == before.title && restored.authors.map(\.name) == ["Ursula K. Le Guin"])
        #expect(try await store.pendingCount() == 3)
    }

    @Test(arguments: Engine.available)
    func verifyDefaultsAreConfigurable(engine: Engine) async throws {
        let store = try await engine.makeStore()
        let (ids, _) = try await seed(store)
        defer { removeTemporary(store.cropsDirectory) }
        try await store.review(ReviewDecision(workID: ids[2], action: .verify), defaults: ReviewDefaults(readingStatus: .wishlist, owned: false))
        let w = try #require(try await store.work(id: ids[2]))
        #expect(w.isOnWishlist && !w.isOwned && w.editions.isEmpty)
        try await store.review(ReviewDecision(workID: ids[0], action: .verify), defaults: ReviewDefaults(readingStatus: .read))
        let d = try #require(try await store.work(id: ids[0]))
        #expect(d.libraryEntry?.readingStatus == .read && d.libraryEntry?.dateCompleted != nil && d.isOwned)
    }

    @Test(arguments: Engine.available)
    func anUnreadSpineCannotBeVerifiedUntilEdited(engine: Engine) async throws {
        let store = try await engine.makeStore()
        let (ids, _) = try await seed(store)
        defer { removeTemporary(store.cropsDirectory) }
        await #expect(throws: LibraryError.self) { try await store.review(ReviewDecision(workID: ids[1], action: .verify)) }
        #expect(try await store.work(id: ids[1])?.reviewStatus == .needsReview)
        #expect(try await store.journal().isEmpty, "a refused decision leaves no journal row")
    }

    @Test(arguments: Engine.available)
    func editValidatesThenAppliesAndUndoes(engine: Engine) async throws {
        let store = try await engine.makeStore()
        let (ids, _) = try await seed(store)
        defer { removeTemporary(store.cropsDirectory) }
        let before = try #require(try await store.work(id: ids[1]))
        // An invalid edit changes nothing and says which rule it broke
        do {
            try await store.review(ReviewDecision(workID: ids[1], action: .edit(WorkEdit(title: "  ", authors: ["Ann Leckie"]))))
            Issue.record("expected a validation error")
        } catch let LibraryError.invalid(id, error) {
            #expect(id == ids[1] && error.issues.map(\.field) == ["title"])
        }
        await #expect(throws: LibraryError.self) {
            try await store.review(ReviewDecision(workID: ids[1], action: .edit(WorkEdit(title: "Ancillary Justice", isbn: "9780316246621"))))
        }
        #expect(try await store.work(id: ids[1]) == before)
        // A valid one
        try await store.review(ReviewDecision(workID: ids[1], action: .edit(WorkEdit(title: "Ancillary Justice", authors: ["Ann Leckie"],
                                                                                     isbn: "978-0-316-24662-0", firstPublicationYear: 2013))))
        let edited = try #require(try await store.work(id: ids[1]))
        #expect(edited.reviewStatus == .userEdited && edited.title == "Ancillary Justice")
        #expect(edited.authors.map(\.name) == ["Ann Leckie"] && edited.firstPublicationYear == 2013)
        #expect(edited.editions.first?.isbn == "9780316246620" && edited.isOwned)
        try await store.undoLast()
        #expect(try await store.work(id: ids[1])?.title == Work.unreadTitle)
    }

    @Test(arguments: Engine.available)
    func rejectRemovesFromQueueAndUndoRestoresWithCrop(engine: Engine) async throws {
        let store = try await engine.makeStore()
        let (ids, _) = try await seed(store)
        defer { removeTemporary(store.cropsDirectory) }
        let rejected = try #require(try await store.work(id: ids[1]))
        let crop = try #require(await store.cropURL(for: rejected))
        try await store.review(ReviewDecision(workID: ids[1], action: .reject))
        #expect(try await store.work(id: ids[1]) == nil)
        #expect(try await store.pendingSummaries().map(\.id) == [ids[0], ids[2]])
        await #expect(throws: LibraryError.self) { try await store.review(ReviewDecision(workID: ids[2], action: .reject, expectedRevision: 99)) }
        try await store.undoLast()
        let back = try #require(try await store.work(id: ids[1]))
        #expect(back.reviewStatus == .needsReview)
        #expect(await store.cropURL(for: back) == crop)
        #expect(try await store.pendingSummaries().map(\.id) == ids, "back in its place in the queue")
    }

    @Test(arguments: Engine.available)
    func mergeGivesTheKeptWorkTheOthersIDsAndUndoSplitsThem(engine: Engine) async throws {
        let store = try await engine.makeStore()
        let (ids, dune) = try await seed(store)
        defer { removeTemporary(store.cropsDirectory) }
        let pendingDune = try #require(try await store.work(id: ids[0]))
        let dupes = try await store.duplicates(of: pendingDune)
        #expect(dupes.first?.id == dune.id && dupes.first?.reason == .isbn("0441172717"))
        try await store.review(ReviewDecision(workID: ids[0], action: .merge(into: dune.id!)))
        let kept = try #require(try await store.work(id: dune.id!))
        #expect(try await store.work(id: ids[0]) == nil)
        #expect(kept.editions.count == 1 && kept.editions[0].hasISBN("0441172717") && kept.goodreadsWorkIDs == ["234225"])
        #expect(kept.libraryEntry?.readingStatus == .toRead)
        await #expect(throws: LibraryError.mergeIntoSelf(dune.id!)) { try await store.review(ReviewDecision(workID: dune.id!, action: .merge(into: dune.id!))) }

        try await store.undoLast()
        let restoredKept = try #require(try await store.work(id: dune.id!))
        #expect(restoredKept.editions.map(\.isbns) == [["9780441172719"]] && restoredKept.libraryEntry != nil)
        let restoredSource = try #require(try await store.work(id: ids[0]))
        #expect(restoredSource.reviewStatus == .needsReview && restoredSource.editions.first?.isbn == "0441172717")
    }

    @Test(arguments: Engine.available)
    func undoWalksBackInOrderAndRefusesWhenAWorkChangedSince(engine: Engine) async throws {
        let store = try await engine.makeStore()
        let (ids, _) = try await seed(store)
        defer { removeTemporary(store.cropsDirectory) }
        try await store.review(ReviewDecision(workID: ids[0], action: .verify, session: "s1"))
        try await store.review(ReviewDecision(workID: ids[2], action: .reject, session: "s2"))
        #expect(try await store.undoLast(session: "s1").restoredWorkIDs == [ids[0]], "a session undoes its own decision")
        #expect(try await store.undoLast().restoredWorkIDs == [ids[2]])
        await #expect(throws: LibraryError.nothingToUndo) { try await store.undoLast() }
        #expect(try await store.pendingCount() == 3)
        #expect(try await store.journal().allSatisfy(\.undone))

        try await store.review(ReviewDecision(workID: ids[2], action: .verify))
        var changed = try #require(try await store.work(id: ids[2]))
        changed.libraryEntry?.rating = 5
        try await store.update(changed)
        await #expect(throws: LibraryError.undoConflict(ids[2])) { try await store.undoLast() }
    }

    @Test(arguments: Engine.available)
    func staleRevisionIsAConflict(engine: Engine) async throws {
        let store = try await engine.makeStore()
        let (ids, _) = try await seed(store)
        defer { removeTemporary(store.cropsDirectory) }
        let seen = try #require(try await store.work(id: ids[2]))
        try await store.review(ReviewDecision(workID: ids[2], action: .edit(WorkEdit(title: "The Dispossessed: An Ambiguous Utopia"))))
        await #expect(throws: LibraryError.conflict(ids[2], expected: seen.revision, actual: seen.revision + 1)) {
            try await store.review(ReviewDecision(workID: ids[2], action: .verify, expectedRevision: seen.revision))
        }
        await #expect(throws: LibraryError.notPending(ids[2], .userEdited)) { try await store.review(ReviewDecision(workID: ids[2], action: .verify)) }
    }
}

@Suite struct Queue {
    @Test(arguments: Engine.available)
    func nextWrapsAndPositionsAreCounted(engine: Engine) async throws {
        let store = try await engine.makeStore()
        let (ids, _) = try await seed(store)
        defer { removeTemporary(store.cropsDirectory) }
        let more = try await store.file(photo("b", [spine("X", ["Y"], position: 0)]))
        let first = try #require(try await store.nextPending())
        #expect(first.work.id == ids[0] && first.queuePosition == 1 && first.pendingCount == 4)
        #expect(first.photoPosition == 1 && first.photoCount == 2 && first.cropURL != nil)
        let last = try #require(try await store.nextPending(after: ids[2]))
        #expect(last.work.id == more[0] && last.queuePosition == 4 && last.photoPosition == 2)
        #expect(try await store.nextPending(after: more[0])?.work.id == ids[0], "wraps to the skipped ones")
        #expect(try await store.nextPending(after: more[0], wrap: false) == nil)
        #expect(try await store.previousPending(before: ids[2])?.work.id == ids[1])
        let list = try await store.pendingSummaries()
        #expect(list.map(\.id) == ids + more && list[0].authors == ["Frank Herbert"] && list[1].readingConfidence == nil)
        #expect(try await store.librarySummaries().map(\.title) == ["Dune"])
    }

    @Test(arguments: Engine.available)
    func resumeStartsWhereTheLastSessionStopped(engine: Engine) async throws {
        let store = try await engine.makeStore()
        let (ids, _) = try await seed(store)
        defer { removeTemporary(store.cropsDirectory) }
        #expect(try await store.resumeItem()?.work.id == ids[0])
        try await store.saveCursor(ids[1])
        #expect(try await store.resumeItem()?.work.id == ids[1])
        try await store.review(ReviewDecision(workID: ids[1], action: .reject))
        #expect(try await store.resumeItem()?.work.id == ids[2], "decided meanwhile: the next one")
        // A session without a cursor starts at the queue's start, on both engines: reading the queue holds nothing.
        #expect(try await store.resumeItem(session: "other")?.work.id == ids[0])
    }

    @Test(arguments: Engine.available)
    func statsCountEverything(engine: Engine) async throws {
        let store = try await engine.makeStore()
        let (ids, _) = try await seed(store)
        defer { removeTemporary(store.cropsDirectory) }
        try await store.review(ReviewDecision(workID: ids[2], action: .verify))
        let s = try await store.stats()
        #expect(s.works == 4 && s.pending == 2 && s.verified == 2 && s.photos == 1 && s.owned == 1 && s.decisions == 1)
        #expect(s.byReadingStatus == ["toRead": 2] && s.authors == 2)
    }
}

@Suite struct Concurrency {
    @Test func twoWritersNeverLoseAnUpdate() async throws {
        // Given two stores (two connections, as two processes would have) on one WAL file
        let dir = try temporaryDirectory()
        defer { removeTemporary(dir) }
        let path = dir.appendingPathComponent("library.sqlite").path
        let a = try LibraryStore(path: path), b = try LibraryStore(path: path)
        var w = Work(title: "Shared", authors: ["Someone"], reviewStatus: .verified)
        w.libraryEntry = UserLibraryEntry(readingStatus: .toRead)
        let id = try await a.add(w).id!
        // When each adds 20 tags concurrently, re-reading and retrying on a revision conflict
        func addTags(_ store: LibraryStore, prefix: String) async throws -> Int {
            var conflicts = 0
            for i in 0..<20 {
                while true {
                    var current = try await store.work(id: id)!
                    current.libraryEntry!.tags.append("\(prefix)\(i)")
                    do { try await store.update(current); break } catch LibraryError.conflict { conflicts += 1; await Task.yield() }
                }
            }
            return conflicts
        }
        async let ca = addTags(a, prefix: "a")
        async let cb = addTags(b, prefix: "b")
        _ = try await (ca, cb)
        // Then every tag is there: no update was lost, and nobody waited forever
        let tags = try #require(try await a.work(id: id)?.libraryEntry?.tags)
        #expect(Set(tags).count == 40 && tags.count == 40)
    }

    @Test func twoSessionsDecidingTheSameWorkExactlyOneWins() async throws {
        let dir = try temporaryDirectory()
        defer { removeTemporary(dir) }
        let path = dir.appendingPathComponent("library.sqlite").path
        let a = try LibraryStore(path: path), b = try LibraryStore(path: path)
        let ids = try await a.file(photo("h", (0..<30).map { spine("Book \($0)", ["Author \($0)"], position: $0) }))
        let seen = try await ids.asyncMap { try #require(try await a.work(id: $0)).revision }
        async let ra = Task { await ids.indices.asyncMap { i in (try? await a.review(ReviewDecision(workID: ids[i], action: .verify, expectedRevision: seen[i], session: "a"))) != nil } }.value
        async let rb = Task { await ids.indices.asyncMap { i in (try? await b.review(ReviewDecision(workID: ids[i], action: .reject, expectedRevision: seen[i], session: "b"))) != nil } }.value
        let (wa, wb) = await (ra, rb)
        for i in ids.indices { #expect(wa[i] != wb[i], "exactly one decision per Work") }
        #expect(try await a.pendingCount() == 0)
        #expect(try await a.journal(limit: 100).count == 30)
    }
}

@Suite struct EditsOfLibraryBooks {
    @Test(arguments: Engine.available)
    func editingAReadBookKeepsItsStatusUnlessOneIsGiven(engine: Engine) async throws {
        let store = try await engine.makeStore()
        let (_, dune) = try await seed(store)
        defer { removeTemporary(store.cropsDirectory) }
        var d = dune
        d.libraryEntry?.acquireEdition(dune.editions[0].id!, status: .read)
        d = try await store.update(d)
        try await store.review(ReviewDecision(workID: dune.id!, action: .edit(WorkEdit(firstPublicationYear: 1966))))
        let kept = try #require(try await store.work(id: dune.id!))
        #expect(kept.libraryEntry?.readingStatus == .read && kept.firstPublicationYear == 1966 && kept.reviewStatus == .userEdited)
        try await store.review(ReviewDecision(workID: dune.id!, action: .edit(WorkEdit(readingStatus: .reading))))
        #expect(try await store.work(id: dune.id!)?.libraryEntry?.readingStatus == .reading)
        try await store.review(ReviewDecision(workID: dune.id!, action: .edit(WorkEdit(readingStatus: .wishlist))))
        #expect(try await store.work(id: dune.id!)?.libraryEntry?.readingStatus == .reading, "an owned copy never moves to the wishlist")
    }

    @Test(arguments: Engine.available)
    func mergingIntoAPendingWorkPutsItInTheLibrary(engine: Engine) async throws {
        let store = try await engine.makeStore()
        let (ids, _) = try await seed(store)
        defer { removeTemporary(store.cropsDirectory) }
        try await store.review(ReviewDecision(workID: ids[1], action: .merge(into: ids[2])))
        let kept = try #require(try await store.work(id: ids[2]))
        #expect(kept.reviewStatus == .verified && kept.isOwned && kept.libraryEntry?.readingStatus == .toRead)
    }
}

@Suite struct DuplicateSearch {
    func work(_ id: Int64, _ title: String, _ author: String) -> Work {
        var w = Work(id: id, title: title, authors: [author], reviewStatus: .verified)
        w.credits[0].author.id = id
        return w
    }

    @Test func findsThroughTitleWordsAuthorsAndIDsButComparesFew() {
        var works = (1...400).map { work(Int64($0), "The Book of Things \($0)", "Writer \($0 % 37)") }
        works.append(work(1000, "Dune", "Frank Herbert"))
        works.append(work(1001, "The Left Hand of Darkness", "Ursula K. Le Guin"))
        var withID = work(1002, "Ficciones", "Jorge Luis Borges")
        withID.librarythingIDs = ["777"]
        works.append(withID)
        var index = DuplicateIndex(works: works)
        #expect(index.count == 403)
        // A mangled one-word title is found through its author
        #expect(index.candidates(for: Work(title: "Dunee", authors: ["Frank Herbert"])).first?.id == 1000)
        // A typo in one word is found through the others
        #expect(index.candidates(for: Work(title: "The Left Hand of Darknes", authors: ["U. K. Le Guin"])).first?.id == 1001)
        // An external ID finds it whatever the text says
        var byID = Work(title: "Unrelated", authors: ["Nobody"])
        byID.librarythingIDs = ["777"]
        #expect(index.candidates(for: byID).first?.reason == .externalID("lt:777"))
        // Only common words shared: still compared, within the rarest bucket
        #expect(index.candidates(for: Work(title: "The Book of Things 17", authors: ["Writer 17"])).first?.id == 17)
        index.remove(1000)
        #expect(index.candidates(for: Work(title: "Dune", authors: ["Frank Herbert"])).isEmpty)
    }
}
