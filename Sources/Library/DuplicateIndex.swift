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
        var work: Work   // title, credits, external IDs and editions only
        var normalizedLength: Int
    }
    private var entries: [Work.ID: Entry] = [:]

    public init(works: [Work] = []) { for w in works { add(w) } }

    public var count: Int { entries.count }

    public mutating func add(_ work: Work) {
        guard let id = work.id else { return }
        entries[id] = Entry(work: work, normalizedLength: TextNormalization.normalize(work.title).unicodeScalars.count)
    }

    public mutating func remove(_ id: Work.ID) { entries[id] = nil }

    /// Best matches first. `threshold` below seed 004's 0.90 lists near misses a person may still merge.
    public func candidates(for work: Work, threshold: Double = 0.75, limit: Int = 5) -> [DuplicateCandidate] {
        let length = TextNormalization.normalize(work.title).unicodeScalars.count
        var found: [DuplicateCandidate] = []
        for (id, entry) in entries where id != work.id {
            // A title this much longer or shorter cannot reach the threshold: skip the edit distance.
            let longest = max(length, entry.normalizedLength)
            let cheapBound = longest == 0 ? 1 : 1 - Double(abs(length - entry.normalizedLength)) / Double(longest)
            let hasIDs = !work.externalIDKeys.isEmpty || !work.isbns.isEmpty
            if !hasIDs && cheapBound < threshold - 0.3 { continue }
            if let reason = DuplicateRule.match(work, entry.work, threshold: threshold) {
                found.append(DuplicateCandidate(id: id, title: entry.work.title, authors: entry.work.authors.map(\.name), reason: reason))
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
