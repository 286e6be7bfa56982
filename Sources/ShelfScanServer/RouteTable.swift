import HTTPTypes
import Hummingbird

/// One route as the OpenAPI document describes it. The router is built from the same list
/// (`ShelfScanServer.register`), so the document cannot name a route the server lacks, nor miss one.
struct RouteSpec: Sendable, Hashable {
    enum Body: String, Sendable { case none, multipart, image, json }

    var method: HTTPRequest.Method
    /// OpenAPI form, `{name}` for parameters.
    var path: String
    var operationId: String
    var summary: String
    var tag: String
    var body: Body = .none
    /// Success status and media type.
    var success: Int = 200
    var produces: String = "application/json"
    var query: [String] = []
    /// Problem statuses the route can answer besides 401 (any route) and 500.
    var problems: [Int] = []
    /// The route upgrades to a WebSocket.
    var webSocket = false
    /// Whose route it is, which decides the middleware it runs behind.
    var group: Group = .server

    enum Group: Sendable, CaseIterable {
        /// A job's own: its token or the server token.
        case job
        /// Scan submissions: the server token (when set) and the per-client rate limit.
        case submission
        /// Review decisions: the server token (when set); results cached in memory are checked again after one.
        case decision
        /// Everything else: the server token when one is set.
        case server
    }

    static func == (a: RouteSpec, b: RouteSpec) -> Bool { a.operationId == b.operationId }
    func hash(into hasher: inout Hasher) { hasher.combine(operationId) }

    /// Hummingbird's form of `path`: `{jobId}` becomes `:jobId`.
    var routerPath: String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { part in
            part.hasPrefix("{") && part.hasSuffix("}") ? ":" + part.dropFirst().dropLast() : String(part)
        }.joined(separator: "/")
    }

    var pathParameters: [String] {
        path.split(separator: "/").filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) }
    }
}

extension RouteSpec {
    /// Every route the server answers, in the order the OpenAPI document lists them.
    static let all: [RouteSpec] = [
        RouteSpec(method: .post, path: "/v3/jobs/scans", operationId: "submitScan", summary: "Submit 1-N shelf photos (multipart photos[]) as a scan job; 202 once the job is stored.",
                  tag: "scans", body: .multipart, success: 202, problems: [400, 409, 413, 415, 429], group: .submission),
        RouteSpec(method: .get, path: "/v3/jobs/scans/{jobId}", operationId: "scanStatus", summary: "A job's status and progress.",
                  tag: "scans", problems: [404], group: .job),
        RouteSpec(method: .get, path: "/v3/jobs/scans/{jobId}/results", operationId: "scanResults", summary: "A job's detected books with boxes, polygons, seed-004 DTOs and live review status.",
                  tag: "scans", problems: [404], group: .job),
        RouteSpec(method: .get, path: "/v3/jobs/scans/{jobId}/stream", operationId: "scanStream", summary: "Server-Sent Events: progress, completed, failed, ping; resumes after Last-Event-ID.",
                  tag: "scans", produces: "text/event-stream", query: ["token"], problems: [404], group: .job),
        RouteSpec(method: .delete, path: "/v3/jobs/scans/{jobId}", operationId: "cancelScan", summary: "Cancel a job and remove its uploads (idempotent).",
                  tag: "scans", problems: [404], group: .job),
        RouteSpec(method: .post, path: "/api/scan-bookshelf", operationId: "submitScanV1", summary: "v1: one photo as the raw body (Content-Type image/*); 202 {jobId, token, status}.",
                  tag: "v1", body: .image, success: 202, query: ["jobId"], problems: [400, 409, 413, 415, 429], group: .submission),
        RouteSpec(method: .get, path: "/ws/progress", operationId: "progressSocket", summary: "v1 WebSocket progress: ready/ready_ack, job_started, job_progress, job_complete or error.",
                  tag: "v1", success: 101, query: ["jobId", "token"], problems: [400, 404], webSocket: true, group: .job),
        RouteSpec(method: .get, path: "/v1/scan/results/{jobId}", operationId: "scanResultsV1", summary: "v1: a job's results (same object as v3).",
                  tag: "v1", problems: [404], group: .job),
        RouteSpec(method: .get, path: "/v3/review/works", operationId: "pendingWorks", summary: "Works waiting for review, in queue order, paged.",
                  tag: "review", query: ["limit", "offset"], problems: [400]),
        RouteSpec(method: .post, path: "/v3/review/next", operationId: "claimNextWork",
                  summary: "The next Work for this reviewer, claimed so no other reviewer is given it; {after? (the Work moved past)}; {pending, position, work}, work null when none is left.",
                  tag: "review", body: .json, problems: [400], group: .decision),
        RouteSpec(method: .get, path: "/v3/review/works/{workId}", operationId: "reviewWork", summary: "One Work in full: DTOs, spine provenance, revision, crop URL, likely duplicates.",
                  tag: "review", problems: [404]),
        RouteSpec(method: .get, path: "/v3/review/works/{workId}/crop", operationId: "workCrop", summary: "The Work's spine crop (JPEG).",
                  tag: "review", produces: "image/jpeg", problems: [404]),
        RouteSpec(method: .post, path: "/v3/review/works/{workId}/verify", operationId: "verifyWork", summary: "Accept the reading; {revision?, readingStatus?, wishlist?}.",
                  tag: "review", body: .json, problems: [400, 404, 409, 422], group: .decision),
        RouteSpec(method: .post, path: "/v3/review/works/{workId}/edit", operationId: "editWork", summary: "Correct and accept; {revision?, title?, authors?, isbn?, firstPublicationYear?, format?, readingStatus?, wishlist?}.",
                  tag: "review", body: .json, problems: [400, 404, 409, 422], group: .decision),
        RouteSpec(method: .post, path: "/v3/review/works/{workId}/reject", operationId: "rejectWork", summary: "Remove from the queue; {revision?}.",
                  tag: "review", body: .json, problems: [400, 404, 409], group: .decision),
        RouteSpec(method: .post, path: "/v3/review/works/{workId}/merge", operationId: "mergeWork", summary: "Merge into another Work; {into, revision?}.",
                  tag: "review", body: .json, problems: [400, 404, 409, 422], group: .decision),
        RouteSpec(method: .post, path: "/v3/review/works/{workId}/split", operationId: "splitWork",
                  summary: "Cut the box in two across the spine; {revision?, at? (0.1-0.9, default 0.5)}; the pieces wait for review.",
                  tag: "review", body: .json, problems: [400, 404, 409, 422], group: .decision),
        RouteSpec(method: .post, path: "/v3/review/works/{workId}/join", operationId: "joinWork",
                  summary: "Join the box with the pending box to its right on its shelf; {revision?}; the joined box waits for review.",
                  tag: "review", body: .json, problems: [400, 404, 409, 422], group: .decision),
        RouteSpec(method: .post, path: "/v3/review/bulk-verify", operationId: "bulkVerifyWorks",
                  summary: "Verify one photo's (or one row's) pending Works read at or above minConfidence, as one decision one undo takes back; {photoContentHash, minConfidence, row?, readingStatus?, wishlist?}.",
                  tag: "review", body: .json, problems: [400, 409, 422], group: .decision),
        RouteSpec(method: .post, path: "/v3/review/undo", operationId: "undoDecision", summary: "Undo the latest decision made over HTTP; {session?, allSessions?}.",
                  tag: "review", body: .json, problems: [400, 409], group: .decision),
        RouteSpec(method: .get, path: "/openapi.json", operationId: "openAPI", summary: "This document.", tag: "meta"),
        RouteSpec(method: .get, path: "/health", operationId: "health", summary: "Liveness: 200 with the queue's size.", tag: "meta"),
    ]
}
