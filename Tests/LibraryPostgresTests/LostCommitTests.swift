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
    func scene() throws -> (proxy: CommitCutProxy, cut: PostgresLibraryStore, direct: PostgresLibraryStore) {
        let url = try Engine.freshDatabaseURL()
        var c = try #require(URLComponents(string: url))
        let proxy = try CommitCutProxy(targetPort: try #require(c.port))
        c.port = proxy.port
        let cut = try PostgresLibraryStore(url: try #require(c.string), password: Engine.password)
        return (proxy, cut, try PostgresLibraryStore(url: url, password: Engine.password))
    }

    @Test func aDecisionWhoseAnswerWasLostIsAppliedOnceAndItsReceiptReturned() throws {
        // Given a pending Work, and the connection to be cut right after the decision's COMMIT is forwarded
        let (proxy, store, direct) = try scene()
        defer { proxy.stop() }
        let id = try store.file(photo(hash(1), [spine("Dune", authors: ["Frank Herbert"], position: 0)]))[0]
        let seen = try #require(try store.work(id: id)).revision
        proxy.armCutAfterNextCommit()
        // When the reviewer verifies it
        let receipt = try store.review(ReviewDecision(workID: id, action: .verify, expectedRevision: seen, session: "ann"))
        // Then the cut happened, the receipt is the decision's, and it was applied once: one journal row, one revision
        #expect(proxy.cuts == 1)
        let journal = try direct.journal(limit: 10)
        #expect(journal.count == 1 && receipt.journalID == journal[0].id && receipt.resultingWorkID == id)
        let work = try #require(try direct.work(id: id))
        #expect(work.reviewStatus == .verified && work.revision == seen + 1)
    }

    @Test func anUndoWhoseAnswerWasLostUndoesOneDecisionNotTwo() throws {
        // Given two decisions by one session
        let (proxy, store, direct) = try scene()
        defer { proxy.stop() }
        let ids = try store.file(photo(hash(2), [spine("Dune", authors: ["Frank Herbert"], position: 0),
                                                 spine("Emma", authors: ["Jane Austen"], position: 1)]))
        let first = try store.review(ReviewDecision(workID: ids[0], action: .verify, session: "ann"))
        let second = try store.review(ReviewDecision(workID: ids[1], action: .verify, session: "ann"))
        proxy.armCutAfterNextCommit()
        // When the session undoes its latest decision and the answer is lost
        let undo = try store.undoLast(session: "ann")
        // Then only the second decision is undone; the first still stands
        #expect(proxy.cuts == 1 && undo.journalID == second.journalID)
        #expect(try direct.work(id: ids[1])?.reviewStatus == .needsReview)
        #expect(try direct.work(id: ids[0])?.reviewStatus == .verified)
        #expect(try direct.journal(limit: 10).map(\.undone) == [true, false] && direct.journal(limit: 10)[1].id == first.journalID)
    }

    @Test func aFilingWhoseAnswerWasLostReturnsTheWorksItFiled() throws {
        // Given an empty library and the next COMMIT to be cut
        let (proxy, store, direct) = try scene()
        defer { proxy.stop() }
        proxy.armCutAfterNextCommit()
        // When a worker files a photo
        let ids = try store.file(photo(hash(3), [spine("Dune", position: 0), spine("Emma", position: 1)]))
        // Then it gets the Works it filed, not "already filed by someone else", and they were filed once
        #expect(proxy.cuts == 1 && ids.count == 2)
        #expect(try direct.pendingSummaries(limit: nil).map(\.id) == ids && direct.stats().photos == 1)
    }

    @Test func anImportWhoseAnswerWasLostIsNotSentAgainAndSaysItMayHaveBeenApplied() throws {
        // Given an empty library and the next COMMIT to be cut
        let (proxy, store, direct) = try scene()
        defer { proxy.stop() }
        proxy.armCutAfterNextCommit()
        // When a CSV is imported (its rows commit in chunks, which cannot tell whether they were applied)
        #expect(throws: LibraryError.connectionLost(location: store.locationDescription, mayHaveBeenApplied: true)) {
            try store.importCSV("Title,Author\nDune,Frank Herbert\nEmma,Jane Austen\n")
        }
        // Then the rows were imported once, and the store works again on its next call
        #expect(proxy.cuts == 1)
        #expect(try direct.stats().works == 2 && store.stats().works == 2)
    }
}
