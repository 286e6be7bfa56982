import BookModel
import Foundation
import LibraryCore
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
/// An actor because jobs change from many requests and scans at once. Photos are scanned off the actor and
/// off Swift's cooperative pool, on `scanThreads`: only bookkeeping runs on the actor, and requests that only
/// read a job read `directory`, so a status request never waits for a photo nor for the actor.
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
    /// The time the server's timeouts, rate limit and results cache run on, and the dates jobs record.
    nonisolated let clock: ServerClock

    /// Written here only; read by requests without coming to the actor.
    nonisolated let directory = JobDirectory()
    private var queue: [UUID] = []
    private var running: [UUID: Task<Void, Never>] = [:]
    private var subscribers: [UUID: [UUID: AsyncStream<ScanJob>.Continuation]] = [:]

    /// A job interrupted this many times (each a crash or kill mid-job) is failed rather than retried forever.
    static let maxAttempts = 3

    init(scanner: PhotoScanner, library: any LibraryStoring, store: JobStore, concurrentJobs: Int, logger: Logger,
         gate: (@Sendable (UUID, Int) async -> Void)? = nil, clock: ServerClock = .continuous) {
        self.gate = gate
        self.clock = clock
        self.resultsReader = JobResultsReader(library: library, clock: clock)
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
            directory.put(job)
        }
        pump()
    }

    // MARK: Accepting

    /// Accepts a job: the photos and `job.json` are on disk when this returns, so the 202 that follows is a promise.
    /// - Returns: the job and its token (given to the client once, stored only as a hash).
    func submit(_ photos: [UploadedPhoto], api: JobAPI, id: UUID = UUID()) throws -> (ScanJob, String) {
        if directory[id] != nil { throw Problem(.conflict, code: "JOB_EXISTS", detail: "A job with ID \(id.uuidString.lowercased()) already exists. Use a new UUID.") }
        let token = JobToken.make()
        let job = ScanJob(
            id: id, api: api, tokenHash: JobToken.hash(token), status: .queued, createdAt: clock.date(), startedAt: nil, completedAt: nil,
            photos: photos.enumerated().map { index, photo in
                JobPhoto(file: "photo-\(index + 1).\(photo.format == .png ? "png" : "jpg")", originalName: photo.originalName,
                         bytes: photo.bytes.count, contentHash: ContentHash.sha256Hex(photo.bytes), result: nil)
            },
            error: nil, attempts: 0)
        try store.create(job, photos: photos.map(\.bytes))
        directory.put(job)
        queue.append(id)
        pump()
        return (job, token)
    }

    // MARK: Reading

    nonisolated func job(_ id: UUID) -> ScanJob? { directory[id] }

    /// A stream of the job's states: the current one at once, then every change; it ends after a final state.
    func subscribe(_ id: UUID) -> AsyncStream<ScanJob>? {
        guard let job = directory[id] else { return nil }
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
        guard var job = directory[id] else { return nil }
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
            guard var job = directory[id], !job.status.isTerminal else { continue }
            job.status = .processing
            job.startedAt = job.startedAt ?? clock.date()
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
        guard let job = directory[id], job.status == .processing else { return false }
        return job.photos[index].result == nil
    }

    private func record(_ id: UUID, _ index: Int, _ outcome: PhotoOutcome) async {
        guard var job = directory[id], job.status == .processing else { return }
        job.photos[index].result = await PhotoResult(outcome, photoIndex: index, library: library)
        update(job)
    }

    private func complete(_ id: UUID) {
        running[id] = nil
        guard var job = directory[id], job.status == .processing else { pump(); return }
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
        job.completedAt = clock.date()
    }

    /// Saves, then tells subscribers: a client never hears of a state a restart could take back.
    private func update(_ job: ScanJob) {
        directory.put(job)
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

    /// Reads results (the library's live review statuses, the encoded-results cache) off the actor, so many
    /// readers of results never queue behind each other or behind the scanning bookkeeping.
    nonisolated let resultsReader: JobResultsReader

    /// The job's results with each book's review status read from the library now.
    nonisolated func results(_ id: UUID) async -> JobResultsDTO? {
        guard let job = job(id) else { return nil }
        return await resultsReader.results(for: job)
    }

    /// The job's results as JSON, from the cache while nothing changed.
    nonisolated func encodedResults(_ id: UUID) async throws -> Data? {
        guard let job = job(id) else { return nil }
        return try await resultsReader.encoded(job)
    }
}
