import BookModel
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import Library
import LibraryCore
import NIOCore
@testable import ShelfScanServer
import ShelfScanTestSupport
import Testing

/// Decisions that reshape the queue, in process over the five books of a `ShelfScene`, whose boxes and readings
/// the test knows exactly: bulk verify by the bar, split and join redrawn as the terminal review redraws them.
@Suite struct ReviewDecisionTests {
    @Test func bulkVerifyTakesThePhotosBooksReadAtTheBarAsOneUndoableDecision() async throws {
        // Given one photo's five pending books, read at 94, 81, 88, 62 and 90%
        let (scene, shelf) = try await InProcessScene.overShelf()
        defer { scene.remove(shelf) }
        let store = scene.library
        try await scene.test { client in
            let route = RoutePath.bulkVerify
            // A bar of the wrong type is not the JSON the route takes (the refusals by value are `ProblemTests`')
            try await client.postJSON(route, ["photoContentHash": ShelfScene.contentHash, "minConfidence": "high"]).expectProblem(400, "MALFORMED_JSON")
            // A shelf row without books, or a bar above every reading, takes nothing and journals nothing
            for body: [String: Any] in [["photoContentHash": ShelfScene.contentHash, "minConfidence": 0.5, "row": 1],
                                        ["photoContentHash": ShelfScene.contentHash, "minConfidence": 0.95]] {
                let none = try await client.postJSON(route, body)
                #expect(none.status == .ok && none.data["verifiedWorkIds"] as? [Int] == [] && none.data["journalId"] == nil, "\(none.json)")
            }
            #expect(try await store.journal(limit: 5).isEmpty)

            // When verifying at 85%: the three read at 85% or better, in one journal entry, worded as the terminal's
            let taken = [shelf.ids[0], shelf.ids[2], shelf.ids[4]]
            let bulk = try await client.postJSON(route, ["photoContentHash": ShelfScene.contentHash, "minConfidence": 0.85, "row": 0])
            #expect(bulk.status == .ok, "\(bulk.json)")
            #expect(bulk.data["verifiedWorkIds"] as? [Int] == taken.map { Int($0) })
            #expect(try await store.reviewStatuses(ids: shelf.ids) == [shelf.ids[0]: .verified, shelf.ids[1]: .needsReview, shelf.ids[2]: .verified,
                                                                       shelf.ids[3]: .needsReview, shelf.ids[4]: .verified])
            let journal = try await store.journal(limit: 5)
            #expect(journal.count == 1 && journal.first?.kind == "bulk" && journal.first?.session == "http")
            #expect(journal.first?.summary == "verified 3 of shelf 1 read at 85% or better")
            #expect(bulk.data["journalId"] as? Int == journal.first.map { Int($0.id) })

            // Then one undo takes all three back
            let undone = try await client.postJSON(RoutePath.undo, [:])
            #expect(undone.status == .ok)
            #expect(Set(undone.data["restoredWorkIds"] as? [Int] ?? []) == Set(taken.map { Int($0) }))
            #expect(try await store.pendingCount() == 5)
        }
    }

    @Test func splitAndJoinRedrawBoxesAsTheTerminalDoes() async throws {
        // Given five pending books of one photo
        let (scene, shelf) = try await InProcessScene.overShelf()
        defer { scene.remove(shelf) }
        let store = scene.library
        let kindred = try #require(try await store.work(id: shelf.ids[0]))
        let box = try #require(kindred.boundingBox)
        let kindredID = try #require(kindred.id)
        try await scene.test { client in
            // A stale revision changes nothing (the other refusals are `ProblemTests`')
            try await client.postJSON(RoutePath.decision(kindredID, "split"), ["revision": kindred.revision + 1]).expectProblem(409, "CONFLICT")
            #expect(try await store.pendingCount() == 5)

            // When Kindred's box is split at 40% of its width, with the revision seen
            let split = try await client.postJSON(RoutePath.decision(kindredID, "split"), ["revision": kindred.revision, "at": 0.4])
            #expect(split.status == .ok, "\(split.json)")
            #expect(split.data["replacedWorkIds"] as? [Int] == [Int(kindredID)])
            let pieces = try #require(split.data["createdWorkIds"] as? [Int])
            #expect(pieces.count == 2)
            // Then two pending boxes stand in its place, cut where asked, each with its crop
            let left = try #require(try await store.work(id: Int64(pieces[0]))?.boundingBox)
            let right = try #require(try await store.work(id: Int64(pieces[1]))?.boundingBox)
            #expect(abs(left.x - box.x) < 1e-6 && abs(left.width - box.width * 0.4) < 1e-6)
            #expect(abs(right.x - (box.x + box.width * 0.4)) < 1e-6 && abs(right.width - box.width * 0.6) < 1e-6)
            let crop = try await client.get(RoutePath.workCrop(pieces[1]))
            #expect(crop.status == .ok && crop.headers[.contentType] == "image/jpeg")
            #expect(try await store.work(id: kindredID) == nil)
            #expect(await (try store.pendingCount()) == 6)

            // And joining Noise with its right neighbour, Middlemarch, gives one box over both, read as the surer of
            // the two (88% against 62%)
            let (noise, middlemarch) = (ShelfScene.spines[2], ShelfScene.spines[3])
            let join = try await client.postJSON(RoutePath.decision(shelf.ids[2], "join"), [:])
            #expect(join.status == .ok, "\(join.json)")
            #expect(join.data["replacedWorkIds"] as? [Int] == [Int(shelf.ids[2]), Int(shelf.ids[3])])
            let joinedID = try #require((join.data["createdWorkIds"] as? [Int])?.first)
            let joined = try #require(try await store.work(id: Int64(joinedID)))
            let whole = try #require(joined.boundingBox)
            #expect(abs(whole.x - Double(noise.x) / Double(ShelfScene.width)) < 1e-6)
            #expect(abs(whole.x + whole.width - Double(middlemarch.x + middlemarch.width) / Double(ShelfScene.width)) < 1e-6)
            #expect(joined.title == "Noise" && joined.reviewStatus == .needsReview)
            #expect(try await store.pendingCount() == 5)

            // Undo takes back the join, then the split
            #expect(Set(try await client.postJSON(RoutePath.undo, [:]).data["restoredWorkIds"] as? [Int] ?? []) == [Int(shelf.ids[2]), Int(shelf.ids[3])])
            #expect(try await client.postJSON(RoutePath.undo, [:]).data["restoredWorkIds"] as? [Int] == [Int(kindredID)])
            #expect(try await store.work(id: kindredID)?.title == "Kindred")
            #expect(await (try store.pendingCount()) == 5)
            #expect(try await store.journal(limit: 5).map(\.kind).prefix(2).sorted() == ["join", "split"])
        }
    }
}

/// The review routes' refusals, in process over the five books of a `ShelfScene` (boxes, readings, crops), each
/// reached from its cause: its status, its code, a detail naming that cause, and the library as it was before,
/// its rows, its journal and every file in its crops folder.
extension ProblemTests {
    @Test func everyDecisionTheRulesRefuseIsA422InvalidAndChangesNothing() async throws {
        let (scene, shelf) = try await InProcessScene.overShelf()
        defer { scene.remove(shelf) }
        // Given the shelf's five books and, from another photo, a spine that was not read
        let unread = try #require(try await scene.library.file(PhotoFiling(
            contentHash: String(repeating: "d", count: 64), originalImagePath: shelf.photoPath, imageWidth: ShelfScene.width,
            imageHeight: ShelfScene.height,
            spines: [SpineFiling(title: nil, boundingBox: shelf.filings[0].boundingBox, polygon: shelf.filings[0].polygon, row: 0, position: 0,
                                 detectionConfidence: 0.9, cropJPEG: shelf.filings[0].cropJPEG)])).first)
        let kindred = shelf.ids[0]
        let before = try await LibraryContents(scene.library)
        let hash = ShelfScene.contentHash
        let refusals: [(uri: String, body: String, says: String)] = [
            // The library's own rules, as `shelfscan review` applies them
            (RoutePath.decision(unread, "verify"), "{}", "title: the spine was not read"),
            (RoutePath.decision(kindred, "edit"), #"{"title": "  ", "authors": ["A"]}"#, "title: must not be empty"),
            (RoutePath.decision(kindred, "merge"), #"{"into": \#(kindred)}"#, "cannot be merged into itself"),
            // The routes' own: a value outside what the route takes, or a required one missing
            (RoutePath.decision(kindred, "edit"), #"{"format": "scroll"}"#, "format must be one of"),
            (RoutePath.decision(kindred, "edit"), #"{"readingStatus": "someday"}"#, "readingStatus must be one of"),
            (RoutePath.decision(kindred, "verify"), #"{"readingStatus": "someday"}"#, "readingStatus must be one of"),
            (RoutePath.decision(kindred, "merge"), "{}", "Name the Work to keep"),
            (RoutePath.decision(kindred, "split"), #"{"at": 0.95}"#, "at is where to cut"),
            (RoutePath.decision(kindred, "split"), #"{"at": 0.05}"#, "at is where to cut"),
            (RoutePath.bulkVerify, #"{"minConfidence": 0.8}"#, "Name the photo and the bar"),
            (RoutePath.bulkVerify, #"{"photoContentHash": "\#(hash)"}"#, "Name the photo and the bar"),
            (RoutePath.bulkVerify, #"{"photoContentHash": "\#(hash)", "minConfidence": 1.5}"#, "Name the photo and the bar"),
            (RoutePath.bulkVerify, #"{"photoContentHash": "\#(hash)", "minConfidence": -0.1}"#, "Name the photo and the bar"),
            // A bar four of the books pass, with a reading status there is none of: none of them is taken
            (RoutePath.bulkVerify, #"{"photoContentHash": "\#(hash)", "minConfidence": 0.8, "readingStatus": "someday"}"#,
             "readingStatus must be one of"),
        ]
        try await scene.test { client in
            for refusal in refusals {
                let reply = try await client.postJSON(refusal.uri, refusal.body)
                reply.expectProblem(422, "INVALID")
                #expect((reply.json["detail"] as? String)?.contains(refusal.says) == true, "\(refusal.uri) \(refusal.body): \(reply.json)")
                #expect(reply.json["retryable"] as? Bool == false)
            }
        }
        #expect(try await LibraryContents(scene.library) == before)
    }

    @Test func aBoxThatCannotBeRedrawnIsA422CannotReshapeAndChangesNothing() async throws {
        let (scene, shelf) = try await InProcessScene.overShelf()
        defer { scene.remove(shelf) }
        // Given the shelf's five books, the second's crop no longer a JPEG, and Walden, the last, already verified
        let (kindred, evil, noise, middlemarch, walden) = (shelf.ids[0], shelf.ids[1], shelf.ids[2], shelf.ids[3], shelf.ids[4])
        let evilWork = try #require(try await scene.library.work(id: evil))
        let evilCrop = try #require(scene.library.cropURL(for: evilWork))
        try Data("not a jpeg".utf8).write(to: evilCrop)
        _ = try await scene.library.review(ReviewDecision(workID: walden, action: .verify))
        // and, from another photo, two spines, the second filed without a crop
        let other = try await scene.library.file(PhotoFiling(
            contentHash: String(repeating: "d", count: 64), originalImagePath: shelf.photoPath, imageWidth: ShelfScene.width,
            imageHeight: ShelfScene.height, spines: (0..<2).map { i in
                SpineFiling(title: "Other \(i)", authors: ["A"], boundingBox: shelf.filings[i].boundingBox, polygon: shelf.filings[i].polygon,
                            row: 0, position: i, detectionConfidence: 0.9, cropJPEG: i == 0 ? shelf.filings[i].cropJPEG : [])
            }))
        let before = try await LibraryContents(scene.library)
        let refusals: [(uri: String, says: String)] = [
            // Nothing pending to the right: Middlemarch's neighbour is decided
            (RoutePath.decision(middlemarch, "join"), "No pending box to the right"),
            // A crop that cannot be read, its own or its neighbour's
            (RoutePath.decision(evil, "split"), "Cannot read the crop"),
            (RoutePath.decision(kindred, "join"), "Cannot read the crop"),
            // No crop at all, its own or its neighbour's
            (RoutePath.decision(other[1], "split"), "“Other 1” has no crop file to cut"),
            (RoutePath.decision(other[0], "join"), "“Other 1” has no crop file to cut"),
        ]
        try await scene.test { client in
            for refusal in refusals {
                let reply = try await client.postJSON(refusal.uri, "{}")
                reply.expectProblem(422, "CANNOT_RESHAPE")
                #expect((reply.json["detail"] as? String)?.contains(refusal.says) == true, "\(refusal.uri): \(reply.json)")
            }
            #expect(try await LibraryContents(scene.library) == before)
            // And the same routes over boxes that can be redrawn are taken: Noise splits, and joins its right half
            // with Middlemarch
            let split = try await client.postJSON(RoutePath.decision(noise, "split"), "{}")
            #expect(split.status == .ok, "\(split.json)")
            let right = try #require((split.data["createdWorkIds"] as? [Int])?.last)
            #expect(try await client.postJSON(RoutePath.decision(right, "join"), "{}").status == .ok)
            #expect(try await scene.library.work(id: middlemarch) == nil)
        }
    }

    @Test func aDecisionOnADecidedWorkIsA409AndAnUndoOverAnotherSessionsChangeIsA409() async throws {
        let (scene, shelf) = try await InProcessScene.overShelf()
        defer { scene.remove(shelf) }
        let kindred = shelf.ids[0]
        try await scene.test { client in
            // Given Kindred verified over HTTP
            #expect(try await client.postJSON(RoutePath.decision(kindred, "verify"), "{}").status == .ok)
            var before = try await LibraryContents(scene.library)
            // Then deciding it again, rejecting it or cutting it is refused: it is no longer waiting for review
            for action in ["verify", "reject", "split"] {
                let reply = try await client.postJSON(RoutePath.decision(kindred, action), "{}")
                reply.expectProblem(409, "NOT_PENDING")
                #expect((reply.json["detail"] as? String)?.contains("already verified") == true, "\(action): \(reply.json)")
            }
            // and the split's crops, written before the library refused, are gone again
            #expect(try await LibraryContents(scene.library) == before)

            // When another session edits it after that verify
            _ = try await scene.library.review(ReviewDecision(workID: kindred, action: .edit(WorkEdit(title: "Kindred: A Novel"))))
            before = try await LibraryContents(scene.library)
            // Then undoing the verify over HTTP is a conflict, and the edit stands
            let undo = try await client.postJSON(RoutePath.undo, "{}")
            undo.expectProblem(409, "CONFLICT")
            #expect((undo.json["detail"] as? String)?.contains("cannot be undone automatically") == true, "\(undo.json)")
            #expect(try await LibraryContents(scene.library) == before)
            #expect(try await scene.library.work(id: kindred)?.title == "Kindred: A Novel")
        }
    }
}

/// A library whose file another writer holds is busy: a 503 to send again, and sent again, it is taken.
@Suite struct BusyLibraryTests {
    @Test func aDecisionWhileAnotherWriterHoldsTheLibraryIsA503ToSendAgain() async throws {
        // Given a server whose library does not wait for another writer, and another store holding the file's write lock
        let (scene, shelf) = try await InProcessScene.overShelf(busyTimeout: 0)
        defer { scene.remove(shelf) }
        let kindred = shelf.ids[0]
        let lock = await WriteLock.hold(shelf.store)
        let before = try await LibraryContents(scene.library)
        try await scene.test { client in
            // When a reviewer verifies Kindred, and bulk-verifies the shelf
            for (uri, body) in [(RoutePath.decision(kindred, "verify"), "{}"),
                                (RoutePath.bulkVerify, #"{"photoContentHash": "\#(ShelfScene.contentHash)", "minConfidence": 0.5}"#)] {
                // Then the library is busy: a 503 saying when to send it again, and nothing written
                let busy = try await client.postJSON(uri, body)
                busy.expectProblem(503, "LIBRARY_BUSY")
                #expect(busy.headers[.retryAfter] == "1" && busy.json["retryAfter"] as? Int == 1)
                #expect(busy.json["retryable"] as? Bool == true)
            }
            #expect(try await LibraryContents(scene.library) == before)
            // And reading goes on meanwhile
            #expect(try await client.get(RoutePath.work(kindred)).status == .ok)

            // When the other writer is done, the same decision sent again is taken
            lock.release()
            let sent = try await client.postJSON(RoutePath.decision(kindred, "verify"), "{}")
            #expect(sent.status == .ok, "\(sent.json)")
            #expect(try await scene.library.work(id: kindred)?.reviewStatus == .verified)
            #expect(try await LibraryContents(scene.library) != before, "the snapshot sees a decision")
        }
    }
}

/// Another writer: holds a library file's write lock, in a write transaction that waits on GRDB's own queue
/// (never a Swift concurrency thread), until released.
final class WriteLock: @unchecked Sendable {
    private let released = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)

    /// Returns once the lock is held.
    static func hold(_ store: LibraryStore) async -> WriteLock {
        let lock = WriteLock()
        await withCheckedContinuation { (held: CheckedContinuation<Void, Never>) in
            Task.detached {
                _ = try? await store.run { _ in
                    held.resume()
                    lock.released.wait()
                }
                lock.ended.signal()
            }
        }
        return lock
    }

    /// Returns once the lock is let go.
    func release() {
        released.signal()
        ended.wait()
    }
}

/// All a library holds: its rows, its journal and its Works' crops (`dump`), and the names in its crops folder,
/// so a refusal that left a crop file behind shows too.
struct LibraryContents: Equatable, Sendable {
    let dump: LibraryDump
    let cropFiles: [String]

    init(_ store: LibraryStore) async throws {
        dump = try await store.dump()
        cropFiles = try FileManager.default.contentsOfDirectory(atPath: store.cropsDirectory.path).sorted()
    }
}

extension InProcessScene {
    /// The router over a `ShelfScene`'s library: five pending books of one photo, with their crops.
    static func overShelf(busyTimeout: TimeInterval = LibraryStore.busyTimeout) async throws -> (InProcessScene, ShelfScene) {
        let shelf = try await ShelfScene.make()
        return (try InProcessScene(libraryPath: shelf.path, busyTimeout: busyTimeout), shelf)
    }

    func remove(_ shelf: ShelfScene) {
        try? FileManager.default.removeItem(at: directory)
        try? FileManager.default.removeItem(at: URL(fileURLWithPath: shelf.path).deletingLastPathComponent())
    }
}

extension TestClientProtocol {
    func postJSON(_ uri: String, _ json: String) async throws -> TestResponse {
        try await execute(uri: uri, method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: json))
    }

    func postJSON(_ uri: String, _ object: [String: Any]) async throws -> TestResponse {
        try await execute(uri: uri, method: .post, headers: [.contentType: "application/json"],
                          body: ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: object)))
    }
}
