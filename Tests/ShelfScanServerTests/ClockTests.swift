import BookModel
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Library
import LibraryCore
@testable import ShelfScanServer
import Testing

/// What the server does when time passes, on the scene's `ManualClock`: each test moves the clock once the
/// code under test is sleeping on it (or has read it), so nothing waits for real time to pass.
@Suite struct ClockTests {
    @Test func aDecisionMadeByAnotherProcessShowsInResultsOnceTheirCheckIsStale() async throws {
        let scene = try InProcessScene()
        defer { try? FileManager.default.removeItem(at: scene.directory) }
        await scene.gate.open()
        try await scene.test { client in
            // Given a finished job whose results were read (and so checked against the library) at time 0
            let (id, token) = try await client.submit([try Samples.drawn(seed: 71, width: 640)]).acceptedJob()
            #expect(try await scene.finished(id).status == .completed)
            let before = try #require(try await client.get(RoutePath.scanResults(id), token: token).data["books"] as? [[String: Any]])
            let workID = try #require(before.first?["workId"] as? Int)
            #expect(before.first?["rejected"] as? Bool != true)

            // When another process (`shelfscan review` on the same library) rejects the first book's Work
            _ = try await scene.library.review(ReviewDecision(workID: Int64(workID), action: .reject), defaults: ReviewDefaults(), date: Date())

            // Then results read within the freshness still say what the check at time 0 saw
            scene.clock.advance(by: ResultsCache.freshness - .milliseconds(1))
            let fresh = try await client.get(RoutePath.scanResults(id), token: token).data["books"] as? [[String: Any]]
            #expect(fresh?.first?["rejected"] as? Bool != true)
            // And once it has passed, the library is asked again and the book reads as rejected
            scene.clock.advance(by: .milliseconds(1))
            let stale = try await client.get(RoutePath.scanResults(id), token: token).data["books"] as? [[String: Any]]
            #expect(stale?.first?["rejected"] as? Bool == true)
            #expect(stale?.first?["cropUrl"] == nil)
        }
    }

    @Test func everyEnvelopeIsDatedByTheClockAndAStatusReadsItsJobsLatestState() async throws {
        let scene = try InProcessScene()
        defer { try? FileManager.default.removeItem(at: scene.directory) }
        try await scene.test { client in
            func timestamp(_ reply: TestResponse) -> String? { (reply.json["metadata"] as? [String: Any])?["timestamp"] as? String }
            let start = ISO8601.string(from: ManualClock.epoch), later = ISO8601.string(from: ManualClock.epoch.addingTimeInterval(90))
            // Given a job held at the gate: its status (asked for in capitals) says so, dated when the clock started
            let (id, token) = try await scene.heldJob(client, seed: 74)
            let held = try await client.get(RoutePath.scan(id.uppercased()), token: token)
            #expect(held.data["status"] as? String == "processing" && held.data["jobId"] as? String == id)
            #expect(timestamp(held) == start && held.data["startTime"] as? String == start)

            // When 90 s pass on the clock and the job completes
            scene.clock.advance(by: .seconds(90))
            await scene.gate.open()
            #expect(try await scene.finished(id).status == .completed)

            // Then its status says completed at that time, and every envelope is dated by the clock
            let done = try await client.get(RoutePath.scan(id), token: token)
            #expect(done.data["status"] as? String == "completed" && done.data["completedTime"] as? String == later)
            #expect(timestamp(done) == later)
            #expect(timestamp(try await client.get(RoutePath.scanResults(id), token: token)) == later)
            #expect(timestamp(try await client.get(RoutePath.health)) == later)
        }
    }

    @Test func aStreamSendsAPingEachIntervalWhileItsJobIsHeld() async throws {
        let scene = try InProcessScene()
        defer { try? FileManager.default.removeItem(at: scene.directory) }
        try await scene.test { client in
            // Given a job held at the gate and a client reading its stream
            let (id, token) = try await scene.heldJob(client, seed: 72)
            async let stream = client.get(RoutePath.scanStream(id), token: token)

            // When the ping interval passes twice (each time once the stream's pinger sleeps again)
            await scene.clock.sleepsStarted(1)
            scene.clock.advance(by: ServerConfiguration().pingInterval)
            await scene.clock.sleepsStarted(2)
            scene.clock.advance(by: ServerConfiguration().pingInterval)
            await scene.clock.sleepsStarted(3)
            // and the job then completes
            await scene.gate.open()

            // Then the stream has two pings, dated by the clock, before the photo's progress and the final event
            // (the progress of the state the job was in when the stream opened may come before or between them)
            let body = String(buffer: try await stream.body)
            var events = body.components(separatedBy: "\n\n").compactMap { $0.split(separator: "\n").first { $0.hasPrefix("event: ") } }
            events.remove(at: try #require(events.firstIndex(of: "event: progress")))
            #expect(events == ["event: ping", "event: ping", "event: progress", "event: completed"], "\(body)")
            for seconds in [30.0, 60.0] {
                #expect(body.contains(ISO8601.string(from: ManualClock.epoch.addingTimeInterval(seconds))), "\(body)")
            }
        }
    }

    @Test func aSocketClientThatNeverSaysReadyIsSentProgressOnceTheReadyTimeoutPasses() async throws {
        let scene = try InProcessScene()
        defer { try? FileManager.default.removeItem(at: scene.directory) }
        try await scene.live { client in
            // Given a job held at the gate and a v1 socket client that connects and stays silent
            let (id, token) = try await scene.heldJob(client, seed: 73)
            let port = try #require(client.port)
            async let conversation = BlockingWebSocket.converse(port: port, path: "\(RoutePath.progressSocket)?jobId=\(id)",
                                                                headers: [("Sec-WebSocket-Protocol", "bookstrack-auth.\(token)")])

            // When the ready timeout passes on the clock the socket waits on, and the job then completes
            await scene.clock.sleepsStarted(1)
            scene.clock.advance(by: ServerConfiguration().readyTimeout)
            await scene.gate.open()

            // Then it is sent the job's messages without a ready_ack, from job_started to job_complete, and closed
            let transcript = await conversation
            #expect(transcript.failure == nil, "\(transcript.failure ?? "")")
            let types = transcript.texts.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["type"] as? String }
            #expect(types == ["job_started", "job_progress", "job_progress", "job_complete"], "\(transcript.texts)")
            #expect(transcript.closeCode == 1000)
        }
    }
}
