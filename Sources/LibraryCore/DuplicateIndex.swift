import BookModel
import Foundation

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
///
/// Only plausible candidates are compared: Works sharing an external ID or ISBN, a title word, or an author
/// word. Two titles at least 75 % alike nearly always share a word, and a mangled one-word title ("Dunee")
/// is still found through its author. Words are taken rarest first, so "the" and "de" only count when
/// nothing rarer is shared, and a look-up costs the same in a library of 500 or 50,000 books.
public struct DuplicateIndex: Sendable {
    struct Entry: Sendable {
        var title: String
        var authors: [String]
        var key: MatchKey
        var blockingKeys: Set<String>
    }
    private var entries: [Work.ID: Entry] = [:]
    private var buckets: [String: Set<Work.ID>] = [:]

    public init(works: [Work] = []) { for w in works { add(w) } }

    public var count: Int { entries.count }

    /// How many Works one look-up compares at most (beyond ID and ISBN matches and the rarest word's bucket).
    static let poolBudget = 400

    static func blockingKeys(_ work: Work, _ key: MatchKey) -> Set<String> {
        var keys = Set(key.externalIDs.map { "id:" + $0 })
        for isbn in key.isbn13s.keys { keys.insert("isbn:" + isbn) }
        if !work.hasUnreadTitle { for t in key.titleWords { keys.insert("t:" + t) } }
        for t in key.authorWords where t.count > 1 { keys.insert("a:" + t) }
        return keys
    }

    public mutating func add(_ work: Work) {
        guard let id = work.id else { return }
        remove(id)
        let key = MatchKey(work)
        let blocking = Self.blockingKeys(work, key)
        entries[id] = Entry(title: work.title, authors: work.authors.map(\.name), key: key, blockingKeys: blocking)
        for k in blocking { buckets[k, default: []].insert(id) }
    }

    public mutating func remove(_ id: Work.ID) {
        guard let old = entries.removeValue(forKey: id) else { return }
        for k in old.blockingKeys { buckets[k]?.remove(id) }
    }

    /// Best matches first. `threshold` below seed 004's 0.90 lists near misses a person may still merge.
    public func candidates(for work: Work, threshold: Double = 0.75, limit: Int = 5) -> [DuplicateCandidate] {
        let key = MatchKey(work)
        // IDs and ISBNs always; then word buckets from the rarest up, until enough Works are in the pool.
        var pool = Set<Work.ID>()
        var words: [Set<Work.ID>] = []
        for k in Self.blockingKeys(work, key) {
            guard let bucket = buckets[k], !bucket.isEmpty else { continue }
            if k.hasPrefix("id:") || k.hasPrefix("isbn:") { pool.formUnion(bucket) } else { words.append(bucket) }
        }
        for (i, bucket) in words.sorted(by: { $0.count < $1.count }).enumerated() {
            if i > 0 && pool.count + bucket.count > Self.poolBudget { break }
            pool.formUnion(bucket)
        }
        var found: [DuplicateCandidate] = []
        for id in pool where id != work.id {
            guard let entry = entries[id] else { continue }
            if let reason = DuplicateRule.match(key, entry.key, threshold: threshold, isbnOrder: work.isbns) {
                found.append(DuplicateCandidate(id: id, title: entry.title, authors: entry.authors, reason: reason))
            }
        }
        return Array(found.sorted { ($0.reason.similarity, -$0.id) > ($1.reason.similarity, -$1.id) }.prefix(limit))
    }
}
