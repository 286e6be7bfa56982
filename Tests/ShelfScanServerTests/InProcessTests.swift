import BookModel
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Library
import LibraryCore
import Logging
import NIOCore
import NIOFoundationCompat
import ShelfScan
@testable import ShelfScanServer
import ShelfScanTestSupport
import Testing

/// The server's router in process (HummingbirdTesting's `.router`, no socket), over a real library and job
/// folder in a scratch directory. Every state a test needs is set on purpose: jobs wait at a `PhotoGate` until
/// the test opens it, every timeout, the rate limit and the results cache run on a clock the test moves, and a
/// restart is a new `JobManager` on job files written as a killed server leaves them.
///
/// `@unchecked Sendable` because Hummingbird's `Router` is a class that is not: it is only read, to build the
/// application, after `init` has finished adding routes.
struct InProcessScene: @unchecked Sendable {
    let directory: URL
    let library: LibraryStore
    let jobs: JobManager
    let router: Router<ServerContext>
    let gate: PhotoGate
    let clock: ManualClock

    /// - Parameters:
    ///   - libraryPath: a library filed beforehand (a `ShelfScene`'s); a fresh one in `directory` when nil.
    ///   - busyTimeout: how long the server's library waits for another writer; 0 refuses at once.
    init(serverToken: String? = nil, concurrentJobs: Int = 1, perMinute: Int = 30, burst: Int = 10,
         jobsDirectory: URL? = nil, libraryPath: String? = nil, busyTimeout: TimeInterval = LibraryStore.busyTimeout,
         configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        directory = try ShelfscanProcess.temporaryDirectory("in-process")
        library = try LibraryStore(path: libraryPath ?? directory.appendingPathComponent("library.sqlite").path, busyTimeout: busyTimeout)
        var configuration = ServerConfiguration()
        configuration.token = serverToken
        configuration.concurrentJobs = concurrentJobs
        configuration.submissionsPerMinute = perMinute
        configuration.submissionBurst = burst
        configure(&configuration)
        var scanner = PhotoScanner(library: library)
        scanner.configuration.fileResults = true
        let gate = PhotoGate()
        self.gate = gate
        clock = ManualClock()
        jobs = JobManager(scanner: scanner, library: library,
                          store: try JobStore(directory: (jobsDirectory ?? directory.appendingPathComponent("jobs")).path),
                          concurrentJobs: concurrentJobs, logger: Logger(label: "test"), gate: { id, _ in await gate.pass(id) },
                          clock: clock.serverClock)
        router = ShelfScanServer(configuration: configuration, scanner: scanner).makeRouter(jobs: jobs, library: library)
    }

    func test<Value: Sendable>(_ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        try await Application(router: router).test(.router, body)
    }

    /// On a socket (127.0.0.1, a free port), WebSocket upgrades included, for a client of its own (`client.port`).
    func live<Value: Sendable>(_ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        try await Application(router: router, server: .http1WebSocketUpgrade(webSocketRouter: router)).test(.live, body)
    }

    /// Submits one drawn photo and returns once its job is held at the gate (processing).
    func heldJob(_ client: any TestClientProtocol, seed: UInt64) async throws -> (id: String, token: String) {
        let job = try await client.submit([try Samples.drawn(seed: seed, width: 320)]).acceptedJob()
        await gate.reached(try #require(UUID(uuidString: job.id)))
        return job
    }

    /// Waits, without a clock, until the job's state is final.
    func finished(_ id: String) async throws -> ScanJob {
        let uuid = try #require(UUID(uuidString: id))
        let stream = try #require(await jobs.subscribe(uuid))
        var last: ScanJob?
        for await job in stream { last = job }
        return try #require(last)
    }
}

/// Holds every job's photos until opened; says which jobs have reached it.
actor PhotoGate {
    private var isOpen = false
    private var held: [CheckedContinuation<Void, Never>] = []
    private var arrived = Set<UUID>()
    private var watchers: [(UUID, CheckedContinuation<Void, Never>)] = []

    func pass(_ id: UUID) async {
        arrived.insert(id)
        for (index, watcher) in watchers.enumerated().reversed() where watcher.0 == id {
            watcher.1.resume()
            watchers.remove(at: index)
        }
        guard !isOpen else { return }
        await withCheckedContinuation { held.append($0) }
    }

    /// Returns once the job's first photo is at the gate (its state is `processing`).
    func reached(_ id: UUID) async {
        guard !arrived.contains(id) else { return }
        await withCheckedContinuation { watchers.append((id, $0)) }
    }

    func open() {
        isOpen = true
        held.forEach { $0.resume() }
        held = []
    }
}

/// A clock the test moves by hand. A sleep on it ends when the test has moved it far enough, and the test can
/// wait until a given number of sleeps are pending, so it moves the clock only once the code under test sleeps.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var elapsed: Duration = .zero
    private var sleepers: [UUID: (deadline: Duration, continuation: CheckedContinuation<Void, any Error>)] = [:]
    private var canceled: Set<UUID> = []
    private var started = 0
    private var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    var now: Duration { lock.withLock { elapsed } }
    /// Its date: a fixed day plus the time it was moved.
    static let epoch = Date(timeIntervalSince1970: 1_800_000_000)

    var serverClock: ServerClock {
        ServerClock(now: { self.now }, sleep: { try await self.sleep(for: $0) },
                    date: { Self.epoch.addingTimeInterval(Double(self.now.components.seconds)) })
    }

    func advance(by duration: Duration) {
        lock.withLock {
            elapsed += duration
            for (id, sleeper) in sleepers where sleeper.deadline <= elapsed {
                sleepers[id] = nil
                sleeper.continuation.resume()
            }
        }
    }

    /// Returns once `count` sleeps have started on this clock since it was made (ended ones included).
    func sleepsStarted(_ count: Int) async {
        await withCheckedContinuation { continuation in
            lock.withLock {
                if started >= count { continuation.resume() } else { watchers.append((count, continuation)) }
            }
        }
    }

    func sleep(for duration: Duration) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                lock.withLock {
                    if canceled.remove(id) != nil { return continuation.resume(throwing: CancellationError()) }
                    started += 1
                    for (index, watcher) in watchers.enumerated().reversed() where watcher.count <= started {
                        watcher.continuation.resume()
                        watchers.remove(at: index)
                    }
                    if duration <= .zero { return continuation.resume() }
                    sleepers[id] = (elapsed + duration, continuation)
                }
            }
        } onCancel: {
            lock.withLock {
                if let sleeper = sleepers.removeValue(forKey: id) {
                    sleeper.continuation.resume(throwing: CancellationError())
                } else {
                    canceled.insert(id)
                }
            }
        }
    }
}

extension TestClientProtocol {
    func get(_ uri: String, token: String? = nil) async throws -> TestResponse {
        try await execute(uri: uri, method: .get, headers: token.map { [.authorization: "Bearer \($0)"] } ?? [:])
    }

    func submit(_ photos: [Data], token: String? = nil) async throws -> TestResponse {
        let (body, contentType) = Multipart.body(photos.enumerated().map { ("photos[]", "shelf-\($0.offset).jpg", $0.element) })
        var headers: HTTPFields = [.contentType: contentType]
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await execute(uri: RoutePath.scans, method: .post, headers: headers, body: ByteBuffer(bytes: body))
    }
}

extension TestResponse {
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] ?? [:] }
    var data: [String: Any] { json["data"] as? [String: Any] ?? [:] }

    /// The ID and token of the job this 202 accepted.
    func acceptedJob(sourceLocation: SourceLocation = #_sourceLocation) throws -> (id: String, token: String) {
        #expect(status == .accepted, "\(json)", sourceLocation: sourceLocation)
        return (try #require(data["jobId"] as? String, sourceLocation: sourceLocation),
                try #require(data["token"] as? String, sourceLocation: sourceLocation))
    }

    /// Asserts an RFC 7807 problem with this status and code.
    func expectProblem(_ status: Int, _ code: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(self.status.code == status, "\(json)", sourceLocation: sourceLocation)
        #expect(headers[.contentType] == Problem.mediaType, sourceLocation: sourceLocation)
        #expect(json["code"] as? String == code, "\(json)", sourceLocation: sourceLocation)
        #expect(json["status"] as? Int == status, sourceLocation: sourceLocation)
        #expect((json["detail"] as? String)?.isEmpty == false, sourceLocation: sourceLocation)
    }
}

@Suite struct AccessTests {
    @Test func aJobsOwnRoutesWantItsTokenEvenWithoutAServerToken() async throws {
        let scene = try InProcessScene()
        defer { try? FileManager.default.removeItem(at: scene.directory) }
        let photo = try Samples.drawn(seed: 41, width: 320)
        try await scene.test { client in
            // Given two accepted jobs, each with its own token (no server token set)
            let first = try await client.submit([photo])
            #expect(first.status == .accepted)
            let id = try #require(first.data["jobId"] as? String)
            let token = try #require(first.data["token"] as? String)
            let other = try #require(try await client.submit([try Samples.drawn(seed: 42, width: 320)]).data["token"] as? String)

            // Then each of its routes is a 401 problem without a token, with a wrong one or with another job's
            for path in [RoutePath.scan(id), RoutePath.scanResults(id), RoutePath.scanStream(id), RoutePath.resultsV1(id)] {
                try await client.get(path).expectProblem(401, "UNAUTHORIZED")
                try await client.get(path, token: "wrong").expectProblem(401, "UNAUTHORIZED")
                try await client.get(path, token: other).expectProblem(401, "UNAUTHORIZED")
            }
            try await client.execute(uri: RoutePath.scan(id), method: .delete).expectProblem(401, "UNAUTHORIZED")
            // and a token in the query opens progress channels only
            try await client.get("\(RoutePath.scan(id))?token=\(token)").expectProblem(401, "UNAUTHORIZED")
            // An unknown job answers as a wrong token does: the answer never says whether a job exists
            try await client.get(RoutePath.scan(UUID().uuidString), token: token).expectProblem(401, "UNAUTHORIZED")
            try await client.get(RoutePath.scan("not-a-uuid"), token: token).expectProblem(401, "UNAUTHORIZED")

            // And its own token opens them; the library's routes stay open without a server token
            let status = try await client.get(RoutePath.scan(id), token: token)
            #expect(status.status == .ok)
            #expect(status.data["jobId"] as? String == id)
            #expect(try await client.get(RoutePath.works).status == .ok)
            #expect(try await client.get(RoutePath.health).status == .ok)
        }
    }

    @Test func aServerTokenOpensEveryRouteAndAJobTokenOnlyItsJob() async throws {
        let scene = try InProcessScene(serverToken: "s3cret-token")
        defer { try? FileManager.default.removeItem(at: scene.directory) }
        try await scene.test { client in
            for path in [RoutePath.openAPI, RoutePath.health, RoutePath.works] {
                try await client.get(path).expectProblem(401, "UNAUTHORIZED")
                try await client.get(path, token: "wrong").expectProblem(401, "UNAUTHORIZED")
                #expect(try await client.get(path, token: "s3cret-token").status == .ok, "\(path)")
            }
            try await client.submit([try Samples.drawn(seed: 43, width: 320)]).expectProblem(401, "UNAUTHORIZED")

            let accepted = try await client.submit([try Samples.drawn(seed: 43, width: 320)], token: "s3cret-token")
            #expect(accepted.status == .accepted)
            let id = try #require(accepted.data["jobId"] as? String)
            let token = try #require(accepted.data["token"] as? String)
            #expect(try await client.get(RoutePath.scan(id), token: token).status == .ok)
            #expect(try await client.get(RoutePath.scan(id), token: "s3cret-token").status == .ok)
            try await client.get(RoutePath.works, token: token).expectProblem(401, "UNAUTHORIZED")
            // The server token reaches every job, so an unknown one is plainly not found
            try await client.get(RoutePath.scan(UUID().uuidString), token: "s3cret-token").expectProblem(404, "JOB_NOT_FOUND")
            #expect(!String(buffer: accepted.body).contains("s3cret-token"))
        }
    }

    @Test func submissionsPastTheBurstWaitForTheClockToRefill() async throws {
        // Given 2 submissions a minute with a burst of 2, on a clock that moves only when told
        let scene = try InProcessScene(perMinute: 2, burst: 2)
        defer { try? FileManager.default.removeItem(at: scene.directory) }
        try await scene.test { client in
            let photo = try Samples.drawn(seed: 44, width: 320)
            #expect(try await client.submit([photo]).status == .accepted)
            #expect(try await client.submit([photo]).status == .accepted)
            // Then the third is a 429 saying when to come back, the wait of one token at 2 a minute
            let limited = try await client.submit([photo])
            limited.expectProblem(429, "RATE_LIMIT_EXCEEDED")
            #expect(limited.headers[.retryAfter] == "30")
            #expect(limited.json["retryAfter"] as? Int == 30 && limited.json["retryable"] as? Bool == true)
            // And other routes are not limited
            #expect(try await client.get(RoutePath.health).status == .ok)
            // When 29 s pass, still limited (1 s left); at 30 s one more is allowed, and only one
            scene.clock.advance(by: .seconds(29))
            let early = try await client.submit([photo])
            early.expectProblem(429, "RATE_LIMIT_EXCEEDED")
            #expect(early.headers[.retryAfter] == "1")
            scene.clock.advance(by: .seconds(1))
            #expect(try await client.submit([photo]).status == .accepted)
            try await client.submit([photo]).expectProblem(429, "RATE_LIMIT_EXCEEDED")
        }
    }

    @Test func everyKindOfBadRequestIsAProblem() async throws {
        let scene = try InProcessScene()
        defer { try? FileManager.default.removeItem(at: scene.directory) }
        try await scene.test { client in
            try await client.get("/v3/nothing-here").expectProblem(404, "ROUTE_NOT_FOUND")
            let (other, contentType) = Multipart.body([("picture", "shelf.jpg", try Samples.drawn(seed: 46, width: 320))])
            try await client.execute(uri: RoutePath.scans, method: .post, headers: [.contentType: contentType], body: ByteBuffer(bytes: other))
                .expectProblem(400, "NO_PHOTOS")
            try await client.execute(uri: RoutePath.scans, method: .post, headers: [.contentType: "multipart/form-data; boundary=x"],
                                     body: ByteBuffer(string: "no parts")).expectProblem(400, "MALFORMED_MULTIPART")
            try await client.submit([Data("not a photo".utf8)]).expectProblem(415, "UNSUPPORTED_IMAGE")
            try await client.execute(uri: "\(RoutePath.submitV1)?jobId=nope", method: .post, headers: [.contentType: "image/jpeg"],
                                     body: ByteBuffer(bytes: try Samples.drawn(seed: 45, width: 320)))
                .expectProblem(400, "INVALID_JOB_ID")
            try await client.execute(uri: RoutePath.decision(1, "verify"), method: .post, headers: [.contentType: "application/json"],
                                     body: ByteBuffer(string: "{not json")).expectProblem(400, "MALFORMED_JSON")
            try await client.get(RoutePath.work(999999)).expectProblem(404, "NOT_FOUND")
            try await client.get("\(RoutePath.works)?limit=-1").expectProblem(400, "INVALID_QUERY")
            // A Work ID that is not a positive integer names no Work; nor does a page file that is not served
            for path in [RoutePath.work(0), RoutePath.work("dune"), RoutePath.workCrop(-3), "\(WebPages.picturePrefix)0/photo.jpg",
                         "\(WebPages.assetPrefix)nothing.css", "\(WebPages.assetPrefix)review-body.html"] {
                try await client.get(path).expectProblem(404, "NOT_FOUND")
            }
            // A search longer than a few words of a title or an author
            try await client.get("\(RoutePath.findPage)?q=\(String(repeating: "a", count: 201))").expectProblem(400, "INVALID_QUERY")
        }
    }
}

/// Every problem the routes answer, each from the request that causes it; the library and the jobs folder
/// untouched by all of them.
@Suite struct ProblemTests {
    @Test func everyBadUploadIsItsOwnProblemAndLeavesNothingBehind() async throws {
        // Given small limits: 2 photos, 1 MB and 1 megapixel a photo, 2 MB a request; no rate limit
        let scene = try InProcessScene(serverToken: "s3cret-token", perMinute: 0) {
            $0.maxPhotos = 2; $0.maxPhotoBytes = 1_000_000; $0.maxRequestBytes = 2_000_000; $0.maxPixels = 1_000_000
        }
        defer { try? FileManager.default.removeItem(at: scene.directory) }
        let photo = try Samples.drawn(seed: 47, width: 320)
        try await scene.test { client in
            let auth: HTTPFields = [.authorization: "Bearer s3cret-token"]
            func post(_ uri: String, _ contentType: String, _ body: Data) async throws -> TestResponse {
                var headers = auth
                headers[.contentType] = contentType
                return try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(bytes: body))
            }
            func submit(_ photos: [Data], field: String = "photos[]") async throws -> TestResponse {
                let (body, contentType) = Multipart.body(photos.enumerated().map { (field, "shelf-\($0.offset).jpg", $0.element) })
                return try await post(RoutePath.scans, contentType, body)
            }
            // The wrong content type
            try await post(RoutePath.scans, "application/json", Data("{}".utf8)).expectProblem(400, "UNSUPPORTED_CONTENT_TYPE")
            try await post(RoutePath.submitV1, "text/plain", photo).expectProblem(400, "UNSUPPORTED_CONTENT_TYPE")
            // Multipart without a boundary, cut short, with another boundary, without a photos[] field
            let (whole, contentType) = Multipart.body([("photos[]", "a.jpg", photo)])
            try await post(RoutePath.scans, "multipart/form-data", whole).expectProblem(400, "MALFORMED_MULTIPART")
            try await post(RoutePath.scans, contentType, whole.prefix(whole.count / 2)).expectProblem(400, "MALFORMED_MULTIPART")
            try await post(RoutePath.scans, "multipart/form-data; boundary=other", whole).expectProblem(400, "MALFORMED_MULTIPART")
            let elsewhere = try await submit([photo], field: "attachment")
            elsewhere.expectProblem(400, "NO_PHOTOS")
            #expect((elsewhere.json["detail"] as? String)?.contains("(shelf-0.jpg came in field attachment)") == true, "\(elsewhere.json)")
            // Too many photos, a photo too big, a request too big (v3 and v1), an empty photo
            try await submit([photo, photo, photo]).expectProblem(400, "TOO_MANY_PHOTOS")
            try await submit([Data(repeating: 0xFF, count: 1_200_000)]).expectProblem(413, "PHOTO_TOO_LARGE")
            try await submit([Data(repeating: 0xFF, count: 2_300_000)]).expectProblem(413, "REQUEST_TOO_LARGE")
            try await post(RoutePath.submitV1, "image/jpeg", Data(repeating: 0xFF, count: 1_200_000)).expectProblem(413, "REQUEST_TOO_LARGE")
            try await submit([Data()]).expectProblem(400, "EMPTY_PHOTO")
            // Not an image, an image cut after its header, an image over the pixel limit (1600 x 900)
            try await submit([Data("hello, not a photo".utf8)]).expectProblem(415, "UNSUPPORTED_IMAGE")
            try await submit([BadInputTests.pngHeader(width: 640, height: 480)]).expectProblem(400, "TRUNCATED_IMAGE")
            try await submit([try Samples.drawn(seed: 3, width: 1600)]).expectProblem(413, "TOO_MANY_PIXELS")
            // A v1 job ID that is not a UUID, or is one already taken
            try await post("\(RoutePath.submitV1)?jobId=123", "image/jpeg", photo).expectProblem(400, "INVALID_JOB_ID")
            let taken = UUID().uuidString.lowercased()
            #expect(try await post("\(RoutePath.submitV1)?jobId=\(taken)", "image/jpeg", photo).status == .accepted)
            try await post("\(RoutePath.submitV1)?jobId=\(taken)", "image/jpeg", photo).expectProblem(409, "JOB_EXISTS")
            // An unknown job on every job route (the server token reaches every job, so it is plainly not found),
            // and a socket without a job
            let unknown = UUID().uuidString.lowercased()
            for path in [RoutePath.scan(unknown), RoutePath.scanResults(unknown), RoutePath.scanStream(unknown),
                         RoutePath.resultsV1(unknown), RoutePath.scan("not-a-uuid"), "\(RoutePath.progressSocket)?jobId=\(unknown)"] {
                try await client.get(path, token: "s3cret-token").expectProblem(404, "JOB_NOT_FOUND")
            }
            try await client.execute(uri: RoutePath.scan(unknown), method: .delete, headers: auth).expectProblem(404, "JOB_NOT_FOUND")
            try await client.get(RoutePath.progressSocket, token: "s3cret-token").expectProblem(400, "MISSING_JOB_ID")
        }
        // And nothing but the one accepted job reached the library or the jobs folder
        await scene.gate.open()
        #expect(try FileManager.default.contentsOfDirectory(atPath: scene.directory.appendingPathComponent("jobs").path).count == 1)
    }

    @Test func reviewRoutesAnswerEachRefusalWithItsProblem() async throws {
        let scene = try InProcessScene()
        defer { try? FileManager.default.removeItem(at: scene.directory) }
        // Given a Work filed without a photo or a crop
        let spine = SpineFiling(title: "Kindred", authors: ["Octavia E. Butler"], boundingBox: BoundingBox(x: 0.1, y: 0.1, width: 0.1, height: 0.8),
                                polygon: [[0.1, 0.1], [0.2, 0.1], [0.2, 0.9], [0.1, 0.9]], row: 0, position: 0, detectionConfidence: 0.9)
        let id = try #require(try await scene.library.file(PhotoFiling(contentHash: String(repeating: "e", count: 64), originalImagePath: "/nowhere.jpg",
                                                                       imageWidth: 900, imageHeight: 600, spines: [spine])).first)
        let revision = try #require(try await scene.library.work(id: id)).revision
        try await scene.test { client in
            func post(_ uri: String, _ json: String) async throws -> TestResponse {
                try await client.execute(uri: uri, method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: json))
            }
            try await client.get(RoutePath.workCrop(id)).expectProblem(404, "NO_CROP")
            try await client.get("\(WebPages.picturePrefix)\(id)/photo.jpg").expectProblem(404, "NO_PHOTO")
            try await post(RoutePath.decision(id, "verify"), "{\"revision\": \(revision + 1)}").expectProblem(409, "CONFLICT")
            try await post(RoutePath.decision(id, "merge"), "{}").expectProblem(422, "INVALID")
            try await post(RoutePath.decision(id, "verify"), "{\"title\": \"\(String(repeating: "a", count: 70_000))\"}")
                .expectProblem(413, "REQUEST_TOO_LARGE")
            try await post(RoutePath.undo, "{}").expectProblem(409, "NOTHING_TO_UNDO")
            // A decision the library takes answers 200, and it is undone once, not twice
            #expect(try await post(RoutePath.decision(id, "verify"), "{\"revision\": \(revision)}").status == .ok)
            #expect(try await post(RoutePath.undo, "{}").status == .ok)
            try await post(RoutePath.undo, "{}").expectProblem(409, "NOTHING_TO_UNDO")
        }
    }

    /// An error nobody turned into a problem is a 500 problem whose detail names nothing inside the server.
    @Test func anUnexpectedErrorIsA500ProblemThatSaysNothingOfItsCause() async throws {
        struct StoreFailure: Error { let path = "/var/lib/shelfscan/library.sqlite: disk I/O error" }
        let router = Router(context: ServerContext.self)
        router.add(middleware: ProblemMiddleware<ServerContext>())
        router.get("/fails") { _, _ -> Response in throw StoreFailure() }
        try await Application(router: router).test(.router) { client in
            let reply = try await client.get("/fails")
            reply.expectProblem(500, "INTERNAL_ERROR")
            #expect(reply.json["retryable"] as? Bool == true)
            let body = String(buffer: reply.body)
            #expect(!body.contains("disk I/O") && !body.contains("StoreFailure"), "\(body)")
        }
    }

    /// What no route of ours throws itself, Hummingbird's HTTP errors and the library's failures from a route
    /// that does not catch them (the listing, the results), is a problem still: the status kept, a code a client
    /// can switch on, `Retry-After` where waiting helps. These causes come from beneath the routes (a lost
    /// server, a full disk), so a route here throws them; a busy library is reached for real in `BusyLibraryTests`.
    @Test func anErrorFromBeneathTheRoutesIsAProblemWithItsOwnCode() async throws {
        let thrown: [(path: String, error: any Error & Sendable, status: Int, code: String, retryAfter: String?)] = [
            ("method", HTTPError(.methodNotAllowed), 405, "METHOD_NOT_ALLOWED", nil),
            ("bad", HTTPError(.badRequest, message: "Expected parameter does not exist"), 400, "INVALID_REQUEST", nil),
            ("large", HTTPError(.contentTooLarge), 413, "REQUEST_TOO_LARGE", nil),
            ("unauthorized", HTTPError(.unauthorized), 401, "UNAUTHORIZED", nil),
            ("busy", LibraryError.busy(location: "lib", reason: "database is locked"), 503, "LIBRARY_BUSY", "1"),
            ("lost", LibraryError.connectionLost(location: "lib", mayHaveBeenApplied: false), 503, "CONNECTION_LOST", "2"),
            ("constraint", LibraryError.constraint(location: "lib", reason: "UNIQUE constraint failed"), 409, "CONSTRAINT_VIOLATION", nil),
            ("failed", LibraryError.databaseFailed(location: "lib", reason: "disk I/O error"), 500, "DATABASE_ERROR", nil),
            ("unavailable", LibraryError.cannotOpen(path: "lib", reason: "unable to open database file"), 503, "LIBRARY_UNAVAILABLE", nil),
            ("crop", LibraryError.cropNotWritten(path: "lib.crops/a.jpg", reason: "No space left on device"), 503, "CROP_NOT_WRITTEN", nil),
            ("import", LibraryError.importFailed("the dump is cut short"), 503, "IMPORT_FAILED", nil),
        ]
        let router = Router(context: ServerContext.self)
        router.add(middleware: ProblemMiddleware<ServerContext>())
        for (path, error, _, _, _) in thrown { router.get(RouterPath("/\(path)")) { _, _ -> Response in throw error } }
        try await Application(router: router).test(.router) { client in
            for (path, _, status, code, retryAfter) in thrown {
                let reply = try await client.get("/\(path)")
                reply.expectProblem(status, code)
                #expect(reply.headers[.retryAfter] == retryAfter, "\(path)")
            }
            // And a Hummingbird error's own message is its detail
            #expect(try await client.get("/bad").json["detail"] as? String == "Expected parameter does not exist")
        }
    }
}

/// v1's WebSocket with the job in each state it can be in when a client connects, set at the gate.
@Suite struct ProgressSocketTests {
    @Test func aClientThatSaysReadyHearsReadyAckFirstWhetherItsJobIsQueuedRunningOrOver() async throws {
        let scene = try InProcessScene(concurrentJobs: 1)
        defer { try? FileManager.default.removeItem(at: scene.directory) }
        try await scene.live { client in
            let port = try #require(client.port)
            func converse(_ job: (id: String, token: String)) async -> BlockingWebSocket.Transcript {
                await BlockingWebSocket.converse(port: port, path: "\(RoutePath.progressSocket)?jobId=\(job.id)",
                                                 headers: [("Sec-WebSocket-Protocol", "bookstrack-auth.\(job.token)")], send: [#"{"type":"ready"}"#])
            }
            func types(_ transcript: BlockingWebSocket.Transcript) -> [String] {
                transcript.texts.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["type"] as? String }
            }
            // Given one job held at the gate (running) and a second queued behind it, a client on each: each
            // handler has subscribed once its ready timeout sleeps on the clock
            let running = try await scene.heldJob(client, seed: 75)
            let queued = try await client.submit([try Samples.drawn(seed: 76, width: 320)]).acceptedJob()
            async let onQueued = converse(queued)
            await scene.clock.sleepsStarted(1)
            async let onRunning = converse(running)
            await scene.clock.sleepsStarted(2)

            // When both jobs complete
            await scene.gate.open()

            // Then each client heard ready_ack first, then the job from its start to job_complete, and was closed
            for transcript in [await onQueued, await onRunning] {
                #expect(transcript.failure == nil, "\(transcript.failure ?? "")")
                #expect(types(transcript) == ["ready_ack", "job_started", "job_progress", "job_progress", "job_complete"], "\(transcript.texts)")
                #expect(transcript.closeCode == 1000)
            }
            // And a client of the finished job hears ready_ack, then the final message alone
            let late = await converse(running)
            #expect(types(late) == ["ready_ack", "job_complete"], "\(late.texts)")
            #expect(late.closeCode == 1000)
        }
    }
}

@Suite struct JobRunnerTests {
    @Test func aQueuedJobIsCanceledWhileAnotherIsHeldAndTheHeldOneStillCompletes() async throws {
        // Given one job held at the gate (processing) and a second queued behind it: one job at a time
        let scene = try InProcessScene(concurrentJobs: 1)
        defer { try? FileManager.default.removeItem(at: scene.directory) }
        try await scene.test { client in
            let (firstID, firstToken) = try await scene.heldJob(client, seed: 51)
            let (id, token) = try await client.submit([try Samples.drawn(seed: 52, width: 320)]).acceptedJob()
            #expect(try await client.get(RoutePath.scan(firstID), token: firstToken).data["status"] as? String == "processing")
            #expect(try await client.get(RoutePath.scan(id), token: token).data["status"] as? String == "queued")

            // When the queued job is canceled
            let canceled = try await client.execute(uri: RoutePath.scan(id), method: .delete, headers: [.authorization: "Bearer \(token)"])
            #expect(canceled.status == .ok)
            #expect(canceled.data["status"] as? String == "canceled")
            #expect((canceled.data["error"] as? [String: Any])?["code"] as? String == "CANCELED")

            // Then its uploads are gone, a second DELETE answers the same, and it never starts
            let folder = scene.directory.appendingPathComponent("jobs").appendingPathComponent(id)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["job.json"])
            let again = try await client.execute(uri: RoutePath.scan(id), method: .delete, headers: [.authorization: "Bearer \(token)"])
            #expect(again.data["status"] as? String == "canceled")
            // And its stream, however late, ends with `failed` saying canceled
            let stream = String(buffer: try await client.get(RoutePath.scanStream(id), token: token).body)
            #expect(stream.contains("event: failed\nid: 2\ndata: "), "\(stream)")
            #expect(stream.contains("\"status\":\"canceled\""), "\(stream)")
            // And the held job completes once the gate opens
            await scene.gate.open()
            #expect(try await scene.finished(firstID).status == .completed)
            #expect(try await scene.finished(id).status == .canceled)
            #expect(try await client.get(RoutePath.scan(id), token: token).data["processedCount"] as? Int == 0)
        }
    }

    @Test func aRunningJobCanceledAtTheGateFilesNothingMore() async throws {
        let scene = try InProcessScene(concurrentJobs: 1)
        defer { try? FileManager.default.removeItem(at: scene.directory) }
        try await scene.test { client in
            let accepted = try await client.submit([try Samples.drawn(seed: 53, width: 320), try Samples.drawn(seed: 54, width: 320)])
            let id = try #require(accepted.data["jobId"] as? String)
            let token = try #require(accepted.data["token"] as? String)
            await scene.gate.reached(try #require(UUID(uuidString: id)))
            let canceled = try await client.execute(uri: RoutePath.scan(id), method: .delete, headers: [.authorization: "Bearer \(token)"])
            #expect(canceled.data["status"] as? String == "canceled")
            await scene.gate.open()
            let job = try await scene.finished(id)
            #expect(job.status == .canceled && job.processedCount == 0)
            #expect(try await scene.library.works(includePending: true).isEmpty)
        }
    }

    /// A job none of whose photos could be scanned ends `failed` with `SCAN_FAILED` (its status, and its stream's
    /// last event), not `completed` with nothing in it.
    @Test func aJobWhosePhotoCannotBeReadFailsWithScanFailed() async throws {
        let scene = try InProcessScene(concurrentJobs: 1)
        defer { try? FileManager.default.removeItem(at: scene.directory) }
        try await scene.test { client in
            // Given a job held at the gate, its upload then gone from the jobs folder
            let (id, token) = try await scene.heldJob(client, seed: 55)
            let uuid = try #require(UUID(uuidString: id))
            let job = try #require(scene.jobs.job(uuid))
            let store = try JobStore(directory: scene.directory.appendingPathComponent("jobs").path)
            try FileManager.default.removeItem(at: store.photoURL(job, 0))

            // When the gate opens
            await scene.gate.open()

            // Then the job failed, saying why, and its status and stream say so
            let ended = try await scene.finished(id)
            #expect(ended.status == .failed && ended.error?.code == "SCAN_FAILED" && ended.error?.retryable == false)
            let status = try await client.get(RoutePath.scan(id), token: token)
            #expect(status.data["status"] as? String == "failed")
            #expect((status.data["error"] as? [String: Any])?["code"] as? String == "SCAN_FAILED", "\(status.json)")
            let stream = String(buffer: try await client.get(RoutePath.scanStream(id), token: token).body)
            #expect(stream.contains("event: failed") && stream.contains("SCAN_FAILED"), "\(stream)")
            #expect(try await scene.library.works(includePending: true).isEmpty)
        }
    }
}

/// Recovery after a restart, each branch from the job files a killed server leaves behind.
@Suite struct RecoveryTests {
    /// A job as `serve` left it when killed mid-scan: processing, `attempts` starts, its upload on disk or not.
    static func killedJob(in scene: InProcessScene, attempts: Int, uploadKept: Bool, seed: UInt64) throws -> UUID {
        let store = try JobStore(directory: scene.directory.appendingPathComponent("jobs").path)
        let bytes = [UInt8](try Samples.drawn(seed: seed, width: 320))
        let job = ScanJob(id: UUID(), api: .v3, tokenHash: JobToken.hash("t"), status: .processing, createdAt: Date(),
                          startedAt: Date(), completedAt: nil,
                          photos: [JobPhoto(file: "photo-1.jpg", originalName: nil, bytes: bytes.count,
                                            contentHash: ContentHash.sha256Hex(bytes), result: nil)],
                          error: nil, attempts: attempts)
        try store.create(job, photos: [bytes])
        if !uploadKept { try FileManager.default.removeItem(at: store.photoURL(job, 0)) }
        return job.id
    }

    @Test func eachUnfinishedJobIsResumedOrFailedWithItsReason() async throws {
        let scene = try InProcessScene()
        defer { try? FileManager.default.removeItem(at: scene.directory) }
        let resumed = try Self.killedJob(in: scene, attempts: 1, uploadKept: true, seed: 61)
        let lost = try Self.killedJob(in: scene, attempts: 1, uploadKept: false, seed: 62)
        let interrupted = try Self.killedJob(in: scene, attempts: JobManager.maxAttempts, uploadKept: true, seed: 63)

        // When a server starts on those files
        await scene.gate.open()
        await scene.jobs.recover()

        // Then the job with its upload is scanned again and completes (attempt 2); the others fail with why
        let done = try await scene.finished(resumed.uuidString)
        #expect(done.status == .completed && done.attempts == 2)
        #expect(done.photos.first?.result?.outcome == .scanned)
        let gone = try await scene.finished(lost.uuidString)
        #expect(gone.status == .failed && gone.error?.code == "UPLOAD_LOST" && gone.error?.retryable == true)
        let givenUp = try await scene.finished(interrupted.uuidString)
        #expect(givenUp.status == .failed && givenUp.error?.code == "INTERRUPTED")
        // And what it says is on disk for the next restart
        let onDisk = try JobStore(directory: scene.directory.appendingPathComponent("jobs").path).loadAll()
        #expect(Set(onDisk.map(\.status)) == [.completed, .failed])
    }

    @Test func aPhotoFiledBeforeTheKillIsNotFiledAgain() async throws {
        let scene = try InProcessScene()
        defer { try? FileManager.default.removeItem(at: scene.directory) }
        let id = try Self.killedJob(in: scene, attempts: 1, uploadKept: true, seed: 64)
        // Given the photo was filed before the kill, and the job file not yet rewritten
        let path = scene.directory.appendingPathComponent("jobs/\(id.uuidString.lowercased())/photo-1.jpg").path
        var scanner = PhotoScanner(library: scene.library)
        scanner.configuration.fileResults = true
        guard case .scanned(let first) = await scanner.scan(photoAt: path) else { Issue.record("not scanned"); return }
        let filed = try await scene.library.works(includePending: true).count
        #expect(filed == first.filedWorkIDs.count && filed > 0)

        await scene.gate.open()
        await scene.jobs.recover()
        let job = try await scene.finished(id.uuidString)
        #expect(job.status == .completed)
        #expect(job.photos.first?.result?.outcome == .alreadyFiled)
        #expect(try await scene.library.works(includePending: true).count == filed)
    }
}

@Suite struct RouteTableTests {
    /// Job IDs are parsed by hand (`Hex.uuid`, not Foundation's `sscanf`): the same answer as Foundation's for
    /// each form a client might send.
    @Test func aJobIDIsReadAsFoundationReadsIt() {
        let id = UUID()
        for text in [id.uuidString, id.uuidString.lowercased(), "3F2B8C1E-6a4d-4F0E-9b7a-1C2D3E4F5A6B", "3f2b8c1e6a4d4f0e9b7a1c2d3e4f5a6b",
                     "3f2b8c1e-6a4d-4f0e-9b7a-1c2d3e4f5a6", "3f2b8c1e-6a4d-4f0e-9b7a-1c2d3e4f5a6bb", "3f2b8c1e-6a4d-4f0e-9b7a+1c2d3e4f5a6b",
                     "3f2b8c1g-6a4d-4f0e-9b7a-1c2d3e4f5a6b", "3f2b8c1e-6a4d-4f0e-9b7a-1c2d3e4f5a6 ", "", "not-a-uuid"] {
            #expect(JobID(rawValue: text)?.uuid == UUID(uuidString: text), "\(text)")
        }
    }


    @Test func openAPIDescribesEveryRouteTheRouterAnswersAndNoOther() async throws {
        let scene = try InProcessScene()
        defer { try? FileManager.default.removeItem(at: scene.directory) }
        try await scene.test { client in
            // Given the OpenAPI document the server serves
            let document = try await client.get(RoutePath.openAPI)
            #expect(document.status == .ok)
            #expect(document.json["openapi"] as? String == "3.1.0")
            let paths = try #require(document.json["paths"] as? [String: [String: Any]])
            let documented = Set(paths.flatMap { path, methods in methods.keys.map { "\($0.uppercased()) \(path)" } })
            #expect(documented == Set(RouteSpec.all.map { "\($0.method.rawValue) \($0.path)" }))

            // When every documented operation is called (placeholders for parameters)
            for operation in documented.sorted() {
                let parts = operation.split(separator: " ", maxSplits: 1).map(String.init)
                let path = parts[1].replacingOccurrences(of: "{jobId}", with: UUID().uuidString.lowercased())
                    .replacingOccurrences(of: "{workId}", with: "999999")
                let reply = try await client.execute(uri: path, method: HTTPRequest.Method(parts[0])!)
                // Then the router knows it: whatever the status, it is never "no such route", and a failure is a problem
                let code = reply.json["code"] as? String
                #expect(code != "ROUTE_NOT_FOUND" && code != "METHOD_NOT_ALLOWED", "\(operation) is documented but not routed")
                if reply.status.code >= 400 { #expect(reply.headers[.contentType] == Problem.mediaType, "\(operation)") }
            }

            // And a route the document lacks is not routed either
            try await client.get("/v3/nothing-here").expectProblem(404, "ROUTE_NOT_FOUND")
        }
    }
}
