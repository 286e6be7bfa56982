import AsyncHTTPClient
import Foundation
import Library
import ShelfScanTestSupport
import Testing

/// kill -9 mid-job, then a restart: every accepted job completes (or fails with a reason), no photo twice.
@Suite(.serialized)
struct RestartTests {
    @Test func jobsAcceptedBeforeAKillAreFinishedAfterTheRestartAndNoPhotoIsFiledTwice() async throws {
        // Given a server scanning one job at a time, and six jobs of three larger photos each (enough that the
        // kill lands before the last one is done even when a loaded machine delays the test's own stream reader).
        // The photos are drawn before the first job is sent: drawing them between jobs let a fast server finish
        // each job while the test was still drawing the next, and so every job before the kill.
        // When the server is killed with SIGKILL the moment the first photo of the first job is done (by the
        // thread reading the stream, so a busy test process cannot delay the kill past the other jobs). On a
        // machine busy enough that the stream still arrives after every job is done (the kill then tests
        // nothing), the scene is set again with a new server and library, up to three times.
        var attempt: (server: ServerProcess, jobIDs: [String])?
        for round in 0..<3 where attempt == nil {
            let server = try ServerProcess.start(["--concurrent-jobs", "1"])
            let client = Client(server)
            let jobs = try (0..<6).map { job in
                try (0..<3).map { try Samples.drawn(seed: 500 + UInt64(100 * round + job * 3 + $0), width: 1600) }
            }
            var jobIDs: [String] = []
            for photos in jobs {
                let accepted = try await client.submit(photos)
                #expect(accepted.status == 202)
                jobIDs.append(try #require(accepted.data["jobId"] as? String))
            }
            let killed = await BlockingWebSocket.readUntil(port: server.port, path: "/v3/jobs/scans/\(jobIDs[0])/stream",
                                                           headers: [("Accept", "text/event-stream")] + server.authorization,
                                                           marker: "event: progress\nid: 1\n") { server.kill9() }
            #expect(killed)
            try await client.shutdown()
            let before = try await Self.statuses(jobIDs, server.library)
            if before.contains(where: { $0 != "completed" }) { attempt = (server, jobIDs) }
        }
        let (server, jobIDs) = try #require(attempt, "in three tries the kill never came before every job finished")

        // Then a restarted server on the same library finishes every job
        let restarted = try ServerProcess.start(library: server.library, ["--concurrent-jobs", "2"])
        let again = Client(restarted)
        defer { Task { try? await again.shutdown() } }
        var workIDs: [Int] = []
        for jobID in jobIDs {
            let events = try await again.events("/v3/jobs/scans/\(jobID)/stream")
            #expect(events.last?.name == "completed", "\(jobID): \(events.last?.data ?? "no events")")
            let results = try await again.get("/v3/jobs/scans/\(jobID)/results")
            let books = try #require(results.data["books"] as? [[String: Any]])
            #expect(!books.isEmpty)
            let photos = try #require(results.data["photos"] as? [[String: Any]])
            #expect(photos.count == 3)
            #expect(photos.allSatisfy { ["scanned", "alreadyFiled"].contains($0["outcome"] as? String) })
            workIDs += books.compactMap { $0["workId"] as? Int }
        }
        #expect(restarted.log.contains { $0.contains("job resumed after restart") })

        // And the library has each of the 18 photos once, each spine once
        let store = try LibraryStore(path: restarted.library)
        let works = try store.works(includePending: true)
        #expect(Set(works.compactMap { $0.spine?.photoContentHash }).count == 18)
        #expect(works.count == workIDs.count)
        #expect(Set(workIDs) == Set(works.compactMap(\.id).map(Int.init)))
    }

    /// Job states as the files on disk say, read without a server.
    static func statuses(_ ids: [String], _ library: String) async throws -> [String] {
        let folder = URL(fileURLWithPath: library).deletingPathExtension().appendingPathExtension("jobs")
        return try ids.map { id in
            let data = try Data(contentsOf: folder.appendingPathComponent(id).appendingPathComponent("job.json"))
            return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["status"] as? String ?? "?"
        }
    }
}
