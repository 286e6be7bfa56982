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

/// Every path the server answers, named once: the route table takes its templates from here (`{jobId}`),
/// the handlers build the links they hand out with the same functions, and so do the tests and bench-serve.
/// A path typed out in two places could drift from the router unnoticed.
public enum RoutePath {
    public static let scans = "/v3/jobs/scans"
    public static func scan(_ job: String) -> String { "\(scans)/\(job)" }
    public static func scanResults(_ job: String) -> String { "\(scan(job))/results" }
    public static func scanStream(_ job: String) -> String { "\(scan(job))/stream" }
    public static let submitV1 = "/api/scan-bookshelf"
    public static let progressSocket = "/ws/progress"
    public static func resultsV1(_ job: String) -> String { "/v1/scan/results/\(job)" }
    public static let works = "/v3/review/works"
    public static func work(_ work: some CustomStringConvertible) -> String { "\(works)/\(work)" }
    public static func workCrop(_ work: some CustomStringConvertible) -> String { "\(self.work(work))/crop" }
    /// `verify`, `edit`, `reject`, `merge`, `split` or `join`.
    public static func decision(_ work: some CustomStringConvertible, _ action: String) -> String { "\(self.work(work))/\(action)" }
    public static let nextWork = "/v3/review/next"
    public static let bulkVerify = "/v3/review/bulk-verify"
    public static let undo = "/v3/review/undo"
    public static let openAPI = "/openapi.json"
    public static let health = "/health"
    /// The browser pages (`WebPages`) and the door to them (`BrowserSession`); not in the OpenAPI document.
    public static let findPage = "/find"
    public static let reviewPage = "/review"
    public static let login = "/login"
}

extension RouteSpec {
    /// Every route the server answers, in the order the OpenAPI document lists them.
    static let all: [RouteSpec] = [
        RouteSpec(method: .post, path: RoutePath.scans, operationId: "submitScan", summary: "Submit 1-N shelf photos (multipart photos[]) as a scan job; 202 once the job is stored.",
                  tag: "scans", body: .multipart, success: 202, problems: [400, 409, 413, 415, 429], group: .submission),
        RouteSpec(method: .get, path: RoutePath.scan("{jobId}"), operationId: "scanStatus", summary: "A job's status and progress.",
                  tag: "scans", problems: [404], group: .job),
        RouteSpec(method: .get, path: RoutePath.scanResults("{jobId}"), operationId: "scanResults", summary: "A job's detected books with boxes, polygons, seed-004 DTOs and live review status.",
                  tag: "scans", problems: [404], group: .job),
        RouteSpec(method: .get, path: RoutePath.scanStream("{jobId}"), operationId: "scanStream", summary: "Server-Sent Events: progress, completed, failed, ping; resumes after Last-Event-ID.",
                  tag: "scans", produces: "text/event-stream", query: ["token"], problems: [404], group: .job),
        RouteSpec(method: .delete, path: RoutePath.scan("{jobId}"), operationId: "cancelScan", summary: "Cancel a job and remove its uploads (idempotent).",
                  tag: "scans", problems: [404], group: .job),
        RouteSpec(method: .post, path: RoutePath.submitV1, operationId: "submitScanV1", summary: "v1: one photo as the raw body (Content-Type image/*); 202 {jobId, token, status}.",
                  tag: "v1", body: .image, success: 202, query: ["jobId"], problems: [400, 409, 413, 415, 429], group: .submission),
        RouteSpec(method: .get, path: RoutePath.progressSocket, operationId: "progressSocket", summary: "v1 WebSocket progress: ready/ready_ack, job_started, job_progress, job_complete or error.",
                  tag: "v1", success: 101, query: ["jobId", "token"], problems: [400, 404], webSocket: true, group: .job),
        RouteSpec(method: .get, path: RoutePath.resultsV1("{jobId}"), operationId: "scanResultsV1", summary: "v1: a job's results (same object as v3).",
                  tag: "v1", problems: [404], group: .job),
        RouteSpec(method: .get, path: RoutePath.works, operationId: "pendingWorks", summary: "Works waiting for review, in queue order, paged.",
                  tag: "review", query: ["limit", "offset"], problems: [400]),
        RouteSpec(method: .post, path: RoutePath.nextWork, operationId: "claimNextWork",
                  summary: "The next Work for this reviewer, claimed so no other reviewer is given it; {after? (the Work moved past)}; {pending, position, work}, work null when none is left.",
                  tag: "review", body: .json, problems: [400], group: .decision),
        RouteSpec(method: .get, path: RoutePath.work("{workId}"), operationId: "reviewWork", summary: "One Work in full: DTOs, spine provenance, revision, crop URL, likely duplicates.",
                  tag: "review", problems: [404]),
        RouteSpec(method: .get, path: RoutePath.workCrop("{workId}"), operationId: "workCrop", summary: "The Work's spine crop (JPEG).",
                  tag: "review", produces: "image/jpeg", problems: [404]),
        RouteSpec(method: .post, path: RoutePath.decision("{workId}", "verify"), operationId: "verifyWork", summary: "Accept the reading; {revision?, readingStatus?, wishlist?}.",
                  tag: "review", body: .json, problems: [400, 404, 409, 422], group: .decision),
        RouteSpec(method: .post, path: RoutePath.decision("{workId}", "edit"), operationId: "editWork", summary: "Correct and accept; {revision?, title?, authors?, isbn?, firstPublicationYear?, format?, readingStatus?, wishlist?}.",
                  tag: "review", body: .json, problems: [400, 404, 409, 422], group: .decision),
        RouteSpec(method: .post, path: RoutePath.decision("{workId}", "reject"), operationId: "rejectWork", summary: "Remove from the queue; {revision?}.",
                  tag: "review", body: .json, problems: [400, 404, 409], group: .decision),
        RouteSpec(method: .post, path: RoutePath.decision("{workId}", "merge"), operationId: "mergeWork", summary: "Merge into another Work; {into, revision?}.",
                  tag: "review", body: .json, problems: [400, 404, 409, 422], group: .decision),
        RouteSpec(method: .post, path: RoutePath.decision("{workId}", "split"), operationId: "splitWork",
                  summary: "Cut the box in two across the spine; {revision?, at? (0.1-0.9, default 0.5)}; the pieces wait for review.",
                  tag: "review", body: .json, problems: [400, 404, 409, 422], group: .decision),
        RouteSpec(method: .post, path: RoutePath.decision("{workId}", "join"), operationId: "joinWork",
                  summary: "Join the box with the pending box to its right on its shelf; {revision?}; the joined box waits for review.",
                  tag: "review", body: .json, problems: [400, 404, 409, 422], group: .decision),
        RouteSpec(method: .post, path: RoutePath.bulkVerify, operationId: "bulkVerifyWorks",
                  summary: "Verify one photo's (or one row's) pending Works read at or above minConfidence, as one decision one undo takes back; {photoContentHash, minConfidence, row?, readingStatus?, wishlist?}.",
                  tag: "review", body: .json, problems: [400, 409, 422], group: .decision),
        RouteSpec(method: .post, path: RoutePath.undo, operationId: "undoDecision", summary: "Undo the latest decision made over HTTP; {session?, allSessions?}.",
                  tag: "review", body: .json, problems: [400, 409], group: .decision),
        RouteSpec(method: .get, path: RoutePath.openAPI, operationId: "openAPI", summary: "This document.", tag: "meta"),
        RouteSpec(method: .get, path: RoutePath.health, operationId: "health", summary: "Liveness: 200 with the queue's size.", tag: "meta"),
    ]
}
