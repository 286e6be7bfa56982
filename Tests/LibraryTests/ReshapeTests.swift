import BookModel
import Foundation
import Testing
@testable import Library
@testable import LibraryCore
import LibraryTestSupport

/// Bulk decisions, split and join: each one transaction and one undo.
@Suite struct BulkAndReshape {
    func pendingStore(_ engine: Engine) async throws -> (any LibraryStoring, [Work.ID]) {
        let store = try await engine.makeStore()
        let ids = try await store.file(photo("p", [spine("Kindred", ["Octavia E. Butler"], position: 0), spine(nil, position: 1),
                                                   spine("Noise", ["Daniel Kahneman"], position: 2), spine("Dune", ["Frank Herbert"], position: 3)]))
        return (store, ids)
    }

    /// The first spine cut in two, each half with its crop and outline.
    let halves = [
        SpinePiece(boundingBox: BoundingBox(x: 0, y: 0.1, width: 0.02, height: 0.8), polygon: [[0, 0.1], [0.02, 0.1], [0.02, 0.9], [0, 0.9]], cropJPEG: fakeJPEG(9)),
        SpinePiece(boundingBox: BoundingBox(x: 0.02, y: 0.1, width: 0.02, height: 0.8), polygon: [[0.02, 0.1], [0.04, 0.1], [0.04, 0.9], [0.02, 0.9]], cropJPEG: fakeJPEG(8)),
    ]

    @Test(arguments: Engine.available)
    func aBatchIsAllOrNothingAndOneUndoPutsEveryWorkBack(engine: Engine) async throws {
        let (store, ids) = try await pendingStore(engine)
        defer { removeTemporary(store.cropsDirectory) }
        // Given a batch with a decision that breaks a rule (the unread spine cannot be verified)
        let bad = [ids[0], ids[1]].map { ReviewDecision(workID: $0, action: .verify, session: "s") }
        await #expect(throws: LibraryError.self) { try await store.review(batch: bad, summary: "x") }
        #expect(try await store.pendingCount() == 4, "nothing written")
        // When three readings are verified and the unread box rejected, as one
        let good = [ids[0], ids[2], ids[3]].map { ReviewDecision(workID: $0, action: .verify, session: "s") }
            + [ReviewDecision(workID: ids[1], action: .reject, session: "s")]
        let receipt = try await store.review(batch: good, summary: "verified 3, rejected 1")
        #expect(receipt.summary == "verified 3, rejected 1")
        #expect(try await store.pendingCount() == 0)
        #expect(try await store.work(id: ids[1]) == nil)
        #expect(try await store.work(id: ids[0])?.reviewStatus == .verified)
        #expect(try await store.journal().count == 1)
        // Then one undo restores all four, pending again, the rejected one with its crop
        let undo = try await store.undoLast(session: "s")
        #expect(Set(undo.restoredWorkIDs) == Set(ids))
        #expect(try await store.pendingSummaries().map(\.id) == ids)
        let rejected = try #require(try await store.work(id: ids[1]))
        await #expect(store.cropURL(for: rejected) != nil)
    }

    @Test(arguments: Engine.available)
    func splitAndJoinReplaceWorksAndUndoPutsThemBack(engine: Engine) async throws {
        let (store, ids) = try await pendingStore(engine)
        defer { removeTemporary(store.cropsDirectory) }
        let original = try #require(try await store.work(id: ids[0]))
        // A stale revision is refused, and the crops written for it are removed
        let before = try FileManager.default.contentsOfDirectory(atPath: store.cropsDirectory.path).count
        await #expect(throws: LibraryError.self) {
            try await store.reshape([ids[0]], into: halves, kind: "split", expectedRevisions: [ids[0]: original.revision + 5], session: "s")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.cropsDirectory.path).count == before)
        // Split: two unread pieces on the same photo and row, each with its crop and geometry
        let split = try await store.reshape([ids[0]], into: halves, kind: "split", expectedRevisions: [ids[0]: original.revision], session: "s")
        #expect(split.created.count == 2)
        #expect(try await store.work(id: ids[0]) == nil)
        #expect(try await store.pendingCount() == 5)
        let piece = try #require(try await store.work(id: split.created[1]))
        #expect(piece.hasUnreadTitle && piece.spine?.row == 0 && piece.spine?.photoContentHash == "p" && piece.boundingBox == halves[1].boundingBox)
        #expect(piece.spine?.polygon == halves[1].polygon)
        #expect(await store.cropURL(for: piece) != nil)
        // Undo: the pieces go, the original comes back as it was
        _ = try await store.undoLast(session: "s")
        #expect(try await store.work(id: ids[0])?.title == "Kindred")
        #expect(try await store.pendingCount() == 4)
        for id in split.created { #expect(try await store.work(id: id) == nil) }
        // Join the next two: one Work with the given reading; undo brings both back
        #expect(try await store.pendingNeighbour(of: ids[1])?.id == ids[2])
        let whole = SpinePiece(boundingBox: BoundingBox(x: 0.05, y: 0.1, width: 0.09, height: 0.8), polygon: [], cropJPEG: fakeJPEG(7),
                               title: "Noise", authors: ["Daniel Kahneman"])
        let join = try await store.reshape([ids[1], ids[2]], into: [whole], kind: "join", session: "s")
        #expect(try await store.work(id: join.created[0])?.title == "Noise")
        #expect(try await store.pendingCount() == 3)
        _ = try await store.undoLast(session: "s")
        #expect(try await store.pendingSummaries().map(\.id) == ids)
        // A joined Work decided since blocks the undo of the join rather than losing that decision
        let again = try await store.reshape([ids[1], ids[2]], into: [whole], kind: "join", session: "s")
        try await store.review(ReviewDecision(workID: again.created[0], action: .verify, session: "other"))
        await #expect(throws: LibraryError.undoConflict(again.created[0])) { try await store.undoLast(session: "s") }
        #expect(try await store.work(id: again.created[0])?.reviewStatus == .verified)
    }

    @Test(arguments: Engine.available)
    func undoWalksBackThroughDecisionsOnTheSameWorks(engine: Engine) async throws {
        let (store, ids) = try await pendingStore(engine)
        defer { removeTemporary(store.cropsDirectory) }
        let original = try #require(try await store.work(id: ids[0]))
        // Split a box, then decide each piece: three decisions, the last two on Works the first made.
        let split = try await store.reshape([ids[0]], into: halves, kind: "split", session: "s")
        try await store.review(ReviewDecision(workID: split.created[0], action: .edit(WorkEdit(title: "Kindred", authors: ["Octavia E. Butler"])), session: "s"))
        try await store.review(ReviewDecision(workID: split.created[1], action: .reject, session: "s"))
        // Each undo brings a piece back under a higher revision; the split's undo still takes both pieces away.
        #expect(try await store.undoLast(session: "s").restoredWorkIDs == [split.created[1]])
        #expect(try await store.undoLast(session: "s").restoredWorkIDs == [split.created[0]])
        #expect(try await store.work(id: split.created[0])?.hasUnreadTitle == true)
        #expect(try await store.undoLast(session: "s").restoredWorkIDs == [ids[0]])
        #expect(try await store.work(id: ids[0])?.title == original.title)
        for id in split.created { #expect(try await store.work(id: id) == nil) }
        #expect(try await store.pendingSummaries().map(\.id) == ids)

        // A change outside the journal between two decisions on a Work still stops the earlier undo.
        let again = try await store.reshape([ids[0]], into: halves, kind: "split", session: "s")
        var changed = try #require(try await store.work(id: again.created[0]))
        changed.title = "Kindred"
        try await store.update(changed)
        try await store.review(ReviewDecision(workID: again.created[0], action: .reject, session: "s"))
        try await store.undoLast(session: "s")
        await #expect(throws: LibraryError.undoConflict(again.created[0])) { try await store.undoLast(session: "s") }
    }
}
