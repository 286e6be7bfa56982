import AsyncHTTPClient
import Foundation
import Library
import LibraryCore
import ShelfScanServer
import ShelfScanTestSupport
import Testing

/// Review decisions over HTTP go through the same store calls as `shelfscan review`.
@Suite(.serialized)
struct ReviewOverHTTPTests {
    /// Scans one drawn shelf through the server and returns its pending Work IDs.
    static func scanShelf(_ client: Client, seed: UInt64) async throws -> (job: String, works: [Int]) {
        let accepted = try await client.submit([try Samples.drawn(seed: seed)])
        let jobID = try #require(accepted.data["jobId"] as? String)
        _ = try await client.events(RoutePath.scanStream(jobID))
        let books = try #require(try await client.get(RoutePath.scanResults(jobID)).data["books"] as? [[String: Any]])
        return (jobID, books.compactMap { $0["workId"] as? Int })
    }

    @Test func pendingWorksAreReviewedWithTheCLIsRulesAndRevisions() async throws {
        // Given a server with two scanned shelves
        let server = try ServerProcess.start()
        let client = Client(server)
        defer { Task { try? await client.shutdown() } }
        let (firstJob, first) = try await Self.scanShelf(client, seed: 11)
        let (_, second) = try await Self.scanShelf(client, seed: 12)
        #expect(first.count >= 3 && second.count >= 2)

        // The queue is paged in filing order
        let page = try await client.get("\(RoutePath.works)?limit=2&offset=1")
        #expect(page.status == 200)
        #expect(page.data["pending"] as? Int == first.count + second.count)
        let listed = try #require(page.data["works"] as? [[String: Any]])
        #expect(listed.compactMap { $0["id"] as? Int } == Array(first[1...2]))
        BadInputTests.expectProblem(try await client.get("\(RoutePath.works)?limit=0"), 400, "INVALID_QUERY")

        // One Work in full, with its crop as a JPEG
        let id = first[0]
        let detail = try await client.get(RoutePath.work(id))
        #expect(detail.status == 200)
        let revision = try #require(detail.data["revision"] as? Int)
        #expect((detail.data["work"] as? [String: Any])?["reviewStatus"] as? String == "needsReview")
        #expect(detail.data["cropUrl"] as? String == RoutePath.workCrop(id))
        let crop = try await client.get(RoutePath.workCrop(id))
        #expect(crop.status == 200 && crop.header("Content-Type") == "image/jpeg")
        #expect(Array(crop.body.prefix(3)) == [0xFF, 0xD8, 0xFF])

        // An unread spine cannot be verified as it is (the CLI's validation): 422, nothing written
        BadInputTests.expectProblem(try await client.postJSON(RoutePath.decision(id, "verify"), ["revision": revision]), 422, "INVALID")
        // An edit with an empty title is refused the same way
        BadInputTests.expectProblem(try await client.postJSON(RoutePath.decision(id, "edit"), ["title": "  ", "authors": ["A"]]), 422, "INVALID")
        // A malformed body is a 400
        BadInputTests.expectProblem(try await client.send("POST", RoutePath.decision(id, "edit"), headers: [("Content-Type", "application/json")],
                                                          body: Data("{not json".utf8)), 400, "MALFORMED_JSON")

        // An edit naming the revision it saw is accepted
        let edited = try await client.postJSON(RoutePath.decision(id, "edit"),
                                               ["revision": revision, "title": "Kindred", "authors": ["Octavia E. Butler"], "isbn": "9780807083697"])
        #expect(edited.status == 200, "\(edited.text)")
        #expect(edited.data["reviewStatus"] as? String == "userEdited")
        // A second write with the old revision is a 409, never a silent overwrite
        BadInputTests.expectProblem(try await client.postJSON(RoutePath.decision(id, "edit"), ["revision": revision, "title": "Other"]),
                                    409, "CONFLICT")
        let after = try await client.get(RoutePath.work(id))
        #expect((after.data["work"] as? [String: Any])?["title"] as? String == "Kindred")

        // Reject, merge (into the edited Work), and undo the merge
        let rejected = try await client.postJSON(RoutePath.decision(first[1], "reject"), [:])
        #expect(rejected.status == 200)
        BadInputTests.expectProblem(try await client.postJSON(RoutePath.decision(first[1], "reject"), [:]), 404, "NOT_FOUND")
        let merged = try await client.postJSON(RoutePath.decision(first[2], "merge"), ["into": id])
        #expect(merged.status == 200)
        #expect(merged.data["resultingWorkId"] as? Int == id)
        BadInputTests.expectProblem(try await client.postJSON(RoutePath.decision(second[0], "merge"), ["into": second[0]]), 422, "INVALID")
        let undone = try await client.postJSON(RoutePath.undo, [:])
        #expect(undone.status == 200)
        #expect((undone.data["restoredWorkIds"] as? [Int])?.contains(first[2]) == true)
        #expect(try await client.get(RoutePath.work(first[2])).status == 200)

        // The library holds exactly those decisions, as the CLI's store reads them
        let store = try LibraryStore(path: server.library)
        let kindred = try #require(try store.work(id: Int64(id)))
        #expect(kindred.title == "Kindred" && kindred.reviewStatus == .userEdited)
        #expect(try store.work(id: Int64(first[1])) == nil)
        #expect(try store.work(id: Int64(first[2]))?.reviewStatus == .needsReview)
        #expect(try store.journal(limit: 10).filter { $0.session == "http" }.count == 3)

        // And the first job's results show each book's live review status
        let results = try await client.get(RoutePath.scanResults(firstJob))
        let books = try #require(results.data["books"] as? [[String: Any]])
        #expect(books[0]["reviewStatus"] as? String == "userEdited")
        #expect(books[1]["rejected"] as? Bool == true && books[1]["cropUrl"] == nil)
        #expect(results.data["approved"] as? Int == 1)
        #expect(results.data["needsReview"] as? Int == first.count - 2)
        BadInputTests.expectProblem(try await client.get(RoutePath.work(999999)), 404, "NOT_FOUND")
    }

    @Test func bulkVerifyTakesThePhotosBooksReadAtTheBarAsOneUndoableDecision() async throws {
        // Given one photo's five pending books, read at 94, 81, 88, 62 and 90%
        let scene = try ShelfScene.make()
        let server = try ServerProcess.start(library: scene.path)
        let client = Client(server)
        defer { Task { try? await client.shutdown() }; server.stop() }
        let route = RoutePath.bulkVerify

        // A request without the photo or the bar, or with a bar beyond 0-1, decides nothing
        BadInputTests.expectProblem(try await client.postJSON(route, ["minConfidence": 0.8]), 422, "INVALID")
        BadInputTests.expectProblem(try await client.postJSON(route, ["photoContentHash": ShelfScene.contentHash, "minConfidence": 1.5]), 422, "INVALID")
        BadInputTests.expectProblem(try await client.postJSON(route, ["photoContentHash": ShelfScene.contentHash, "minConfidence": "high"]),
                                    400, "MALFORMED_JSON")
        // A shelf row without books, or a bar above every reading, takes nothing and journals nothing
        for body: [String: Any] in [["photoContentHash": ShelfScene.contentHash, "minConfidence": 0.5, "row": 1],
                                    ["photoContentHash": ShelfScene.contentHash, "minConfidence": 0.95]] {
            let none = try await client.postJSON(route, body)
            #expect(none.status == 200 && none.data["verifiedWorkIds"] as? [Int] == [] && none.data["journalId"] == nil, "\(none.text)")
        }
        #expect(try scene.store.journal(limit: 5).isEmpty)

        // When verifying at 85%: the three read at 85% or better, in one journal entry, worded as the terminal's
        let taken = [scene.ids[0], scene.ids[2], scene.ids[4]]
        let bulk = try await client.postJSON(route, ["photoContentHash": ShelfScene.contentHash, "minConfidence": 0.85, "row": 0])
        #expect(bulk.status == 200, "\(bulk.text)")
        #expect(bulk.data["verifiedWorkIds"] as? [Int] == taken.map { Int($0) })
        #expect(try scene.store.reviewStatuses(ids: scene.ids) == [scene.ids[0]: .verified, scene.ids[1]: .needsReview, scene.ids[2]: .verified,
                                                                   scene.ids[3]: .needsReview, scene.ids[4]: .verified])
        let journal = try scene.store.journal(limit: 5)
        #expect(journal.count == 1 && journal.first?.kind == "bulk" && journal.first?.session == "http")
        #expect(journal.first?.summary == "verified 3 of shelf 1 read at 85% or better")
        #expect(bulk.data["journalId"] as? Int == journal.first.map { Int($0.id) })

        // Then one undo takes all three back
        let undone = try await client.postJSON(RoutePath.undo, [:])
        #expect(undone.status == 200)
        #expect(Set(undone.data["restoredWorkIds"] as? [Int] ?? []) == Set(taken.map { Int($0) }))
        #expect(try scene.store.pendingCount() == 5)
    }

    @Test func splitAndJoinRedrawBoxesAsTheTerminalDoes() async throws {
        // Given five pending books of one photo
        let scene = try ShelfScene.make()
        let server = try ServerProcess.start(library: scene.path)
        let client = Client(server)
        defer { Task { try? await client.shutdown() }; server.stop() }
        let kindred = try #require(try scene.store.work(id: scene.ids[0]))
        let box = try #require(kindred.boundingBox)

        // A cut outside the box's middle 80%, or a stale revision, changes nothing
        BadInputTests.expectProblem(try await client.postJSON(RoutePath.decision(kindred.id!, "split"), ["at": 0.95]), 422, "INVALID")
        BadInputTests.expectProblem(try await client.postJSON(RoutePath.decision(kindred.id!, "split"), ["revision": kindred.revision + 1]),
                                    409, "CONFLICT")
        // The last box on the shelf has no box to its right to join
        BadInputTests.expectProblem(try await client.postJSON(RoutePath.decision(scene.ids[4], "join"), [:]), 422, "CANNOT_RESHAPE")
        #expect(try scene.store.pendingCount() == 5)

        // When Kindred's box is split at 40% of its width, with the revision seen
        let split = try await client.postJSON(RoutePath.decision(kindred.id!, "split"), ["revision": kindred.revision, "at": 0.4])
        #expect(split.status == 200, "\(split.text)")
        #expect(split.data["replacedWorkIds"] as? [Int] == [Int(kindred.id!)])
        let pieces = try #require(split.data["createdWorkIds"] as? [Int])
        #expect(pieces.count == 2)
        // Then two pending boxes stand in its place, cut where asked, each with its crop
        let left = try #require(try scene.store.work(id: Int64(pieces[0]))?.boundingBox)
        let right = try #require(try scene.store.work(id: Int64(pieces[1]))?.boundingBox)
        #expect(abs(left.x - box.x) < 1e-6 && abs(left.width - box.width * 0.4) < 1e-6)
        #expect(abs(right.x - (box.x + box.width * 0.4)) < 1e-6 && abs(right.width - box.width * 0.6) < 1e-6)
        #expect(try await client.get(RoutePath.workCrop(pieces[1])).status == 200)
        #expect(try scene.store.work(id: kindred.id!) == nil && (try scene.store.pendingCount()) == 6)

        // And joining Noise with its right neighbour, Middlemarch, gives one box over both, read as the surer of
        // the two (88% against 62%)
        let (noise, middlemarch) = (ShelfScene.spines[2], ShelfScene.spines[3])
        let join = try await client.postJSON(RoutePath.decision(scene.ids[2], "join"), [:])
        #expect(join.status == 200, "\(join.text)")
        #expect(join.data["replacedWorkIds"] as? [Int] == [Int(scene.ids[2]), Int(scene.ids[3])])
        let joined = try #require(try (join.data["createdWorkIds"] as? [Int])?.first.flatMap { try scene.store.work(id: Int64($0)) })
        let whole = try #require(joined.boundingBox)
        #expect(abs(whole.x - Double(noise.x) / Double(ShelfScene.width)) < 1e-6)
        #expect(abs(whole.x + whole.width - Double(middlemarch.x + middlemarch.width) / Double(ShelfScene.width)) < 1e-6)
        #expect(joined.title == "Noise" && joined.reviewStatus == .needsReview)
        #expect(try scene.store.pendingCount() == 5)

        // Undo takes back the join, then the split
        #expect(Set(try await client.postJSON(RoutePath.undo, [:]).data["restoredWorkIds"] as? [Int] ?? []) == [Int(scene.ids[2]), Int(scene.ids[3])])
        #expect(try await client.postJSON(RoutePath.undo, [:]).data["restoredWorkIds"] as? [Int] == [Int(kindred.id!)])
        #expect(try scene.store.work(id: kindred.id!)?.title == "Kindred" && (try scene.store.pendingCount()) == 5)
        #expect(try scene.store.journal(limit: 5).map(\.kind).prefix(2).sorted() == ["join", "split"])
    }
}
