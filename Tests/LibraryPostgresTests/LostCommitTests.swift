import BookModel
import Foundation
import Library
import LibraryCore
@testable import LibraryPostgres
import LibraryTestSupport
import Testing

/// A connection lost after a transaction's COMMIT was sent and before its answer came: the server applied it,
/// the client cannot know. A decision, an undo or a filing is then applied exactly once, and the caller gets
/// its result; a write that cannot tell is never sent again and says it may have been applied.
@Suite(.enabled(if: Engine.serverURL != nil, "needs SHELFSCAN_TEST_POSTGRES_URL (scripts/test starts a server)"))
struct LostCommitTests {
    /// A fresh library, a store `cut` that reaches it through the proxy, and a store `direct` that does not.
    func scene() async throws -> (proxy: CommitCutProxy, cut: PostgresLibraryStore, direct: PostgresLibraryStore) {
        let url = try await Engine.freshDatabaseURL()
        var c = try #require(URLComponents(string: url))
        let proxy = try CommitCutProxy(targetPort: try #require(c.port))
        c.port = proxy.port
        let cut = try await PostgresLibraryStore(url: try #require(c.string), password: Engine.password)
        return (proxy, cut, try await PostgresLibraryStore(url: url, password: Engine.password))
    }

    @Test func aDecisionWhoseAnswerWasLostIsAppliedOnceAndItsReceiptReturned() async throws {
        // Given a pending Work, and the connection to be cut right after the decision's COMMIT is forwarded
        let (proxy, store, direct) = try await scene()
        defer { proxy.stop() }
        let id = try await store.file(photo(hash(1), [spine("Dune", authors: ["Frank Herbert"], position: 0)]))[0]
        let seen = try #require(try await store.work(id: id)).revision
        proxy.armCutAfterNextCommit()
        // When the reviewer verifies it
        let receipt = try await store.review(ReviewDecision(workID: id, action: .verify, expectedRevision: seen, session: "ann"))
        // Then the cut happened, the receipt is the decision's, and it was applied once: one journal row, one revision
        #expect(proxy.cuts == 1)
        let journal = try await direct.journal(limit: 10)
        #expect(journal.count == 1 && receipt.journalID == journal[0].id && receipt.resultingWorkID == id)
        let work = try #require(try await direct.work(id: id))
        #expect(work.reviewStatus == .verified && work.revision == seen + 1)
    }

    @Test func anUndoWhoseAnswerWasLostUndoesOneDecisionNotTwo() async throws {
        // Given two decisions by one session
        let (proxy, store, direct) = try await scene()
        defer { proxy.stop() }
        let ids = try await store.file(photo(hash(2), [spine("Dune", authors: ["Frank Herbert"], position: 0),
                                                       spine("Emma", authors: ["Jane Austen"], position: 1)]))
        let first = try await store.review(ReviewDecision(workID: ids[0], action: .verify, session: "ann"))
        let second = try await store.review(ReviewDecision(workID: ids[1], action: .verify, session: "ann"))
        proxy.armCutAfterNextCommit()
        // When the session undoes its latest decision and the answer is lost
        let undo = try await store.undoLast(session: "ann")
        // Then only the second decision is undone; the first still stands
        #expect(proxy.cuts == 1 && undo.journalID == second.journalID)
        #expect(try await direct.work(id: ids[1])?.reviewStatus == .needsReview)
        #expect(try await direct.work(id: ids[0])?.reviewStatus == .verified)
        #expect(try await direct.journal(limit: 10).map(\.undone) == [true, false])
        #expect(try await direct.journal(limit: 10)[1].id == first.journalID)
    }

    @Test func aFilingWhoseAnswerWasLostReturnsTheWorksItFiled() async throws {
        // Given an empty library and the next COMMIT to be cut
        let (proxy, store, direct) = try await scene()
        defer { proxy.stop() }
        proxy.armCutAfterNextCommit()
        // When a worker files a photo
        let ids = try await store.file(photo(hash(3), [spine("Dune", position: 0), spine("Emma", position: 1)]))
        // Then it gets the Works it filed, not "already filed by someone else", and they were filed once
        #expect(proxy.cuts == 1)
        #expect(ids.count == 2)
        #expect(try await direct.pendingSummaries(limit: nil).map(\.id) == ids)
        #expect(try await direct.stats().photos == 1)
    }

    @Test func anImportWhoseAnswerWasLostIsNotSentAgainAndSaysItMayHaveBeenApplied() async throws {
        // Given an empty library and the next COMMIT to be cut
        let (proxy, store, direct) = try await scene()
        defer { proxy.stop() }
        proxy.armCutAfterNextCommit()
        // When a CSV is imported (its rows commit in chunks, which cannot tell whether they were applied)
        await #expect(throws: LibraryError.connectionLost(location: store.locationDescription, mayHaveBeenApplied: true)) {
            try await store.importCSV("Title,Author\nDune,Frank Herbert\nEmma,Jane Austen\n")
        }
        // Then the rows were imported once, and the store works again on its next call
        #expect(proxy.cuts == 1)
        #expect(try await direct.stats().works == 2)
        #expect(try await store.stats().works == 2)
    }
}
