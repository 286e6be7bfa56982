import AsyncHTTPClient
import Foundation
import LibraryPostgres
import ShelfScanServer
import Testing

/// Two `shelfscan serve` instances on one PostgreSQL library, as a team runs them: what one scans the other
/// reviews (crops included, from the database), and a decision made on a stale revision through either
/// server is refused, never written over the other's.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["SHELFSCAN_TEST_POSTGRES_URL"] != nil,
                             "needs SHELFSCAN_TEST_POSTGRES_URL (scripts/test starts a server)"))
struct SharedLibraryServeTests {
    static var environment: [String: String] {
        ProcessInfo.processInfo.environment["PGPASSWORD"].map { ["PGPASSWORD": $0] } ?? [:]
    }

    @Test func whatOneServerScansTheOtherReviewsAndStaleDecisionsAreRefused() async throws {
        let server = try #require(ProcessInfo.processInfo.environment["SHELFSCAN_TEST_POSTGRES_URL"])
        let library = try await PostgresLibraryStore.createDatabase(named: "shelfscan_serve_\(UUID().uuidString.prefix(8).lowercased())",
                                                                    besides: server, password: Self.environment["PGPASSWORD"])
        let scanner = try ServerProcess.start(library: library, environment: Self.environment)
        let reviewer = try ServerProcess.start(library: library, environment: Self.environment)
        let a = Client(scanner), b = Client(reviewer)
        defer { Task { try? await a.shutdown(); try? await b.shutdown() } }

        // A scan through the first server files its spines in the shared library.
        let (_, works) = try await ReviewOverHTTPTests.scanShelf(a, seed: 41)
        #expect(works.count >= 3)

        // The second server sees the same queue, and each Work's crop (stored in the database).
        let page = try await b.get("\(RoutePath.works)?limit=100")
        #expect(page.status == 200)
        #expect((page.data["works"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } == works)
        let crop = try await b.get(RoutePath.workCrop(works[0]))
        #expect(crop.status == 200 && Array(crop.body.prefix(3)) == [0xFF, 0xD8, 0xFF])

        // Both reviewers saw revision r; the first decision wins, the second is a 409 whichever server takes it.
        let revision = try #require(try await b.get(RoutePath.work(works[0])).data["revision"] as? Int)
        let first = try await a.postJSON(RoutePath.decision(works[0], "edit"),
                                         ["revision": revision, "title": "Kindred", "authors": ["Octavia E. Butler"]])
        #expect(first.status == 200, "\(first.text)")
        BadInputTests.expectProblem(try await b.postJSON(RoutePath.decision(works[0], "edit"),
                                                         ["revision": revision, "title": "Dawn", "authors": ["Octavia E. Butler"]]),
                                    409, "CONFLICT")
        let after = try await b.get(RoutePath.work(works[0]))
        #expect((after.data["work"] as? [String: Any])?["title"] as? String == "Kindred")

        // The library holds that one decision, as the store reads it.
        let store = try await PostgresLibraryStore(url: library, password: Self.environment["PGPASSWORD"])
        #expect(try await store.pendingCount() == works.count - 1)
        #expect(try await store.work(id: Int64(works[0]))?.title == "Kindred")
    }
}
