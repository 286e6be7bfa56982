import BookModel
import Dispatch
import Enrichment
import Foundation
import ShelfScan

/// OpenLibrary and Google Books in the review's `/` search, through the same `Enricher` as `scan --enrich`
/// (its response cache, retries, bounded concurrency and circuit), so a reviewer's search costs nothing when
/// the scan already asked, and a failing provider is paused here too. `search` blocks its caller until the
/// answer or the timeout; the search itself runs on a thread of its own, so the caller may be anywhere.
struct ProviderSearch: SearchProvider {
    let enricher: Enricher
    /// The review loop is synchronous (one key, one screen); a provider that hangs must not freeze it.
    var timeout: TimeInterval = 20

    var name: String { enricher.configuration.providers.map(\.displayName).joined(separator: " and ") }
    var isRemote: Bool { true }

    private static let thread = DedicatedThreads(count: 1, name: "provider-search")

    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    func search(_ query: String, limit: Int) throws -> [SearchHit] {
        let answer = Answer()
        let done = DispatchSemaphore(value: 0)
        let enricher = enricher
        // On a thread of its own: the cooperative pool may be busy (or blocked), and this loop waits.
        Task(executorPreference: Self.thread) {
            answer.set(await enricher.search(query, limit: limit))
            done.signal()
        }
        guard done.wait(timeout: .now() + timeout) == .success, let (candidates, failures) = answer.value else {
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

    /// Carries the answer from the detached task to the waiting review loop.
    private final class Answer: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: (candidates: [EnrichmentCandidate], failures: [EnrichmentStatus.Failure])?
        var value: (candidates: [EnrichmentCandidate], failures: [EnrichmentStatus.Failure])? { lock.withLock { stored } }
        func set(_ v: (candidates: [EnrichmentCandidate], failures: [EnrichmentStatus.Failure])) { lock.withLock { stored = v } }
    }
}
