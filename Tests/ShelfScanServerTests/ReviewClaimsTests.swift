import BookModel
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Library
import LibraryCore
import LibraryPostgres
import Logging
import NIOCore
import ShelfScan
@testable import ShelfScanServer
import ShelfScanTestSupport
import Testing

/// Two browsers on the review page of one shared (PostgreSQL) library, served in process: each is a reviewer of
/// its own, given its next book through the library's claims as each `shelfscan review` is, so neither is shown
/// a book the other holds or has decided. Claims pass on by moving past a book, never by waiting out a lease.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["SHELFSCAN_TEST_POSTGRES_URL"] != nil,
                "needs SHELFSCAN_TEST_POSTGRES_URL (scripts/test starts a server)"))
struct ReviewClaimsTests {
    @Test func twoBrowsersAreGivenDifferentBooksAndNeverTheOnesTheOtherDecided() async throws {
        // Given the five pending books of one photo in a shared library, and the server over it
        let password = ProcessInfo.processInfo.environment["PGPASSWORD"]
        let url = try await PostgresLibraryStore.createDatabase(named: "shelfscan_claims_\(UUID().uuidString.prefix(8).lowercased())",
                                                                besides: try #require(ProcessInfo.processInfo.environment["SHELFSCAN_TEST_POSTGRES_URL"]),
                                                                password: password)
        let store = try await PostgresLibraryStore(url: url, password: password)
        let scene = try await ShelfScene.make()
        let ids = try await store.file(PhotoFiling(contentHash: ShelfScene.contentHash, originalImagePath: scene.photoPath,
                                                   imageWidth: ShelfScene.width, imageHeight: ShelfScene.height, spines: scene.filings))
        let directory = try ShelfscanProcess.temporaryDirectory("claims")
        let scanner = PhotoScanner(library: store)
        let jobs = JobManager(scanner: scanner, library: store, store: try JobStore(directory: directory.appendingPathComponent("jobs").path),
                              concurrentJobs: 1, logger: Logger(label: "test"))
        let router = ShelfScanServer(configuration: ServerConfiguration(), scanner: scanner).makeRouter(jobs: jobs, library: store)

        try await Application(router: router).test(.router) { client in
            // Each browser opening the review page is named as a reviewer of its own
            func reviewer() async throws -> HTTPFields {
                let page = try await client.execute(uri: "/review", method: .get)
                let cookie = try #require(page.headers[.setCookie]?.split(separator: ";").first)
                #expect(cookie.hasPrefix("shelfscan_reviewer="))
                return [.cookie: String(cookie), .contentType: "application/json"]
            }
            func post(_ path: String, _ who: HTTPFields, _ body: String = "{}") async throws -> TestResponse {
                try await client.execute(uri: path, method: .post, headers: who, body: ByteBuffer(string: body))
            }
            func next(_ who: HTTPFields, after: Work.ID? = nil) async throws -> Work.ID? {
                let answer = try await post(RoutePath.nextWork, who, after.map { "{\"after\": \($0)}" } ?? "{}")
                #expect(answer.status == .ok, "\(answer.json)")
                return (answer.data["work"] as? [String: Any])?["id"] as? Int64
            }
            let ann = try await reviewer(), bob = try await reviewer()
            #expect(ann[.cookie] != bob[.cookie])

            // When both ask for their next book, they are given different ones; asking again (a reload) keeps one's own
            #expect(try await next(ann) == ids[0])
            #expect(try await next(bob) == ids[1])
            #expect(try await next(ann) == ids[0])
            // and one cannot decide the book the other holds
            try await post(RoutePath.decision(ids[0], "reject"), bob).expectProblem(409, "CONFLICT")

            // When Ann verifies hers and Bob moves past his
            let verified = try await post(RoutePath.decision(ids[0], "verify"), ann)
            #expect(verified.status == .ok, "\(verified.json)")
            #expect(try await next(bob, after: ids[1]) == ids[2])
            // Then the book Bob left is free for Ann, who goes on from the one she decided
            #expect(try await next(ann, after: ids[0]) == ids[1])
            // and Bob, going on round the end of the queue, is never shown Ann's decided book nor the one she holds
            #expect(try await next(bob, after: ids[2]) == ids[3])
            #expect(try await next(bob, after: ids[3]) == ids[4])
            #expect(try await next(bob, after: ids[4]) == ids[2])

            // Each reviewer's undo is their own: Bob has decided nothing, Ann's verify is taken back
            try await post(RoutePath.undo, bob).expectProblem(409, "NOTHING_TO_UNDO")
            let undone = try await post(RoutePath.undo, ann)
            #expect(undone.status == .ok && undone.data["restoredWorkIds"] as? [Int64] == [ids[0]], "\(undone.json)")
        }
        #expect(try await store.work(id: ids[0])?.reviewStatus == .needsReview)
    }
}
