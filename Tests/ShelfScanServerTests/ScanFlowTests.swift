import AsyncHTTPClient
import Foundation
@testable import ShelfScanServer
import ShelfScanTestSupport
import Testing

/// Both BooksTrack doors, end to end against the running server: v3 over SSE, v1 over a real WebSocket.
@Suite(.serialized)
struct ScanFlowTests {
    @Test func v3ScanFollowedOverSSEEqualsTheCommandLinesDryRun() async throws {
        // Given a running server and a sample photo
        let server = try ServerProcess.start()
        let client = Client(server)
        defer { Task { try? await client.shutdown() } }
        let photo = try Samples.photo("shelf-01.jpg")

        // When it is submitted and followed over SSE
        let accepted = try await client.submit([photo])
        #expect(accepted.status == 202)
        #expect(accepted.json["success"] as? Bool == true)
        let metadata = try #require(accepted.json["metadata"] as? [String: Any])
        #expect(metadata["timestamp"] is String && metadata["requestId"] is String)
        let jobID = try #require(accepted.data["jobId"] as? String)
        #expect(accepted.data["status"] as? String == "queued")
        #expect(accepted.data["streamUrl"] as? String == RoutePath.scanStream(jobID))
        let token = try #require(accepted.data["token"] as? String)
        let events = try await client.events(RoutePath.scanStream(jobID), headers: [("Authorization", "Bearer \(token)")])

        // Then progress events count up to a final `completed` carrying the books
        let names = events.map(\.name)
        #expect(names.last == "completed")
        #expect(names.dropLast().allSatisfy { $0 == "progress" })
        #expect(events.compactMap(\.id) == Array(0...2))
        let completed = try #require(events.last?.json)
        #expect(completed["status"] as? String == "completed")
        let streamedBooks = try #require(completed["books"] as? [[String: Any]])

        // And the results equal `scan --dry-run --json` of the same photo, spine for spine
        let results = try await client.get(RoutePath.scanResults(jobID))
        #expect(results.status == 200)
        let books = try #require(results.data["books"] as? [[String: Any]])
        let cli = try ShelfscanProcess.run(["scan", Samples.directory.appendingPathComponent("shelf-01.jpg").path,
                                            "--reader", "none", "--dry-run", "--json"])
        #expect(cli.status == 0)
        let envelope = try #require(try JSONSerialization.jsonObject(with: Data(cli.stdoutLines[0].utf8)) as? [String: Any])
        let detected = try #require((envelope["data"] as? [String: Any])?["detectedBooks"] as? [[String: Any]])
        #expect(books.count == detected.count && !books.isEmpty)
        #expect(streamedBooks.count == books.count)
        #expect(results.data["totalDetected"] as? Int == detected.count)
        for (book, expected) in zip(books, detected) {
            var work = try #require(book["work"] as? [String: Any])
            var expectedWork = try #require(expected["work"] as? [String: Any])
            // The photo's path is the only difference: the server's upload, the CLI's file.
            #expect((work.removeValue(forKey: "originalImagePath") as? String)?.hasSuffix("/photo-1.jpg") == true)
            expectedWork.removeValue(forKey: "originalImagePath")
            #expect(NSDictionary(dictionary: work).isEqual(to: expectedWork))
            #expect(NSDictionary(dictionary: book["edition"] as? [String: Any] ?? [:]).isEqual(to: expected["edition"] as? [String: Any] ?? [:]))
            #expect(book["confidence"] as? Double == expected["confidence"] as? Double)
            #expect((book["polygon"] as? [[Double]]) == (expected["polygon"] as? [[Double]]))
            #expect(NSDictionary(dictionary: book["boundingBox"] as? [String: Any] ?? [:]).isEqual(to: expectedWork["boundingBox"] as? [String: Any] ?? [:]))
            #expect(book["reviewStatus"] as? String == "needsReview")
            #expect(book["enrichmentStatus"] as? String == "pending")
            #expect(book["title"] == nil, "an unread spine has no title in JSON")
            let workID = try #require(book["workId"] as? Int)
            #expect(book["cropUrl"] as? String == RoutePath.workCrop(workID))
        }

        // And a late subscriber still gets the final event; Last-Event-ID resumes after what was seen
        let late = try await client.events(RoutePath.scanStream(jobID))
        #expect(late.last?.name == "completed")
        let resumed = try await client.events(RoutePath.scanStream(jobID), headers: [("Last-Event-ID", "1")])
        #expect(resumed.map(\.name) == ["completed"])
        #expect(resumed.first?.id == 2)

        // And the status route agrees
        let status = try await client.get(RoutePath.scan(jobID))
        #expect(status.data["status"] as? String == "completed")
        #expect(status.data["progress"] as? Double == 1)
        #expect(status.data["processedCount"] as? Int == 1 && status.data["totalCount"] as? Int == 1)
        #expect(status.data["completedTime"] is String && status.data["startTime"] is String)

        // And every request was logged on one line, without its query string
        let log = server.log(atLeast: 5) { $0.contains("GET /v3/jobs/scans/\(jobID)") }
        #expect(log.filter { $0.contains("GET /v3/jobs/scans/\(jobID)") }.count >= 5)
        #expect(!log.contains { $0.contains(token) }, "the job token never reaches the log")
    }

    @Test func v1RawUploadFollowedOverAWebSocket() async throws {
        // Given a running server and a photo posted raw with a client-chosen job ID. Whether the socket below opens
        // while the job is queued, running or over is the scan's business here; `ProgressSocketTests` sets each
        // of those states at the gate.
        let server = try ServerProcess.start()
        let client = Client(server)
        defer { Task { try? await client.shutdown() } }
        let jobID = UUID().uuidString.lowercased()
        let accepted = try await client.send("POST", "\(RoutePath.submitV1)?jobId=\(jobID)", headers: [("Content-Type", "image/jpeg")],
                                             body: try Samples.drawn(seed: 7))
        #expect(accepted.status == 202)
        #expect(accepted.json["jobId"] as? String == jobID)
        #expect(accepted.json["status"] as? String == "started")
        let token = try #require(accepted.json["token"] as? String)

        // When a WebSocket client connects with the token as a subprotocol and says ready
        let live = await BlockingWebSocket.converse(port: server.port, path: "\(RoutePath.progressSocket)?jobId=\(jobID)",
                                                    headers: [("Sec-WebSocket-Protocol", "bookstrack-auth.\(token)")],
                                                    send: [#"{"type":"ready"}"#])

        // Then the upgrade echoes the subprotocol, and the messages are ready_ack, job_started, progress…,
        // job_complete, each in the v1 envelope; then the server closes (1000) and ends the connection
        #expect(live.failure == nil, "\(live.failure ?? "")")
        #expect(live.status == 101)
        #expect(live.headers["sec-websocket-protocol"] == "bookstrack-auth.\(token)")
        let messages = live.texts.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(messages.count == live.texts.count)
        let types = messages.compactMap { $0["type"] as? String }
        // The client's ready is acknowledged before anything else, whether the job is queued, running or over
        #expect(types.first == "ready_ack", "\(types)")
        if types.count > 2 {
            #expect(types.dropFirst().first == "job_started", "\(types)")
            #expect(types.dropFirst(2).dropLast().allSatisfy { $0 == "job_progress" }, "\(types)")
        }
        #expect(types.last == "job_complete", "\(types)")
        #expect(live.closeCode == 1000)
        #expect(live.endedByServer)
        for message in messages {
            #expect(message["jobId"] as? String == jobID)
            #expect(message["pipeline"] as? String == "ai_scan")
            #expect(message["version"] as? String == "1.0.0")
            #expect(message["timestamp"] is Int)
            #expect(message["payload"] is [String: Any])
        }
        let complete = try #require(messages.last?["payload"] as? [String: Any])
        let total = try #require(complete["totalDetected"] as? Int)
        #expect(total > 0)
        #expect(complete["needsReview"] as? Int == total && complete["approved"] as? Int == 0)
        #expect(complete["resultsUrl"] as? String == RoutePath.resultsV1(jobID))

        // And the v1 results route has the same books, and a late client (token in the query) that says ready
        // gets ready_ack, then job_complete, then the close
        let results = try await client.get(RoutePath.resultsV1(jobID), headers: [("Authorization", "Bearer \(token)")])
        #expect(results.status == 200)
        #expect((results.data["books"] as? [Any])?.count == total)
        let late = await BlockingWebSocket.converse(port: server.port, path: "\(RoutePath.progressSocket)?jobId=\(jobID)&token=\(token)",
                                                    send: [#"{"type":"ready"}"#])
        #expect(late.failure == nil, "\(late.failure ?? "")")
        let lateTypes = late.texts.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["type"] as? String }
        #expect(lateTypes == ["ready_ack", "job_complete"], "\(late.texts)")
        #expect(late.closeCode == 1000 && late.endedByServer)

        // And a wrong or missing token cannot open the socket: the upgrade is answered with the 401 problem
        for headers in [[("Sec-WebSocket-Protocol", "bookstrack-auth.not-the-token")], []] {
            let refused = await BlockingWebSocket.converse(port: server.port, path: "\(RoutePath.progressSocket)?jobId=\(jobID)", headers: headers)
            #expect(refused.status == 401)
            #expect(refused.headers["content-type"] == "application/problem+json")
            #expect(refused.body.contains("\"code\":\"UNAUTHORIZED\""), "\(refused.body)")
            #expect(refused.texts.isEmpty)
        }
        // And an unknown job is refused the same way: the answer never says whether a job exists
        let unknown = await BlockingWebSocket.converse(port: server.port, path: "\(RoutePath.progressSocket)?jobId=\(UUID().uuidString)",
                                                       headers: [("Sec-WebSocket-Protocol", "bookstrack-auth.\(token)")])
        #expect(unknown.status == 401 && unknown.body.contains("UNAUTHORIZED"))
    }
}
