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

public enum DuplicateRule {
    /// Seed 004: fuzzy matches count from 90 % similarity up.
    public static let fuzzyThreshold = 0.90

    /// The reason `a` and `b` are one Work, or nil. `threshold` lowers the fuzzy bar to list near misses.
    public static func match(_ a: Work, _ b: Work, threshold: Double = fuzzyThreshold) -> DuplicateReason? {
        if let shared = a.externalIDKeys.intersection(b.externalIDKeys).sorted().first { return .externalID(shared) }
        let bISBN13 = Set(b.isbns.map { ISBN.toISBN13($0) ?? $0 })
        if let shared = a.isbns.first(where: { bISBN13.contains(ISBN.toISBN13($0) ?? $0) }) { return .isbn(shared) }
        guard !a.hasUnreadTitle, !b.hasUnreadTitle else { return nil }
        let s = Similarity.titleAndAuthors(a.title, a.authors.map(\.name), b.title, b.authors.map(\.name))
        return s >= threshold ? .similarTitleAndAuthor(s) : nil
    }
}
