import BookModel
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore

/// v1 progress over WebSocket, as BooksTrack's iOS client speaks it: connect to
/// `/ws/progress?jobId=...` (token in `Sec-WebSocket-Protocol: bookstrack-auth.<token>`), send
/// `{"type":"ready"}`, receive `ready_ack`, then `job_started`, `job_progress`… and `job_complete` or `error`,
/// each wrapped as `{type, jobId, pipeline: "ai_scan", timestamp, version: "1.0.0", payload}`.
///
/// A client connecting after the job ended gets `ready_ack`, then the final message (BooksTrack's late
/// connect); one that never says `ready` is sent progress anyway after `readyTimeout`.
struct ProgressSocket: Sendable {
    let jobs: JobManager
    let readyTimeout: Duration
    /// How long the server waits for the client's close frame after its own; then it closes the connection.
    var closeGrace: Duration = .seconds(5)

    /// Checks the job before the upgrade, so a bad ID is a 4xx problem rather than a socket closed at once,
    /// and echoes the `bookstrack-auth.` subprotocol the client offered (a browser refuses a socket otherwise).
    func shouldUpgrade(_ request: Request, context: ServerContext) async throws -> RouterShouldUpgrade {
        guard let raw = request.uri.queryParameters.get("jobId") else {
            throw Problem.badRequest("MISSING_JOB_ID", "Connect to \(RoutePath.progressSocket)?jobId=<the job's ID>.")
        }
        guard let id = JobID(rawValue: String(raw)), jobs.job(id.uuid) != nil else { throw Problem.notFound(job: String(raw)) }
        var headers: HTTPFields = [:]
        if let offered = Credential.webSocketProtocol(request) { headers[.secWebSocketProtocol] = offered }
        return .upgrade(headers)
    }

    /// The client's side is read by a child task for the whole conversation: it sees `ready`, answers pings,
    /// and ends when the client closes. The server ends every conversation itself: after the final message it
    /// sends a close frame and waits (at most `closeGrace`) for the client's reply, so a client that stopped
    /// reading never keeps the handler, and one that left early stops the forwarding at once.
    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, context: WebSocketRouterContext<ServerContext>) async throws {
        guard let job = context.request.uri.queryParameters.get("jobId", as: JobID.self),
              let states = await jobs.subscribe(job.uuid) else { return }
        let id = job.uuid
        let jobID = job.rawValue
        let send: @Sendable (String, any Encodable & Sendable) async throws -> Void = { type, payload in
            let message = Message(type: type, jobId: jobID, timestamp: Int64(jobs.clock.date().timeIntervalSince1970 * 1000), payload: AnyPayload(value: payload))
            try await outbound.write(.text(String(decoding: try JSONResponse.encoder.encode(message), as: UTF8.self)))
        }
        let (readySignal, readyContinuation) = AsyncStream<Void>.makeStream()
        enum Ended { case client, forwarding, readyTimeout, closeGrace }

        try await withThrowingTaskGroup(of: Ended.self) { group in
            group.addTask {
                var said = false
                do {
                    for try await message in inbound.messages(maxSize: 64 << 10) {
                        guard case .text(let text) = message, !said,
                              let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                              object["type"] as? String == "ready" else { continue }
                        said = true
                        readyContinuation.yield()
                    }
                } catch {}
                readyContinuation.finish()
                return .client
            }
            group.addTask {
                try? await jobs.clock.sleep(readyTimeout)
                readyContinuation.finish()
                return .readyTimeout
            }
            group.addTask {
                try await forward(id, states: states, ready: readySignal, send: send)
                try await outbound.close(.normalClosure, reason: nil)
                return .forwarding
            }
            while let ended = try await group.next() {
                switch ended {
                case .readyTimeout:
                    continue
                case .forwarding:
                    group.addTask {
                        try? await jobs.clock.sleep(closeGrace)
                        return .closeGrace
                    }
                case .client, .closeGrace:
                    // The client closed (or left, or never answered the close): nothing more to send.
                    group.cancelAll()
                    return
                }
            }
        }
    }

    /// `ready_ack` once the client said ready (nothing if it stayed silent until `readyTimeout`), then the
    /// job's changes until its final message. A client that says `ready` hears `ready_ack` first however late it
    /// comes: BooksTrack's clients wait for it before reading anything else. A job already over when the client
    /// connected (BooksTrack's late connect) is then answered with its final message alone.
    private func forward(_ id: UUID, states: AsyncStream<ScanJob>, ready: AsyncStream<Void>,
                         send: @Sendable (String, any Encodable & Sendable) async throws -> Void) async throws {
        var saidReady = false
        for await _ in ready { saidReady = true; break }
        if saidReady { try await send("ready_ack", ReadyAck(status: "ready")) }

        // A queued job says nothing until it starts: BooksTrack's clients expect `job_started` before any progress.
        var started = false
        var first = true
        for await job in states {
            if first && job.status.isTerminal {
                try await sendFinal(job, send)
                return
            }
            first = false
            if !started && (job.status != .queued) {
                started = true
                try await send("job_started", Started(status: "processing", totalCount: job.totalCount))
            }
            guard started else { continue }
            if job.status.isTerminal {
                try await sendFinal(job, send)
                return
            }
            try await send("job_progress", ProgressPayload(progress: job.progress, status: job.status.rawValue,
                                                           processedCount: job.processedCount, totalCount: job.totalCount))
        }
    }

    private func sendFinal(_ job: ScanJob, _ send: @Sendable (String, any Encodable & Sendable) async throws -> Void) async throws {
        if job.status == .completed, let results = await jobs.results(job.id) {
            try await send("job_complete", Complete(totalDetected: results.totalDetected, approved: results.approved,
                                                    needsReview: results.needsReview, resultsUrl: RoutePath.resultsV1(results.jobId),
                                                    photosProcessed: job.processedCount))
        } else {
            let error = job.error ?? JobError(code: "SCAN_FAILED", message: "The job ended without results.", retryable: false)
            try await send("error", error)
        }
    }

    struct AnyPayload: Encodable, Sendable {
        let value: any Encodable & Sendable
        func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
    }

    struct Message: Encodable, Sendable {
        var type: String
        var jobId: String
        var pipeline = "ai_scan"
        var timestamp: Int64
        var version = "1.0.0"
        var payload: AnyPayload

        init(type: String, jobId: String, timestamp: Int64, payload: AnyPayload) {
            self.type = type; self.jobId = jobId; self.timestamp = timestamp; self.payload = payload
        }
    }

    struct ReadyAck: Encodable, Sendable { var status: String }
    struct Started: Encodable, Sendable { var status: String; var totalCount: Int }
    struct ProgressPayload: Encodable, Sendable {
        var progress: Double
        var status: String
        var processedCount: Int
        var totalCount: Int
    }
    struct Complete: Encodable, Sendable {
        var totalDetected: Int
        var approved: Int
        var needsReview: Int
        var resultsUrl: String
        var photosProcessed: Int
    }
}
