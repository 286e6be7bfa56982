import AsyncHTTPClient
import Foundation
import Library
import LibraryCore
import ShelfScanServer
import ShelfScanTestSupport
import Testing

/// Review decisions over HTTP go through the same store calls as `shelfscan review`: end to end here, the binary
/// over a real socket reviewing the shelves it scanned. Each refusal, from its cause, is in process
/// (`ProblemTests`), and so are bulk verify, split and join over a shelf whose readings the test sets
/// (`ReviewDecisionTests`).
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
        let merged = try await client.postJSON(RoutePath.decision(first[2], "merge"), ["into": id])
        #expect(merged.status == 200)
        #expect(merged.data["resultingWorkId"] as? Int == id)
        let undone = try await client.postJSON(RoutePath.undo, [:])
        #expect(undone.status == 200)
        #expect((undone.data["restoredWorkIds"] as? [Int])?.contains(first[2]) == true)
        #expect(try await client.get(RoutePath.work(first[2])).status == 200)

        // The library holds exactly those decisions, as the CLI's store reads them
        let store = try LibraryStore(path: server.library)
        let kindred = try #require(try await store.work(id: Int64(id)))
        #expect(kindred.title == "Kindred" && kindred.reviewStatus == .userEdited)
        #expect(try await store.work(id: Int64(first[1])) == nil)
        #expect(try await store.work(id: Int64(first[2]))?.reviewStatus == .needsReview)
        #expect(try await store.journal(limit: 10).filter { $0.session == "http" }.count == 3)

        // And the first job's results show each book's live review status
        let results = try await client.get(RoutePath.scanResults(firstJob))
        let books = try #require(results.data["books"] as? [[String: Any]])
        #expect(books[0]["reviewStatus"] as? String == "userEdited")
        #expect(books[1]["rejected"] as? Bool == true && books[1]["cropUrl"] == nil)
        #expect(results.data["approved"] as? Int == 1)
        #expect(results.data["needsReview"] as? Int == first.count - 2)
    }
}
