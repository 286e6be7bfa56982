import AsyncHTTPClient
import Foundation
import Library
import LibraryCore
import ShelfScan
@testable import ShelfScanServer
import ShelfScanTestSupport
import Testing

/// Restarts of the real binary: after a kill -9, and on job files left mid-scan.
@Suite(.serialized)
struct RestartTests {
    @Test func jobsAcceptedBeforeAKillAreFinishedAfterTheRestartAndNoPhotoIsFiledTwice() async throws {
        // Given a server scanning one job at a time, killed with SIGKILL right after accepting six jobs of three
        // photos each (drawn before the first is sent). Where the kill lands does not matter to what follows:
        // every accepted job is on disk before its 202, so each is finished after the restart whatever state it
        // was in; `aJobLeftMidScanIsResumed` and `RecoveryTests` set each state exactly. So the photos are the
        // small ones the other tests scan: larger ones only made this the slowest test of the suite.
        let server = try ServerProcess.start(["--concurrent-jobs", "1"])
        let client = Client(server)
        let jobs = try (0..<6).map { job in try (0..<3).map { try Samples.drawn(seed: 500 + UInt64(job * 3 + $0)) } }
        var jobIDs: [String] = []
        for photos in jobs {
            let accepted = try await client.submit(photos)
            #expect(accepted.status == 202)
            jobIDs.append(try #require(accepted.data["jobId"] as? String))
        }
        server.kill9()
        try await client.shutdown()

        // Then a restarted server on the same library finishes every job
        let restarted = try ServerProcess.start(library: server.library, ["--concurrent-jobs", "2"])
        let again = Client(restarted)
        defer { Task { try? await again.shutdown() } }
        var workIDs: [Int] = []
        for jobID in jobIDs {
            let events = try await again.events(RoutePath.scanStream(jobID))
            #expect(events.last?.name == "completed", "\(jobID): \(events.last?.data ?? "no events")")
            let results = try await again.get(RoutePath.scanResults(jobID))
            let books = try #require(results.data["books"] as? [[String: Any]])
            #expect(!books.isEmpty)
            let photos = try #require(results.data["photos"] as? [[String: Any]])
            #expect(photos.count == 3)
            #expect(photos.allSatisfy { ["scanned", "alreadyFiled"].contains($0["outcome"] as? String) })
            workIDs += books.compactMap { $0["workId"] as? Int }
        }

        // And the library has each of the 18 photos once, each spine once
        let store = try LibraryStore(path: restarted.library)
        let works = try await store.works(includePending: true)
        #expect(Set(works.compactMap { $0.spine?.photoContentHash }).count == 18)
        #expect(works.count == workIDs.count)
        #expect(Set(workIDs) == Set(works.compactMap(\.id).map(Int.init)))
    }

    @Test func aJobLeftMidScanIsResumedAndItsFiledPhotoIsNotFiledAgain() async throws {
        // Given the files a server killed mid-job leaves: a processing job of two photos whose first was filed
        // before the kill (by `shelfscan scan` on the same library) but not yet written into job.json
        let library = try ShelfscanProcess.temporaryDirectory("restart").appendingPathComponent("library.sqlite").path
        let photos = try (0..<2).map { [UInt8](try Samples.drawn(seed: 700 + UInt64($0), width: 640)) }
        let store = try JobStore(directory: URL(fileURLWithPath: library).deletingPathExtension().appendingPathExtension("jobs").path)
        let job = ScanJob(id: UUID(), api: .v3, tokenHash: JobToken.hash("job-token"), status: .processing, createdAt: Date(),
                          startedAt: Date(), completedAt: nil,
                          photos: photos.enumerated().map { index, bytes in
                              JobPhoto(file: "photo-\(index + 1).jpg", originalName: nil, bytes: bytes.count,
                                       contentHash: ContentHash.sha256Hex(bytes), result: nil)
                          },
                          error: nil, attempts: 1)
        try store.create(job, photos: photos)
        let filed = try ShelfscanProcess.run(["scan", store.photoURL(job, 0).path, "--reader", "none", "--library", library])
        #expect(filed.status == 0, "\(filed.stderr)")
        let before = try await LibraryStore(path: library).works(includePending: true).count
        #expect(before > 0)

        // When a server starts on them
        let server = try ServerProcess.start(library: library)
        let client = Client(server, serverToken: false)
        defer { Task { try? await client.shutdown() } }
        let id = job.id.uuidString.lowercased()
        let events = try await client.events(RoutePath.scanStream(id), headers: [("Authorization", "Bearer job-token")])

        // Then it says it resumed the job, which completes: the first photo as already filed, the second scanned
        #expect(events.last?.name == "completed", "\(events.last?.data ?? "no events")")
        #expect(server.log(atLeast: 1) { $0.contains("job resumed after restart") }.contains { $0.contains("job resumed after restart") })
        let results = try await client.get(RoutePath.scanResults(id), headers: [("Authorization", "Bearer job-token")])
        let outcomes = (results.data["photos"] as? [[String: Any]])?.compactMap { $0["outcome"] as? String }
        #expect(outcomes == ["alreadyFiled", "scanned"])
        // And the library holds the first photo's spines once
        let works = try await LibraryStore(path: library).works(includePending: true)
        #expect(Set(works.compactMap { $0.spine?.photoContentHash }).count == 2)
        #expect(works.filter { $0.spine?.photoContentHash == job.photos[0].contentHash }.count == before)
    }
}
