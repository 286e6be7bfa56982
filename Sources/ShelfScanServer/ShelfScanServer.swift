import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import LibraryCore
import Logging
import NIOCore
import ShelfScan
import UserDirectories

/// `shelfscan serve`: a thin HTTP door onto the same `PhotoScanner` and library (SQLite or PostgreSQL) as the command line.
///
/// Routes come from `RouteSpec.all` (also the OpenAPI document). Every request passes the request log and the
/// problem mapper (every error becomes RFC 7807 JSON), then its route group's middleware: a job's token for a
/// job's own routes, the server token for the rest, the rate limit for submissions, the pages' guard for the
/// browser pages (`BrowserSession`). Nothing runs on every request that every request does not need: each
/// middleware is a frame and a copy of the context, and bench-serve counts them.
public struct ShelfScanServer: Sendable {
    public var configuration: ServerConfiguration
    public var scanner: PhotoScanner
    public var logger: Logger
    public var version: String

    public enum SetupError: Error, CustomStringConvertible {
        case noLibrary
        public var description: String { "The server files what it scans: open the scanner with a library (--library PATH)." }
    }

    public init(configuration: ServerConfiguration, scanner: PhotoScanner, logger: Logger = Logger(label: "shelfscan.serve"),
                version: String = "0.1.0") {
        self.configuration = configuration
        self.scanner = scanner
        self.logger = logger
        self.version = version
    }

    /// Runs until SIGTERM or SIGINT (or the task is canceled). `onListening` gets the bound port (useful with port 0).
    public func run(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        guard let library = scanner.library else { throw SetupError.noLibrary }
        MallocTuning.apply()
        var scanner = self.scanner
        scanner.configuration.fileResults = true
        scanner.configuration.rescan = false
        let jobsDirectory = configuration.jobsDirectory ?? Self.jobsDirectory(for: library)
        let jobs = JobManager(scanner: scanner, library: library, store: try JobStore(directory: jobsDirectory),
                              concurrentJobs: configuration.concurrentJobs, logger: logger)
        await jobs.recover()
        let router = makeRouter(jobs: jobs, library: library)

        let app = Application(
            router: router,
            server: .http1WebSocketUpgrade(webSocketRouter: router,
                                           configuration: .init(ws: .init(maxFrameSize: 1 << 16, autoPing: .enabled(timePeriod: configuration.pingInterval)))),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "shelfscan"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
    }

    /// `<library>.jobs/` beside the database, like `<library>.crops/`. A PostgreSQL library has no file to sit
    /// beside: its jobs go under the user's data directory, named after the server and database, so they
    /// survive a restart (the temporary directory may not) and two libraries never share them.
    static func jobsDirectory(for library: any LibraryStoring,
                              environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        guard library.path == nil else {
            return library.cropsDirectory.deletingPathExtension().appendingPathExtension("jobs").path
        }
        return UserDirectories.data(environment).appendingPathComponent("jobs/\(library.cropsDirectory.lastPathComponent)").path
    }

    /// `SHELFSCAN_SERVER_TOKEN`, when set and not empty.
    var serverToken: String? { configuration.token.flatMap { $0.isEmpty ? nil : $0 } }

    typealias Handler = @Sendable (Request, ServerContext) async throws -> Response

    /// The whole HTTP side over `jobs` and `library`, without a socket: `run` serves it, and tests drive it in
    /// process (HummingbirdTesting's `.router`). It is also the WebSocket router: an upgrade request passes
    /// the same groups and middleware as any other.
    /// Every timeout, the rate limit and the results cache run on `jobs.clock`.
    func makeRouter(jobs: JobManager, library: any LibraryStoring) -> Router<ServerContext> {
        let router = Router(context: ServerContext.self)
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: ProblemMiddleware<ServerContext>())
        register(router, jobs: jobs, library: library,
                 limiter: RateLimiter(perMinute: configuration.submissionsPerMinute, burst: configuration.submissionBurst, clock: jobs.clock))
        let browser = BrowserSession(serverToken: serverToken)
        browser.register(router)
        WebPages(library: library).register(router.group().add(middleware: browser.pageGuard))
        return router
    }

    /// Adds one handler per `RouteSpec`, each in its spec's group; a spec without a handler (or a handler
    /// without a spec) stops the server at start, so the OpenAPI document and the router never disagree.
    func register(_ router: Router<ServerContext>, jobs: JobManager, library: any LibraryStoring, limiter: RateLimiter) {
        let scans = ScanRoutes(jobs: jobs, uploads: UploadReader(configuration), pingInterval: configuration.pingInterval)
        let review = ReviewRoutes(library: library, clock: jobs.clock)
        let socket = ProgressSocket(jobs: jobs, readyTimeout: configuration.readyTimeout)
        let openAPI = OpenAPIDocument.json(version: version)
        let jobToken = JobTokenMiddleware(serverToken: serverToken, jobs: jobs.directory)
        // Only an upgrade can be refused before hummingbird-websocket answers it, so only the socket's group
        // pays for the wrapper that hands its refusal on.
        let upgrades = router.group().add(middleware: RefusedUpgradeMiddleware()).add(middleware: jobToken)
        let groups: [RouteSpec.Group: RouterGroup<ServerContext>] = [
            .job: router.group().add(middleware: jobToken),
            .submission: router.group().add(middleware: ServerTokenMiddleware(serverToken: serverToken))
                .add(middleware: RateLimitMiddleware(limiter: limiter)),
            .decision: router.group().add(middleware: ServerTokenMiddleware(serverToken: serverToken))
                .add(middleware: DecisionMiddleware(resultsCache: jobs.resultsReader.cache)),
            .server: router.group().add(middleware: ServerTokenMiddleware(serverToken: serverToken)),
        ]
        let handlers: [String: Handler] = [
            "submitScan": scans.submit, "scanStatus": scans.status, "scanResults": scans.results, "scanStream": scans.stream,
            "cancelScan": scans.cancel, "submitScanV1": scans.submitV1, "scanResultsV1": scans.results,
            "pendingWorks": review.pending, "claimNextWork": review.next, "reviewWork": review.work, "workCrop": review.crop, "verifyWork": review.verify,
            "editWork": review.edit, "rejectWork": review.reject, "mergeWork": review.merge, "splitWork": review.split, "joinWork": review.join, "bulkVerifyWorks": review.bulkVerify,
            "undoDecision": review.undo,
            "openAPI": { _, _ in
                Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: openAPI)))
            },
            "health": { _, context in try JSONResponse.envelope(["status": "ok"], context: context, clock: jobs.clock) },
        ]
        let specs = RouteSpec.all
        precondition(Set(handlers.keys).union(["progressSocket"]) == Set(specs.map(\.operationId)), "RouteSpec.all and the handlers disagree")
        for spec in specs {
            guard let group = groups[spec.group] else { preconditionFailure("no router group for \(spec.group)") }
            if spec.webSocket {
                precondition(spec.group == .job, "a WebSocket is a job's own route")
                upgrades.ws(RouterPath(spec.routerPath), shouldUpgrade: socket.shouldUpgrade) { inbound, outbound, context in
                    try await socket.run(inbound: inbound, outbound: outbound, context: context)
                }
            } else if let handler = handlers[spec.operationId] {
                group.on(RouterPath(spec.routerPath), method: spec.method, use: handler)
            }
        }
    }
}
