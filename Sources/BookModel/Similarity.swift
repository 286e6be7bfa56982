/// String similarity for duplicate detection (seed 004 rule 2): Levenshtein distance over normalized text
/// (case, punctuation, diacritics and whitespace folded by `TextNormalization`).
public enum Similarity {
    /// 1 - distance / longer length, in 0...1; two empty strings are identical.
    public static func ratio(_ a: String, _ b: String) -> Double {
        let x = Array(TextNormalization.normalize(a).unicodeScalars), y = Array(TextNormalization.normalize(b).unicodeScalars)
        return ratio(scalars: x, y)
    }

    static func ratio(scalars x: [Unicode.Scalar], _ y: [Unicode.Scalar]) -> Double {
        let longest = max(x.count, y.count)
        if longest == 0 { return 1 }
        return 1 - Double(levenshtein(x, y)) / Double(longest)
    }

    /// Classic two-row dynamic programme; O(n·m) time, O(m) memory.
    public static func levenshtein<T: Equatable>(_ a: [T], _ b: [T]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// Names compared as sorted word sets, so "Le Guin, Ursula K." matches "Ursula K. Le Guin".
    static func nameKey(_ names: [String]) -> String {
        names.map { TextNormalization.tokens($0).sorted().joined(separator: " ") }.sorted().joined(separator: " ")
    }

    /// Title and author similarity in 0...1: 70 % title, 30 % authors. When either side has no author (an
    /// unread spine), the title alone decides.
    public static func titleAndAuthors(_ title1: String, _ authors1: [String], _ title2: String, _ authors2: [String]) -> Double {
        let t = ratio(title1, title2)
        guard !authors1.isEmpty, !authors2.isEmpty else { return t }
        let a = ratio(nameKey(authors1), nameKey(authors2))
        return 0.7 * t + 0.3 * a
    }
}

/// Why two Works are the same one (seed 004 rule 2, in its order: IDs, then ISBN, then fuzzy text).
public enum DuplicateReason: Sendable, Equatable, CustomStringConvertible {
    case externalID(String)
    case isbn(String)
    case similarTitleAndAuthor(Double)

    public var similarity: Double {
        if case let .similarTitleAndAuthor(s) = self { return s }
        return 1
    }

    public var description: String {
        switch self {
        case let .externalID(k): "same ID \(k)"
        case let .isbn(i): "same ISBN \(i)"
        case let .similarTitleAndAuthor(s): "\(Int((s * 100).rounded()))% similar"
        }
    }
}

/// What duplicate detection compares, computed once per Work so a queue of thousands can be checked fast.
public struct MatchKey: Sendable {
    public let externalIDs: Set<String>
    public let isbn13s: [String: String]   // ISBN-13 form → as stored
    /// Normalized title words and author-name words, for callers that index Works by word.
    public let titleWords: [String]
    public let authorWords: [String]
    let title: [Unicode.Scalar]
    let authors: [Unicode.Scalar]
    let hasAuthors: Bool
    let unread: Bool

    public init(_ work: Work) {
        externalIDs = work.externalIDKeys
        var isbns: [String: String] = [:]
        for i in work.isbns { isbns[ISBN.toISBN13(i) ?? i] = isbns[ISBN.toISBN13(i) ?? i] ?? i }
        isbn13s = isbns
        // One normalization per string: this runs for every Work of a library when an index is built.
        let normalizedTitle = TextNormalization.normalize(work.title)
        title = Array(normalizedTitle.unicodeScalars)
        titleWords = normalizedTitle.split(separator: " ").map(String.init)
        let perName = work.authors.map { TextNormalization.normalize($0.name).split(separator: " ").map(String.init) }
        hasAuthors = !perName.isEmpty
        authorWords = perName.flatMap { $0 }
        authors = Array(perName.map { $0.sorted().joined(separator: " ") }.sorted().joined(separator: " ").unicodeScalars)
        unread = work.hasUnreadTitle
    }
}

public enum DuplicateRule {
    /// Seed 004: fuzzy matches count from 90 % similarity up.
    public static let fuzzyThreshold = 0.90

    /// The reason `a` and `b` are one Work, or nil. `threshold` lowers the fuzzy bar to list near misses.
    public static func match(_ a: Work, _ b: Work, threshold: Double = fuzzyThreshold) -> DuplicateReason? {
        match(MatchKey(a), MatchKey(b), threshold: threshold, isbnOrder: a.isbns)
    }

    public static func match(_ a: MatchKey, _ b: MatchKey, threshold: Double = fuzzyThreshold, isbnOrder: [String]? = nil) -> DuplicateReason? {
        if let shared = a.externalIDs.intersection(b.externalIDs).sorted().first { return .externalID(shared) }
        if !a.isbn13s.isEmpty && !b.isbn13s.isEmpty {
            let order = isbnOrder ?? a.isbn13s.values.sorted()
            if let shared = order.first(where: { b.isbn13s[ISBN.toISBN13($0) ?? $0] != nil }) { return .isbn(shared) }
        }
        guard !a.unread, !b.unread else { return nil }
        let both = a.hasAuthors && b.hasAuthors
        // Bound the title ratio by the length difference before paying for the edit distance.
        let longest = max(a.title.count, b.title.count)
        if longest > 0 {
            let bound = 1 - Double(abs(a.title.count - b.title.count)) / Double(longest)
            if (both ? 0.7 * bound + 0.3 : bound) < threshold { return nil }
        }
        let t = Similarity.ratio(scalars: a.title, b.title)
        let s = both ? 0.7 * t + 0.3 * Similarity.ratio(scalars: a.authors, b.authors) : t
        return s >= threshold ? .similarTitleAndAuthor(s) : nil
    }
}
