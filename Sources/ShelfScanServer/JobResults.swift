import BookModel
import Foundation
import LibraryCore

/// A job's results as its clients read them, and finished jobs' JSON kept while nothing changed.
struct JobResultsReader: Sendable {
    let library: any LibraryStoring
    let cache: ResultsCache

    init(library: any LibraryStoring, clock: ServerClock) {
        self.library = library
        cache = ResultsCache(clock: clock)
    }

    /// The job's results with each book's review status read from the library now, so a client sees a
    /// reviewer's decisions (and a rejected spine) without a second API.
    func results(for job: ScanJob) async -> JobResultsDTO {
        results(for: job, statuses: await liveStatuses(job))
    }

    /// The review status of each filed book's Work now (nil when the library could not be read).
    func liveStatuses(_ job: ScanJob) async -> [Int64: ReviewStatus]? {
        let ids = job.photos.flatMap { $0.result?.books.compactMap(\.workId) ?? [] }
        guard !ids.isEmpty else { return [:] }
        return try? await library.reviewStatuses(ids: ids)
    }

    func results(for job: ScanJob, statuses: [Int64: ReviewStatus]?) -> JobResultsDTO {
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
    func encoded(_ job: ScanJob) async throws -> Data {
        let id = job.id
        if job.status.isTerminal, let fresh = cache.fresh(id) { return fresh }
        let statuses = await liveStatuses(job)
        if job.status.isTerminal, let statuses, let cached = cache.get(id, statuses) { return cached }
        let data = try JSONResponse.encoder.encode(results(for: job, statuses: statuses))
        if job.status.isTerminal, let statuses { cache.put(id, statuses, data) }
        return data
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
    static let freshness: Duration = .seconds(1)
    /// Bumped by every review decision here: a check made before one is stale.
    private var generation = 0
    private let clock: ServerClock

    init(clock: ServerClock) { self.clock = clock }

    private struct Entry {
        var statuses: [Int64: ReviewStatus]
        var data: Data
        var checked: Duration
        var generation: Int
    }

    /// The entry, when it was checked against the library within `freshness` and no decision came since.
    func fresh(_ id: UUID) -> Data? {
        lock.lock(); defer { lock.unlock() }
        guard let entry = entries[id], entry.generation == generation, clock.now() - entry.checked < Self.freshness else { return nil }
        return entry.data
    }

    func get(_ id: UUID, _ statuses: [Int64: ReviewStatus]) -> Data? {
        lock.lock(); defer { lock.unlock() }
        guard var entry = entries[id], entry.statuses == statuses else { return nil }
        entry.checked = clock.now()
        entry.generation = generation
        entries[id] = entry
        return entry.data
    }

    func put(_ id: UUID, _ statuses: [Int64: ReviewStatus], _ data: Data) {
        lock.lock(); defer { lock.unlock() }
        if entries[id] == nil { order.append(id) }
        entries[id] = Entry(statuses: statuses, data: data, checked: clock.now(), generation: generation)
        while order.count > capacity { entries[order.removeFirst()] = nil }
    }

    func forgetChecks() {
        lock.lock(); defer { lock.unlock() }
        generation += 1
    }
}
