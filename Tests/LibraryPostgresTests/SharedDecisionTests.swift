import BookModel
import Foundation
import Library
import LibraryCore
import LibraryTestSupport
import Testing

/// Merge, undo, bulk decisions, split and join, edits outside review, import and export: the same
/// behaviour asked of both engines (PostgreSQL when `SHELFSCAN_TEST_POSTGRES_URL` names a server).
@Suite struct SharedDecisionSuite {
    func pending(_ engine: Engine) async throws -> (any LibraryStoring, [Work.ID]) {
        let store = try await engine.makeStore()
        let ids = try await store.file(photo(hash(1), [spine("Kindred", authors: ["Octavia E. Butler"], position: 0), spine(nil, position: 1),
                                                       spine("Noise", authors: ["Daniel Kahneman"], position: 2),
                                                       spine("Dune", authors: ["Frank Herbert"], position: 3, isbn: "0441172717")]))
        return (store, ids)
    }

    @Test(arguments: Engine.available)
    func aBatchIsAllOrNothingAndOneUndoPutsEveryWorkBackWithItsCrop(engine: Engine) async throws {
        let (store, ids) = try await pending(engine)
        let bad = [ids[0], ids[1]].map { ReviewDecision(workID: $0, action: .verify, session: "s") }
        await #expect(throws: LibraryError.self) { try await store.review(batch: bad, summary: "x") }
        #expect(try await store.pendingCount() == 4, "nothing written")
        let good = [ids[0], ids[2], ids[3]].map { ReviewDecision(workID: $0, action: .verify, session: "s") }
            + [ReviewDecision(workID: ids[1], action: .reject, session: "s")]
        _ = try await store.review(batch: good, summary: "verified 3, rejected 1")
        #expect(try await store.pendingCount() == 0)
        #expect(try await store.work(id: ids[1]) == nil)
        #expect(try await store.work(id: ids[3])?.isOwned == true)
        #expect(try await store.work(id: ids[3])?.editions.first?.isbn == "0441172717")
        let undo = try await store.undoLast(session: "s")
        #expect(Set(undo.restoredWorkIDs) == Set(ids))
        #expect(try await store.pendingSummaries(limit: nil).map(\.id) == ids)
        let rejected = try #require(try await store.work(id: ids[1]))
        let crop = try #require(await store.cropURL(for: rejected))
        #expect(try Data(contentsOf: crop) == Data(fakeJPEG(1)))
        #expect(try await store.work(id: ids[3])?.libraryEntry == nil)
        #expect(try await store.stats().decisions == 0)
        await #expect(throws: LibraryError.nothingToUndo) { try await store.undoLast(session: "s") }
    }

    @Test(arguments: Engine.available)
    func mergeFoldsOneWorkIntoAnotherAndUndoSplitsThemAgain(engine: Engine) async throws {
        let (store, ids) = try await pending(engine)
        await #expect(throws: LibraryError.mergeIntoSelf(ids[0])) { try await store.review(ReviewDecision(workID: ids[0], action: .merge(into: ids[0]))) }
        let receipt = try await store.review(ReviewDecision(workID: ids[3], action: .merge(into: ids[0]), session: "s"))
        #expect(receipt.resultingWorkID == ids[0] && receipt.summary.contains("merged “Dune” into “Kindred”"))
        let target = try #require(try await store.work(id: ids[0]))
        #expect(target.reviewStatus == .verified)
        #expect(!target.isbns.isEmpty)
        #expect(try await store.work(id: ids[3]) == nil)
        _ = try await store.undoLast(session: "s")
        #expect(try await store.work(id: ids[3])?.title == "Dune")
        #expect(try await store.work(id: ids[0])?.reviewStatus == .needsReview)
        #expect(try await store.work(id: ids[0])?.isbns.isEmpty == true)
        #expect(try await store.pendingCount() == 4)
    }

    @Test(arguments: Engine.available)
    func editThenUndoAndAnUndoBlockedByALaterChange(engine: Engine) async throws {
        let (store, ids) = try await pending(engine)
        let before = try #require(try await store.work(id: ids[1]))
        _ = try await store.review(ReviewDecision(workID: ids[1], action: .edit(WorkEdit(title: "Ancillary Justice", authors: ["Ann Leckie"],
                                                                                         readingStatus: .reading)), session: "s"))
        let edited = try #require(try await store.work(id: ids[1]))
        #expect(edited.title == "Ancillary Justice" && edited.reviewStatus == .userEdited && edited.libraryEntry?.readingStatus == .reading)
        _ = try await store.undoLast(session: "s")
        let restored = try #require(try await store.work(id: ids[1]))
        #expect(restored.title == before.title && restored.reviewStatus == .needsReview && restored.libraryEntry == nil)
        // A Work changed after the decision (here by `update`, as enrichment does) blocks that decision's undo
        _ = try await store.review(ReviewDecision(workID: ids[0], action: .verify, session: "s"))
        var kindred = try #require(try await store.work(id: ids[0]))
        kindred.firstPublicationYear = 1979
        let updated = try await store.update(kindred)
        #expect(updated.revision == kindred.revision + 1)
        #expect(try await store.work(id: ids[0])?.firstPublicationYear == 1979)
        await #expect(throws: LibraryError.conflict(ids[0], expected: kindred.revision, actual: updated.revision)) { try await store.update(kindred) }
        await #expect(throws: LibraryError.undoConflict(ids[0])) { try await store.undoLast(session: "s") }
    }

    @Test(arguments: Engine.available)
    func splitAndJoinReplaceWorksAndUndoPutsThemBack(engine: Engine) async throws {
        let (store, ids) = try await pending(engine)
        let original = try #require(try await store.work(id: ids[0]))
        let halves = [
            SpinePiece(boundingBox: BoundingBox(x: 0, y: 0.1, width: 0.02, height: 0.8), polygon: [[0, 0.1], [0.02, 0.1], [0.02, 0.9], [0, 0.9]], cropJPEG: fakeJPEG(9)),
            SpinePiece(boundingBox: BoundingBox(x: 0.02, y: 0.1, width: 0.02, height: 0.8), polygon: [[0.02, 0.1], [0.04, 0.1], [0.04, 0.9], [0.02, 0.9]], cropJPEG: fakeJPEG(8)),
        ]
        await #expect(throws: LibraryError.conflict(ids[0], expected: original.revision + 5, actual: original.revision)) {
            try await store.reshape([ids[0]], into: halves, kind: "split", expectedRevisions: [ids[0]: original.revision + 5], session: "s")
        }
        let split = try await store.reshape([ids[0]], into: halves, kind: "split", expectedRevisions: [ids[0]: original.revision], session: "s")
        #expect(split.created.count == 2)
        #expect(try await store.work(id: ids[0]) == nil)
        #expect(try await store.pendingCount() == 5)
        let piece = try #require(try await store.work(id: split.created[1]))
        #expect(piece.hasUnreadTitle && piece.spine?.photoContentHash == hash(1) && piece.boundingBox == halves[1].boundingBox)
        #expect(piece.spine?.polygon == halves[1].polygon)
        #expect(try Data(contentsOf: try #require(await store.cropURL(for: piece))) == Data(fakeJPEG(8)))
        _ = try await store.undoLast(session: "s")
        #expect(try await store.work(id: ids[0])?.title == "Kindred")
        #expect(try await store.pendingCount() == 4)
        for id in split.created { #expect(try await store.work(id: id) == nil) }
        #expect(try await store.pendingNeighbour(of: ids[1])?.id == ids[2])
        let whole = SpinePiece(boundingBox: BoundingBox(x: 0.05, y: 0.1, width: 0.09, height: 0.8), polygon: [], cropJPEG: fakeJPEG(7),
                               title: "Noise", authors: ["Daniel Kahneman"])
        let join = try await store.reshape([ids[1], ids[2]], into: [whole], kind: "join", session: "s")
        #expect(try await store.work(id: join.created[0])?.title == "Noise")
        #expect(try await store.pendingCount() == 3)
        _ = try await store.undoLast(session: "s")
        #expect(try await store.pendingSummaries(limit: nil).map(\.id) == ids)
        let again = try await store.reshape([ids[1], ids[2]], into: [whole], kind: "join", session: "s")
        _ = try await store.review(ReviewDecision(workID: again.created[0], action: .verify, session: "other"))
        await #expect(throws: LibraryError.undoConflict(again.created[0])) { try await store.undoLast(session: "s") }
        #expect(try await store.work(id: again.created[0])?.reviewStatus == .verified)
    }

    @Test(arguments: Engine.available)
    func aSplitMakesRoomInTheRowAndJoiningThePiecesBackClosesIt(engine: Engine) async throws {
        // Given four books at places 0-3 of one row
        let (store, ids) = try await pending(engine)
        func row() async throws -> [[Int64]] { try await store.works(photoContentHash: hash(1)).map { [$0.id!, Int64($0.spine!.position)] } }
        let filed = try await row()
        #expect(filed == ids.enumerated().map { [$1, Int64($0)] })
        let halves = [0.05, 0.07].map { x in
            SpinePiece(boundingBox: BoundingBox(x: x, y: 0.1, width: 0.02, height: 0.8), polygon: [[x, 0.1], [x + 0.02, 0.1], [x + 0.02, 0.9], [x, 0.9]],
                       cropJPEG: fakeJPEG(9))
        }
        // When the second is split in two
        let undone = try await store.reshape([ids[1]], into: halves, kind: "split", expectedRevisions: [:], session: "s")
        // Then the pieces take places 1 and 2 and the books after them move one place right, until undone
        #expect(try await row() == [[ids[0], 0], [undone.created[0], 1], [undone.created[1], 2], [ids[2], 3], [ids[3], 4]])
        _ = try await store.undoLast(session: "s")
        #expect(try await row() == filed)
        let split = try await store.reshape([ids[1]], into: halves, kind: "split", expectedRevisions: [:], session: "s")
        let (left, right) = (split.created[0], split.created[1])
        #expect(try await row() == [[ids[0], 0], [left, 1], [right, 2], [ids[2], 3], [ids[3], 4]])
        // And the left piece's neighbour is the right piece, not the book that was next
        #expect(try await store.pendingNeighbour(of: left, toTheRight: true)?.id == right)
        #expect(try await store.pendingNeighbour(of: right, toTheRight: false)?.id == left)
        // When the two pieces are joined back
        let whole = SpinePiece(boundingBox: BoundingBox(x: 0.05, y: 0.1, width: 0.04, height: 0.8), polygon: [], cropJPEG: fakeJPEG(7))
        let join = try await store.reshape([left, right], into: [whole], kind: "join", expectedRevisions: [:], session: "s")
        // Then the row closes up again: one book at place 1, the rest where they were filed
        #expect(try await row() == [[ids[0], 0], [join.created[0], 1], [ids[2], 2], [ids[3], 3]])
        // And undoing the join puts the pieces and the books after them back where the split left them
        _ = try await store.undoLast(session: "s")
        #expect(try await row() == [[ids[0], 0], [left, 1], [right, 2], [ids[2], 3], [ids[3], 4]])
    }

    @Test(arguments: Engine.available)
    func joiningAcrossADecidedBookLeavesItsPlaceAlone(engine: Engine) async throws {
        // Given four books at places 0-3, the third verified, so the unread second's pending neighbour is the fourth
        let (store, ids) = try await pending(engine)
        func row() async throws -> [[Int64]] { try await store.works(photoContentHash: hash(1)).map { [$0.id!, Int64($0.spine!.position)] } }
        _ = try await store.review(ReviewDecision(workID: ids[2], action: .verify, session: "s"))
        #expect(try await store.pendingNeighbour(of: ids[1], toTheRight: true)?.id == ids[3])
        let filed = try await row()
        // When those two are joined
        let whole = SpinePiece(boundingBox: BoundingBox(x: 0.05, y: 0.1, width: 0.14, height: 0.8), polygon: [], cropJPEG: fakeJPEG(7),
                               title: "Dune", authors: ["Frank Herbert"])
        let join = try await store.reshape([ids[1], ids[3]], into: [whole], kind: "join", expectedRevisions: [:], session: "s")
        // Then the joined box takes the second's place and the verified book between keeps its own
        #expect(try await row() == [[ids[0], 0], [join.created[0], 1], [ids[2], 2]])
        // And undo gives every book its place back
        _ = try await store.undoLast(session: "s")
        #expect(try await row() == filed)
    }

    @Test(arguments: Engine.available)
    func aRescanReplacesPendingWorksAndKeepsReviewedOnes(engine: Engine) async throws {
        let (store, ids) = try await pending(engine)
        _ = try await store.review(ReviewDecision(workID: ids[0], action: .verify))
        let again = try await store.file(photo(hash(1), [spine("Kindred", authors: ["Octavia E. Butler"], position: 0),
                                                         spine("Emma", authors: ["Jane Austen"], position: 1)]), replacePending: true)
        #expect(again.count == 1)
        #expect(try await store.pendingSummaries(limit: nil).map(\.title) == ["Emma"])
        #expect(try await store.work(id: ids[0])?.reviewStatus == .verified)
        #expect(try await store.stats().works == 2)
    }

    @Test(arguments: Engine.available)
    func enrichmentFiledWithASpineIsKept(engine: Engine) async throws {
        let store = try await engine.makeStore()
        var s = spine("Dnue", authors: ["Frank Herbert"], position: 0)
        s.enrichmentStatus = EnrichmentStatus(state: .enriched, provider: "openlibrary", score: 0.93)
        let id = try await store.file(photo(hash(5), [s]))[0]
        #expect(try await store.work(id: id)?.spine?.enrichmentStatus == s.enrichmentStatus)
    }

    @Test(arguments: Engine.available)
    func csvAndJSONExportsImportIntoTheOtherEngine(engine: Engine) async throws {
        let (store, ids) = try await pending(engine)
        _ = try await store.review(ReviewDecision(workID: ids[3], action: .verify), defaults: ReviewDefaults(readingStatus: .read))
        _ = try await store.review(ReviewDecision(workID: ids[2], action: .verify), defaults: ReviewDefaults(readingStatus: .wishlist, owned: false))
        let csv = try await store.exportCSV()
        let json = try JSONEncoder().encode(try await store.exportLibrary())
        for target in Engine.available {
            let fromCSV = try await target.makeStore()
            let report = try await fromCSV.importCSV(csv)
            #expect(report.imported == 2 && report.skipped.isEmpty, "\(engine) CSV into \(target)")
            #expect(try await fromCSV.works().map(\.title).sorted() == ["Dune", "Noise"])
            #expect(try await fromCSV.works().first { $0.title == "Dune" }?.libraryEntry?.readingStatus == .read)
            let fromJSON = try await target.makeStore()
            #expect(try await fromJSON.importJSON(json).imported == 2)
            #expect(try await fromJSON.exportLibrary().works.map(\.work) == store.exportLibrary().works.map(\.work))
            // Importing again merges into the same books instead of copying them
            #expect(try await fromJSON.importJSON(json).merged == 2)
            #expect(try await fromJSON.stats().works == 2)
        }
        let bad = try await engine.makeStore()
        await #expect(throws: LibraryError.self) { try await bad.importCSV("just,some\nwords,here\n") }
    }
}
