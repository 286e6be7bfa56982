import BookModel
import Foundation

/// Helpers shared by both providers' normalizers.
enum Normalize {
    /// Valid ISBNs only (check digit), normalized, de-duplicated, ISBN-13s first; at most `limit`.
    static func isbns(_ raw: [String], limit: Int = 20) -> [String] {
        var seen = Set<String>()
        var thirteen: [String] = [], ten: [String] = []
        for r in raw {
            guard let n = ISBN.valid(r), seen.insert(n).inserted else { continue }
            if n.count == 13 { thirteen.append(n) } else { ten.append(n) }
        }
        return Array((thirteen + ten).prefix(limit))
    }

    /// Seed 004's `publicationDate`: "YYYY-MM-DD" or "YYYY". Google's "2004-05" and OpenLibrary's
    /// "May 1, 2004" become "2004"; text with no year becomes nil.
    static func publicationDate(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        let parts = text.split(separator: "-")
        if parts.count == 3, parts[0].count == 4, parts.allSatisfy({ $0.allSatisfy(\.isNumber) }) { return text }
        return CanonicalRules.extractYear(fromDate: text).map(String.init)
    }

    static func trimmed(_ text: String?) -> String? {
        guard let t = text?.trimmingCharacters(in: .whitespacesAndNewlines), !t.isEmpty else { return nil }
        return t
    }

    static func description(_ text: String?) -> String? {
        trimmed(text).map { String($0.prefix(Rules.descriptionMaxLength)) }
    }

    static func format(_ physical: String?, ebook: Bool = false) -> EditionFormat {
        if ebook { return .ebook }
        let p = TextNormalization.normalize(physical ?? "")
        if p.contains("mass market") { return .massMarket }
        if p.contains("hardcover") || p.contains("hardback") || p.contains("hard cover") { return .hardcover }
        if p.contains("audio") { return .audiobook }
        if p.contains("ebook") || p.contains("e book") || p.contains("electronic") { return .ebook }
        return .paperback
    }

    /// The last path component of an OpenLibrary key: "/works/OL45804W" → "OL45804W".
    static func olid(_ key: String?) -> String? {
        guard let key = trimmed(key) else { return nil }
        return key.split(separator: "/").last.map(String.init)
    }

    /// Non-empty, de-duplicated, at most `limit`.
    static func ids(_ raw: [String]?, limit: Int = 10) -> [String] {
        var out: [String] = []
        for r in raw ?? [] {
            let t = r.trimmingCharacters(in: .whitespaces)
            if !t.isEmpty, !out.contains(t) { out.append(t) }
            if out.count == limit { break }
        }
        return out
    }
}
