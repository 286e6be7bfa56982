import BookModel
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// BooksTrack's v3 scan jobs (multipart upload, status, results, SSE progress, cancel) and v1's raw-body
/// upload and results. Handlers are thin: `UploadReader` checks input, `JobManager` does the rest.
struct ScanRoutes: Sendable {
    let jobs: JobManager
    let uploads: UploadReader
    let pingInterval: Duration

    // MARK: v3

    /// 202 once the job is on disk: `{jobId, status: "queued", streamUrl, statusUrl, resultsUrl, token}`, and
    /// `leftOut` when the request carried files in fields that are not read.
    func submit(_ request: Request, context: ServerContext) async throws -> Response {
        let upload = try await uploads.multipartPhotos(request)
        let (job, token) = try await jobs.submit(upload.photos, api: .v3)
        let id = job.id.uuidString.lowercased()
        return try JSONResponse.envelope(Accepted(jobId: id, status: job.status, streamUrl: RoutePath.scanStream(id),
                                                  statusUrl: RoutePath.scan(id), resultsUrl: RoutePath.scanResults(id),
                                                  token: token, totalCount: job.totalCount,
                                                  leftOut: upload.leftOut.isEmpty ? nil : upload.leftOut),
                                         status: .accepted, context: context, clock: jobs.clock, headers: [.location: RoutePath.scan(id)])
    }

    struct Accepted: Encodable, Sendable {
        var jobId: String
        var status: JobStatus
        var streamUrl: String
        var statusUrl: String
        var resultsUrl: String
        var token: String
        var totalCount: Int
        /// Absent when every file was read.
        var leftOut: [LeftOutPart]?
    }

    func status(_ request: Request, context: ServerContext) async throws -> Response {
        let id = try jobID(context)
        guard let data = try jobs.directory.encodedStatus(id) else { throw Problem.notFound(job: id.uuidString.lowercased()) }
        return try JSONResponse.envelope(encodedData: data, context: context, clock: jobs.clock)
    }

    func results(_ request: Request, context: ServerContext) async throws -> Response {
        let id = try jobID(context)
        guard let data = try await jobs.encodedResults(id) else { throw Problem.notFound(job: id.uuidString.lowercased()) }
        return try JSONResponse.envelope(encodedData: data, context: context, clock: jobs.clock)
    }

    /// Idempotent, as BooksTrack's: canceling a finished job answers its state unchanged.
    func cancel(_ request: Request, context: ServerContext) async throws -> Response {
        let id = try jobID(context)
        guard let job = await jobs.cancel(id) else { throw Problem.notFound(job: id.uuidString.lowercased()) }
        return try JSONResponse.envelope(JobStatusDTO(job), context: context, clock: jobs.clock)
    }

    /// Server-Sent Events: `progress` (id = photos processed), then one final `completed` (with the books) or
    /// `failed` (id = photos + 1), and `ping` every `pingInterval`. `Last-Event-ID` resumes after that event;
    /// the final event is sent to every subscriber, however late, so no client misses the end.
    func stream(_ request: Request, context: ServerContext) async throws -> Response {
        let id = try jobID(context)
        guard let states = await jobs.subscribe(id) else { throw Problem.notFound(job: id.uuidString.lowercased()) }
        let lastEventID = request.headers[.lastEventID].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? -1
        let jobs = self.jobs
        let pingInterval = self.pingInterval
        let clock = jobs.clock
        let headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-cache", HTTPField.Name("X-Accel-Buffering")!: "no"]
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            enum Item: Sendable { case state(ScanJob), ping }
            let (items, continuation) = AsyncStream<Item>.makeStream()
            let forward = Task {
                for await job in states { continuation.yield(.state(job)) }
                continuation.finish()
            }
            let pinger = Task {
                while !Task.isCancelled {
                    try await clock.sleep(pingInterval)
                    continuation.yield(.ping)
                }
            }
            defer { forward.cancel(); pinger.cancel(); continuation.finish() }
            try await writer.write(ByteBuffer(string: "retry: 5000\n\n"))
            var sent = lastEventID
            loop: for await item in items {
                switch item {
                case .ping:
                    try await writer.write(SSE.event("ping", data: ["timestamp": clock.timestamp()]))
                case .state(let job):
                    let firstProgress = sent < 0 ? 0 : sent + 1
                    if firstProgress <= job.processedCount {
                        for count in firstProgress...job.processedCount {
                            try await writer.write(SSE.event("progress", id: count, data: SSE.progress(job, processed: count)))
                        }
                        sent = job.processedCount
                    }
                    if job.status.isTerminal {
                        if job.status == .completed, let results = await jobs.results(job.id) {
                            try await writer.write(SSE.event("completed", id: job.totalCount + 1, data: SSE.Completed(job, results)))
                        } else {
                            try await writer.write(SSE.event("failed", id: job.totalCount + 1, data: JobStatusDTO(job)))
                        }
                        break loop
                    }
                }
            }
            try await writer.finish(nil)
        })
    }

    // MARK: v1

    /// `POST /api/scan-bookshelf?jobId=<uuid>` with the raw image: 202 `{jobId, token, status: "started", ...}`.
    func submitV1(_ request: Request, context: ServerContext) async throws -> Response {
        var id = UUID()
        if let given = request.uri.queryParameters.get("jobId") {
            guard let parsed = JobID(rawValue: String(given)) else {
                throw Problem.badRequest("INVALID_JOB_ID", "jobId must be a UUID such as 3f2b8c1e-6a4d-4f0e-9b7a-1c2d3e4f5a6b.")
            }
            id = parsed.uuid
        }
        let photo = try await uploads.rawPhoto(request)
        let (job, token) = try await jobs.submit([photo], api: .v1, id: id)
        let jobID = job.id.uuidString.lowercased()
        return try JSONResponse.plain(AcceptedV1(jobId: jobID, token: token, status: "started",
                                                 websocketUrl: "\(RoutePath.progressSocket)?jobId=\(jobID)",
                                                 resultsUrl: RoutePath.resultsV1(jobID), statusUrl: RoutePath.scan(jobID)),
                                      status: .accepted)
    }

    struct AcceptedV1: Encodable, Sendable {
        var jobId: String
        var token: String
        var status: String
        var websocketUrl: String
        var resultsUrl: String
        var statusUrl: String
    }

    // MARK: Helpers

    /// The route's `{jobId}`; one that is not a UUID names no job, so it is the same 404 as an unknown one.
    func jobID(_ context: ServerContext) throws -> UUID {
        guard let id = context.parameters.get("jobId", as: JobID.self) else { throw Problem.notFound(job: context.parameters.get("jobId") ?? "") }
        return id.uuid
    }
}

/// A job's ID as a typed path or query parameter (`parameters.get("jobId", as: JobID.self)`): parsed in one
/// place, whatever the letter case the client sends.
struct JobID: RawRepresentable, Sendable {
    let uuid: UUID
    var rawValue: String { uuid.uuidString.lowercased() }
    init?(rawValue: String) {
        guard let uuid = Hex.uuid(rawValue) else { return nil }
        self.uuid = uuid
    }
}

/// Server-Sent Events framing: `event:`, optional `id:`, one `data:` line of JSON, a blank line.
enum SSE {
    static func event<T: Encodable>(_ name: String, id: Int? = nil, data: T) -> ByteBuffer {
        let json = (try? JSONResponse.encoder.encode(data)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        var text = "event: \(name)\n"
        if let id { text += "id: \(id)\n" }
        text += "data: \(json)\n\n"
        return ByteBuffer(string: text)
    }

    /// The job as it stood after `processed` photos: progress events are replayed from the count alone.
    static func progress(_ job: ScanJob, processed: Int) -> JobStatusDTO {
        var dto = JobStatusDTO(job)
        dto.processedCount = processed
        dto.progress = job.totalCount > 0 ? (Double(processed) / Double(job.totalCount) * 1000).rounded() / 1000 : 0
        if job.status.isTerminal { dto.status = .processing; dto.completedTime = nil; dto.error = nil }
        return dto
    }

    struct Completed: Encodable, Sendable {
        var jobId: String
        var status: JobStatus
        var progress: Double
        var processedCount: Int
        var totalCount: Int
        var completedTime: String?
        var totalDetected: Int
        var approved: Int
        var needsReview: Int
        var books: [ScanBook]
        var resultsUrl: String

        init(_ job: ScanJob, _ results: JobResultsDTO) {
            jobId = results.jobId; status = job.status; progress = job.progress; processedCount = job.processedCount
            totalCount = job.totalCount; completedTime = job.completedAt.map(ISO8601.string(from:))
            totalDetected = results.totalDetected; approved = results.approved; needsReview = results.needsReview
            books = results.books; resultsUrl = RoutePath.scanResults(results.jobId)
        }
    }
}
