import BookModel
import Foundation
import LibraryCore
import LibraryPostgres
import Testing
@testable import ShelfScanCLI

/// Two people reviewing one PostgreSQL library in the terminal at once (a server from scripts/test).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["SHELFSCAN_TEST_POSTGRES_URL"] != nil,
                "needs SHELFSCAN_TEST_POSTGRES_URL (scripts/test starts a server)"))
struct SharedLibraryReviewTests {
    @Test func twoTerminalReviewsAreNeverShownTheSameWork() async throws {
        // Given a shared library with three pending Works, and two terminal reviews on their own connections
        let url = try await SharedLibraryScanTests.freshLibrary()
        let annStore = try await PostgresLibraryStore(url: url, password: SharedLibraryScanTests.password)
        let bobStore = try await PostgresLibraryStore(url: url, password: SharedLibraryScanTests.password)
        let spines = ["One", "Two", "Three"].enumerated().map { i, title in
            SpineFiling(title: title, authors: ["Ann Author"], boundingBox: BoundingBox(x: 0.1 * Double(i), y: 0.1, width: 0.08, height: 0.8),
                        row: 0, position: i, detectionConfidence: 0.9, readingConfidence: 0.8)
        }
        let ids = try await annStore.file(PhotoFiling(contentHash: String(repeating: "c", count: 64), originalImagePath: "/p.jpg",
                                                      imageWidth: 1000, imageHeight: 800, spines: spines))
        // (Each reviewer named as its session, as two processes would each be their own `processReviewer`.)
        var ann = try await ReviewRunner(store: annStore, session: ReviewSession(sessionName: "ann"), reviewer: "ann")
        var bob = try await ReviewRunner(store: bobStore, session: ReviewSession(sessionName: "bob"), reviewer: "bob")
        // When both start
        await ann.start()
        await bob.start()
        // Then each is shown a Work of its own, the first two of the queue
        #expect(ann.session.work?.id == ids[0] && bob.session.work?.id == ids[1])
        // And when ann verifies hers (Enter), she is shown the next one bob does not hold
        await ann.send(.enter)
        #expect(try await annStore.work(id: ids[0])?.reviewStatus == .verified)
        #expect(ann.session.work?.id == ids[2])
    }
}
