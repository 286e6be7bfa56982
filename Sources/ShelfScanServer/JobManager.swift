import BookModel
import Crypto
import Foundation
import Library
import Logging
import ShelfImage
import ShelfScan

/// A photo that passed every upload check, ready to be accepted.
struct UploadedPhoto: Sendable {
    var bytes: [UInt8]
    var originalName: String?
    var format: ImageFormat
}

/// Owns every scan job: accepts them (on disk before the caller answers 202), runs them through the same
/// `PhotoScanner` the CLI uses, and tells subscribers (SSE, WebSocket) about each change.
///
/// An actor because jobs are shared mutable state touched by many requests. Photos are scanned off the
/// actor and off Swift's cooperative pool, on `scanThreads`: only bookkeeping runs on the actor, so a status
/// request never waits for a photo.
actor JobManager {
    let scanner: PhotoScanner
    let library: any LibraryStoring
    let store: JobStore
    let concurrentJobs: Int
    let logger: Logger
    /// Where scans run, one thread per job in flight (a job scans its photos one after another); a queued job
    /// holds only its upload paths. On Swift's cooperative pool (one thread per core: two on the target
    /// machine) two scans' decode and detection took every thread, and request handlers, this actor and the
    /// WebSocket and SSE writers waited behind them.
    let scanThreads: DedicatedThreads
    /// Awaited before each photo of a job is scanned (job, photo index), off the actor. Tests hold a job there
    /// so that processing, queued and canceled are states they reach on purpose, not by racing a real scan;
    /// `serve` has none.
    let gate: (@Sendable (UUID, Int) async -> Void)?

    private var jobs: [UUID: ScanJob] = [:]
    private var queue: [UUID] = []
    private var running: [UUID: Task<Void, Never>] = [:]
    private var subscribers: [UUID: [UUID: AsyncStream<ScanJob>.Continuation]] = [:]

    /// A job interrupted this many times (each a crash or kill mid-job) is failed rather than retried forever.
    static let maxAttempts = 3

    init(scanner: PhotoScanner, library: any LibraryStoring, store: JobStore, concurrentJobs: Int, logger: Logger,
         gate: (@Sendable (UUID, Int) async -> Void)? = nil) {
        self.gate = gate
        self.scanner = scanner
        self.library = library
        self.store = store
        self.concurrentJobs = max(1, concurrentJobs)
        self.logger = logger
        scanThreads = DedicatedThreads(count: self.concurrentJobs, name: "scan")
    }

    // MARK: Restart

    /// Loads every job on disk. Unfinished ones are queued again (photos already filed are recognized by
    /// content hash and not filed twice); a job whose uploads are gone, or that was interrupted too often, is
    /// failed with the reason.
    func recover() {
        for var job in store.loadAll() {
            if !job.status.isTerminal {
                let missing = job.photos.indices.filter { job.photos[$0].result == nil
                    && !FileManager.default.fileExists(atPath: store.photoURL(job, $0).path) }
                if !missing.isEmpty {
                    finish(&job, .failed, JobError(code: "UPLOAD_LOST", message: "The uploaded photos of this job were removed before it was scanned. Submit them again.", retryable: true))
                } else if job.attempts >= Self.maxAttempts {
                    finish(&job, .failed, JobError(code: "INTERRUPTED", message: "The server stopped \(job.attempts) times while scanning this job; it was given up. Submit the photos again.", retryable: true))
                } else {
                    job.status = .queued
                    queue.append(job.id)
                    logger.info("job resumed after restart", metadata: ["job": "\(job.id.uuidString.lowercased())", "processed": "\(job.processedCount)/\(job.totalCount)"])
                }
                try? store.save(job)
            }
            jobs[job.id] = job
        }
        pump()
    }

    // MARK: Accepting

    /// Accepts a job: the photos and `job.json` are on disk when this returns, so the 202 that follows is a promise.
    /// - Returns: the job and its token (given to the client once, stored only as a hash).
    func submit(_ photos: [UploadedPhoto], api: JobAPI, id: UUID = UUID()) throws -> (ScanJob, String) {
        if jobs[id] != nil { throw Problem(.conflict, code: "JOB_EXISTS", detail: "A job with ID \(id.uuidString.lowercased()) already exists. Use a new UUID.") }
        let token = Self.makeToken()
        let job = ScanJob(
            id: id, api: api, tokenHash: Self.hash(token), status: .queued, createdAt: Date(), startedAt: nil, completedAt: nil,
            photos: photos.enumerated().map { index, photo in
                JobPhoto(file: "photo-\(index + 1).\(photo.format == .png ? "png" : "jpg")", originalName: photo.originalName,
                         bytes: photo.bytes.count, contentHash: ContentHash.sha256Hex(photo.bytes), result: nil)
            },
            error: nil, attempts: 0)
        try store.create(job, photos: photos.map(\.bytes))
        jobs[id] = job
        queue.append(id)
        pump()
        return (job, token)
    }

    // MARK: Reading

    func job(_ id: UUID) -> ScanJob? { jobs[id] }

    /// Constant-time comparison of hashes: the token itself is never kept.
    func tokenMatches(_ id: UUID, _ token: String) -> Bool {
        guard let job = jobs[id] else { return false }
        return constantTimeEqual(Self.hash(token), job.tokenHash)
    }

    /// A stream of the job's states: the current one at once, then every change; it ends after a final state.
    func subscribe(_ id: UUID) -> AsyncStream<ScanJob>? {
        guard let job = jobs[id] else { return nil }
        let (stream, continuation) = AsyncStream<ScanJob>.makeStream(bufferingPolicy: .bufferingNewest(64))
        continuation.yield(job)
        if job.status.isTerminal {
            continuation.finish()
            return stream
        }
        let key = UUID()
        subscribers[id, default: [:]][key] = continuation
        continuation.onTermination = { _ in Task { await self.unsubscribe(id, key) } }
        return stream
    }

    private func unsubscribe(_ id: UUID, _ key: UUID) {
        subscribers[id]?[key] = nil
        if subscribers[id]?.isEmpty == true { subscribers[id] = nil }
    }

    // MARK: Canceling

    /// Cancels a job that is not finished and removes its uploads; a finished job is left as it is (BooksTrack:
    /// DELETE is idempotent). Works already filed stay in the library: the reviewer decides about them.
    func cancel(_ id: UUID) -> ScanJob? {
        guard var job = jobs[id] else { return nil }
        guard !job.status.isTerminal else { return job }
        running[id]?.cancel()
        running[id] = nil
        queue.removeAll { $0 == id }
        finish(&job, .canceled, JobError(code: "CANCELED", message: "The job was canceled by the client.", retryable: false))
        store.removeUploads(job)
        update(job)
        pump()
        return job
    }

    // MARK: Running

    private func pump() {
        while running.count < concurrentJobs, !queue.isEmpty {
            let id = queue.removeFirst()
            guard var job = jobs[id], !job.status.isTerminal else { continue }
            job.status = .processing
            job.startedAt = job.startedAt ?? Date()
            job.attempts += 1
            update(job)
            let scanner = self.scanner
            let paths = job.photos.indices.map { store.photoURL(job, $0).path }
            let gate = self.gate
            running[id] = Task(executorPreference: scanThreads) { [weak self] in
                for (index, path) in paths.enumerated() {
                    await gate?(id, index)
                    guard let self, !Task.isCancelled else { return }
                    guard await self.needsScan(id, index) else { continue }
                    let outcome = await scanner.scan(photoAt: path)
                    guard !Task.isCancelled else { return }
                    await self.record(id, index, outcome)
                }
                await self?.complete(id)
            }
        }
    }

    private func needsScan(_ id: UUID, _ index: Int) -> Bool {
        guard let job = jobs[id], job.status == .processing else { return false }
        return job.photos[index].result == nil
    }

    private func record(_ id: UUID, _ index: Int, _ outcome: PhotoOutcome) {
        guard var job = jobs[id], job.status == .processing else { return }
        job.photos[index].result = photoResult(outcome, photoIndex: index)
        update(job)
    }

    private func complete(_ id: UUID) {
        running[id] = nil
        guard var job = jobs[id], job.status == .processing else { pump(); return }
        let results = job.photos.compactMap(\.result)
        if !results.isEmpty && results.allSatisfy({ $0.outcome == .failed }) {
            let reason = results.first?.reason ?? "unknown"
            finish(&job, .failed, JobError(code: "SCAN_FAILED", message: "No photo of this job could be scanned: \(reason)", retryable: false))
        } else {
            finish(&job, .completed, nil)
        }
        update(job)
        pump()
    }

    private func finish(_ job: inout ScanJob, _ status: JobStatus, _ error: JobError?) {
        job.status = status
        job.error = error
        job.completedAt = Date()
    }

    /// Saves, then tells subscribers: a client never hears of a state a restart could take back.
    private func update(_ job: ScanJob) {
        jobs[job.id] = job
        do { try store.save(job) } catch {
            logger.error("cannot save job state", metadata: ["job": "\(job.id.uuidString.lowercased())", "error": "\(error)"])
        }
        guard let listeners = subscribers[job.id] else { return }
        for continuation in listeners.values {
            continuation.yield(job)
            if job.status.isTerminal { continuation.finish() }
        }
        if job.status.isTerminal { subscribers[job.id] = nil }
    }

    // MARK: Results

    /// What the pipeline said about one photo, as BooksTrack's clients read it. A photo the library already
    /// had (this job resumed after a restart, or the same photo sent again) answers with the Works filed then.
    private func photoResult(_ outcome: PhotoOutcome, photoIndex: Int) -> PhotoResult {
        switch outcome {
        case .scanned(let scan):
            if scan.filedWorkIDs.isEmpty && !scan.spines.isEmpty {
                return filedResult(contentHash: scan.contentHash, photoIndex: photoIndex)
            }
            let response = scan.response
            let books = response.detectedBooks.enumerated().map { i, detected in
                let spine = scan.spines[i]
                let workID = scan.filedWorkIDs.indices.contains(i) ? scan.filedWorkIDs[i] : nil
                return ScanBook(detected, spine: spine, workID: workID, photoIndex: photoIndex)
            }
            return PhotoResult(outcome: .scanned, reason: nil, width: scan.width, height: scan.height, books: books)
        case .skipped(_, let hash):
            return filedResult(contentHash: hash, photoIndex: photoIndex)
        case .failed(_, let reason):
            return PhotoResult(outcome: .failed, reason: Self.publicReason(reason), width: nil, height: nil, books: [])
        case .leftOut:
            // Only a folder scan leaves a photo out; `scan(photoAt:)` fails one over the scanner's pixel limit.
            return PhotoResult(outcome: .failed, reason: "The photo has more pixels than the scanner decodes.", width: nil, height: nil, books: [])
        }
    }

    private func filedResult(contentHash: String, photoIndex: Int) -> PhotoResult {
        do {
            let works = try library.works(photoContentHash: contentHash)
            return PhotoResult(outcome: .alreadyFiled, reason: nil, width: nil, height: nil,
                               books: works.map { ScanBook(filed: $0, photoIndex: photoIndex) })
        } catch {
            return PhotoResult(outcome: .failed, reason: "library: \(error)", width: nil, height: nil, books: [])
        }
    }

    /// Failure reasons name the server's upload path; clients get the photo's name in the job without it.
    static func publicReason(_ reason: String) -> String {
        reason.replacingOccurrences(of: #"/[^\s:]*/(photo-[0-9]+\.[a-z]+)"#, with: "$1", options: .regularExpression)
    }

    /// The job's results with each book's review status read from the library now, so a client sees a
    /// reviewer's decisions (and a rejected spine) without a second API.
    /// The library is read off the actor, so many readers of results never queue behind each other.
    nonisolated func results(_ id: UUID) async -> JobResultsDTO? {
        guard let job = await job(id) else { return nil }
        return results(for: job)
    }

    nonisolated func results(for job: ScanJob) -> JobResultsDTO {
        results(for: job, statuses: liveStatuses(job))
    }

    /// The review status of each filed book's Work now (nil when the library could not be read).
    nonisolated func liveStatuses(_ job: ScanJob) -> [Int64: ReviewStatus]? {
        let ids = job.photos.flatMap { $0.result?.books.compactMap(\.workId) ?? [] }
        guard !ids.isEmpty else { return [:] }
        return try? library.reviewStatuses(ids: ids)
    }

    nonisolated func results(for job: ScanJob, statuses: [Int64: ReviewStatus]?) -> JobResultsDTO {
        var books = job.books
        if let statuses {
            for i in books.indices {
                guard let workID = books[i].workId else { continue }
                if let status = statuses[workID] { books[i].reviewStatus = status } else { books[i].rejected = true; books[i].cropUrl = nil }
            }
        }
        return JobResultsDTO(job, books: books)
    }

    /// Encoded results of finished jobs, reused while nothing changed: a results object is tens of kilobytes
    /// of JSON, and encoding it again for every poll was most of the cost of the route (bench-serve).
    nonisolated func encodedResults(_ id: UUID) async throws -> Data? {
        guard let job = await job(id) else { return nil }
        if job.status.isTerminal, let fresh = resultsCache.fresh(id) { return fresh }
        let statuses = liveStatuses(job)
        if job.status.isTerminal, let statuses, let cached = resultsCache.get(id, statuses) { return cached }
        let data = try JSONResponse.encoder.encode(results(for: job, statuses: statuses))
        if job.status.isTerminal, let statuses { resultsCache.put(id, statuses, data) }
        return data
    }

    nonisolated let resultsCache = ResultsCache()

    // MARK: Tokens

    static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%016llx", generator.next() as UInt64) }.joined()
    }

    static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}

/// Compares without stopping at the first difference, so response time says nothing about a token.
func constantTimeEqual(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8), y = Array(b.utf8)
    guard x.count == y.count else { return false }
    var diff: UInt8 = 0
    for i in x.indices { diff |= x[i] ^ y[i] }
    return diff == 0
}

extension ScanBook {
    /// From the pipeline's seed-004 entry for a spine just scanned.
    init(_ detected: DetectedBook, spine: ScannedSpine, workID: Int64?, photoIndex: Int) {
        let unread = detected.work.title.isEmpty || detected.work.title == Work.unreadTitle
        let authors = detected.authors?.map(\.name) ?? []
        self.init(
            title: unread ? nil : detected.work.title,
            author: authors.isEmpty ? nil : authors.joined(separator: ", "),
            isbn: detected.edition.isbn,
            confidence: detected.confidence,
            boundingBox: detected.work.boundingBox ?? spine.boundingBox.dto,
            enrichmentStatus: ScanBook.booksTrackStatus(detected.enrichmentStatus, catalogAccepted: spine.catalogMatch?.accepted == true),
            polygon: detected.polygon,
            work: detected.work,
            edition: detected.edition,
            authors: detected.authors,
            workId: workID,
            reviewStatus: detected.work.reviewStatus,
            cropUrl: workID.map { "/v3/review/works/\($0)/crop" },
            photoIndex: photoIndex,
            unreadReason: detected.unreadReason,
            enrichment: detected.enrichmentStatus)
    }

    /// BooksTrack's `enrichmentStatus` words for ShelfScan's enrichment outcome: `pending` when no provider was
    /// asked (the server scans without `--enrich`), `success` when a provider's or the catalogue's book was applied.
    static func booksTrackStatus(_ status: EnrichmentStatus?, catalogAccepted: Bool) -> String {
        switch status?.state {
        case .enriched?: "success"
        case .notFound?, .candidatesOnly?, .nothingToSearch?: "not_found"
        case .unavailable?: "error"
        case nil: catalogAccepted ? "success" : "pending"
        }
    }

    /// From a Work the library filed earlier for the same photo.
    init(filed work: Work, photoIndex: Int) {
        let dto = work.dto
        let authors = work.authors.map(\.dto)
        let edition = work.editions.first?.dto ?? EditionDTO(isbn: nil, isbns: [])
        let spine = work.spine
        let confidence: Double = {
            guard let spine else { return 0 }
            guard let reading = spine.readingConfidence, spine.readError == nil else { return spine.detectionConfidence }
            return min(1, max(0, (spine.detectionConfidence * reading).squareRoot()))
        }()
        self.init(
            title: work.title == Work.unreadTitle || work.title.isEmpty ? nil : work.title,
            author: authors.isEmpty ? nil : authors.map(\.name).joined(separator: ", "),
            isbn: edition.isbn,
            confidence: (confidence * 1_000_000).rounded() / 1_000_000,
            boundingBox: dto.boundingBox ?? BoundingBoxDTO(x: 0, y: 0, width: 0, height: 0),
            enrichmentStatus: ScanBook.booksTrackStatus(spine?.enrichmentStatus, catalogAccepted: spine?.catalogScore != nil),
            polygon: spine?.polygon,
            work: dto,
            edition: edition,
            authors: authors.isEmpty ? nil : authors,
            workId: work.id,
            reviewStatus: work.reviewStatus,
            cropUrl: work.id.map { "/v3/review/works/\($0)/crop" },
            photoIndex: photoIndex,
            unreadReason: work.title == Work.unreadTitle ? (spine?.readError ?? "not read") : nil,
            enrichment: spine?.enrichmentStatus)
    }
}

/// Finished jobs' encoded results, keyed by job and valid for the review statuses they were built from.
/// A class behind a lock rather than actor state: readers must not queue behind the scanning bookkeeping.
///
/// Reading the statuses back from the library was most of a results request's cost once the encoding was
/// cached (bench-serve, 200 connections: 4,900 req/s on results against 19,700 on status). So an entry
/// checked against the library less than `freshness` ago is served without asking it again. Review decisions
/// made through this server drop that (`forgetChecks`), so its own clients see them at once; a decision made
/// by another process (`shelfscan review` on the same library) shows within `freshness`.
final class ResultsCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [UUID: Entry] = [:]
    /// Enough for every job a household polls; the oldest entries are dropped beyond it.
    private let capacity = 256
    private var order: [UUID] = []
    private let freshness: Duration = .seconds(1)
    /// Bumped by every review decision here: a check made before one is stale.
    private var generation = 0

    private struct Entry {
        var statuses: [Int64: ReviewStatus]
        var data: Data
        var checked: ContinuousClock.Instant
        var generation: Int
    }

    /// The entry, when it was checked against the library within `freshness` and no decision came since.
    func fresh(_ id: UUID) -> Data? {
        lock.lock(); defer { lock.unlock() }
        guard let entry = entries[id], entry.generation == generation, ContinuousClock.now - entry.checked < freshness else { return nil }
        return entry.data
    }

    func get(_ id: UUID, _ statuses: [Int64: ReviewStatus]) -> Data? {
        lock.lock(); defer { lock.unlock() }
        guard var entry = entries[id], entry.statuses == statuses else { return nil }
        entry.checked = .now
        entry.generation = generation
        entries[id] = entry
        return entry.data
    }

    func put(_ id: UUID, _ statuses: [Int64: ReviewStatus], _ data: Data) {
        lock.lock(); defer { lock.unlock() }
        if entries[id] == nil { order.append(id) }
        entries[id] = Entry(statuses: statuses, data: data, checked: .now, generation: generation)
        while order.count > capacity { entries[order.removeFirst()] = nil }
    }

    func forgetChecks() {
        lock.lock(); defer { lock.unlock() }
        generation += 1
    }
}
