import BookModel
import Enrichment
import Foundation
import ShelfScan

/// OpenLibrary and Google Books in the review's `/` search, through the same `Enricher` as `scan --enrich`
/// (its response cache, retries, bounded concurrency and circuit), so a reviewer's search costs nothing when
/// the scan already asked, and a failing provider is paused here too.
struct ProviderSearch: SearchProvider {
    let enricher: Enricher
    /// A provider that hangs must not freeze the review: past this the search is given up (and cancelled).
    var timeout: TimeInterval = 20

    var name: String { enricher.configuration.providers.map(\.displayName).joined(separator: " and ") }
    var isRemote: Bool { true }

    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    func search(_ query: String, limit: Int) async throws -> [SearchHit] {
        let enricher = enricher
        guard let (candidates, failures) = await Self.answer(within: timeout, { await enricher.search(query, limit: limit) }) else {
            throw Unavailable(description: "\(name) did not answer within \(Int(timeout)) s")
        }
        // Hits from one provider are worth showing even when another in the chain failed.
        if candidates.isEmpty, !failures.isEmpty {
            throw Unavailable(description: failures.map(Self.sentence).joined(separator: "; "))
        }
        return candidates.map { c in
            SearchHit(source: c.provider.displayName, title: c.book.work.title, authors: c.book.authors.map(\.name),
                      isbn: c.book.edition.isbn, workID: nil, score: c.score, record: c.book.record)
        }
    }

    /// `work`'s answer, or nil when `seconds` pass first; the loser is cancelled. Unstructured on purpose: a
    /// provider that ignores cancellation is left behind, never waited for.
    static func answer<T: Sendable>(within seconds: TimeInterval, _ work: @escaping @Sendable () async -> T) async -> T? {
        let first = FirstAnswer<T>()
        return await withCheckedContinuation { continuation in
            first.start(continuation, [
                Task { first.finish(await work()) },
                Task { try? await Task.sleep(for: .seconds(seconds)); first.finish(nil) },
            ])
        }
    }

    /// "OpenLibrary did not answer in time": the stable code as the reviewer reads it.
    static func sentence(_ failure: EnrichmentStatus.Failure) -> String {
        let name = BookProvider(rawValue: failure.provider)?.displayName ?? failure.provider
        switch failure.code {
        case "PROVIDER_UNREACHABLE": return "cannot reach \(name)"
        case "PROVIDER_TIMEOUT": return "\(name) did not answer in time"
        case "PROVIDER_RATE_LIMITED": return "\(name) asks to slow down; try again in a minute"
        case "PROVIDER_PAUSED": return "\(name) is paused after repeated failures"
        default: return "\(name) could not answer"
        }
    }

    /// Hands the first of two answers to the waiting search and cancels both tasks.
    private final class FirstAnswer<T: Sendable>: @unchecked Sendable {
        // @unchecked Sendable: every field is touched only while `lock` is held.
        private let lock = NSLock()
        private var continuation: CheckedContinuation<T?, Never>?
        private var answer: T??
        private var tasks: [Task<Void, Never>] = []

        func start(_ continuation: CheckedContinuation<T?, Never>, _ tasks: [Task<Void, Never>]) {
            let early = lock.withLock { () -> T?? in
                self.tasks = tasks
                if answer == nil { self.continuation = continuation }
                return answer
            }
            if let early { continuation.resume(returning: early); tasks.forEach { $0.cancel() } }
        }

        func finish(_ value: T?) {
            let (waiting, tasks) = lock.withLock { () -> (CheckedContinuation<T?, Never>?, [Task<Void, Never>]) in
                guard answer == nil else { return (nil, []) }
                answer = .some(value)
                defer { continuation = nil }
                return (continuation, self.tasks)
            }
            waiting?.resume(returning: value)
            tasks.forEach { $0.cancel() }
        }
    }
}
