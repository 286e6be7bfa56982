import BookModel
import Foundation
import GRDB

/// A candidate already in the library that a pending Work may duplicate.
public struct DuplicateCandidate: Sendable, Equatable {
    public var id: Work.ID
    public var title: String
    public var authors: [String]
    public var reason: DuplicateReason
}

/// The reviewed library held in memory for duplicate search, so each item in a session is compared against
/// thousands of Works without a query per Work. Load once (`LibraryStore.duplicateIndex()`), then `add` what
/// the session verifies.
public struct DuplicateIndex: Sendable {
    struct Entry: Sendable {
        var title: String
        var authors: [String]
        var key: MatchKey
    }
    private var entries: [Work.ID: Entry] = [:]

    public init(works: [Work] = []) { for w in works { add(w) } }

    public var count: Int { entries.count }

    public mutating func add(_ work: Work) {
        guard let id = work.id else { return }
        entries[id] = Entry(title: work.title, authors: work.authors.map(\.name), key: MatchKey(work))
    }

    public mutating func remove(_ id: Work.ID) { entries[id] = nil }

    /// Best matches first. `threshold` below seed 004's 0.90 lists near misses a person may still merge.
    public func candidates(for work: Work, threshold: Double = 0.75, limit: Int = 5) -> [DuplicateCandidate] {
        let key = MatchKey(work)
        var found: [DuplicateCandidate] = []
        for (id, entry) in entries where id != work.id {
            if let reason = DuplicateRule.match(key, entry.key, threshold: threshold, isbnOrder: work.isbns) {
                found.append(DuplicateCandidate(id: id, title: entry.title, authors: entry.authors, reason: reason))
            }
        }
        return Array(found.sorted { ($0.reason.similarity, -$0.id) > ($1.reason.similarity, -$1.id) }.prefix(limit))
    }
}

extension LibraryStore {
    /// Every reviewed Work, with what duplicate detection needs.
    public func duplicateIndex() throws -> DuplicateIndex {
        DuplicateIndex(works: try works(includePending: false))
    }

    /// Reviewed Works that `work` may duplicate (seed 004 rule 2), best first.
    public func duplicates(of work: Work, threshold: Double = 0.75, limit: Int = 5) throws -> [DuplicateCandidate] {
        try duplicateIndex().candidates(for: work, threshold: threshold, limit: limit)
    }
}
