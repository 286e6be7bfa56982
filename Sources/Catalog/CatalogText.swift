import BookModel
import Foundation

/// How catalogue fields and OCR readings are cut into the tokens the index compares.
/// Words go through `TextNormalization` (accents, case and punctuation folded); call numbers keep their inner
/// punctuation ("372.3", "91(026)") because "372.3" and "372 3" are different shelves.
enum CatalogText {
    static func words(_ text: String) -> [String] {
        TextNormalization.tokens(text).filter { !$0.isEmpty }
    }

    /// Whitespace-separated pieces that mix digits with punctuation, folded and trimmed: "372.3", "91(026)".
    static func callNumbers(_ text: String) -> [String] {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var out: [String] = []
        for piece in folded.split(whereSeparator: { $0.isWhitespace }) {
            let trimmed = piece.drop(while: { !isAlnum($0) }).reversed().drop(while: { !isAlnum($0) }).reversed()
            let s = String(trimmed)
            guard s.contains(where: { $0.isNumber }), s.contains(where: { !isAlnum($0) }) else { continue }
            out.append(s)
        }
        return out
    }

    /// A call number as tokens: "372.3 Pel" → ["372.3", "pel"], "JN Rue" → ["jn", "rue"].
    static func tagTokens(_ tag: String) -> [String] {
        var out: [String] = []
        for piece in tag.split(whereSeparator: { $0.isWhitespace }) {
            let calls = callNumbers(String(piece))
            out += calls.isEmpty ? words(String(piece)) : calls
        }
        return out
    }

    /// Catalogue titles carry subtitles a spine rarely shows: "Pilates : la guía más accesible ...".
    static func splitTitle(_ title: String) -> (main: String, subtitle: String) {
        guard let cut = title.firstIndex(where: { $0 == ":" || $0 == ";" || $0 == "=" || $0 == "/" }) else {
            return (title, "")
        }
        let main = String(title[..<cut])
        if words(main).isEmpty { return (title, "") }
        return (main, String(title[title.index(after: cut)...]))
    }

    /// Surname and given-name words of one author, dates and qualifiers dropped:
    /// "García de Enterría, Eduardo, 1923-2013" → (["garcia","de","enterria"], ["eduardo"]);
    /// "Mario Bunge" → (["bunge"], ["mario"]).
    static func authorParts(_ author: String) -> (surname: [String], given: [String]) {
        var plain = ""
        var depth = 0
        for ch in author {
            if ch == "(" { depth += 1 } else if ch == ")" { depth = max(0, depth - 1) } else if depth == 0 { plain.append(ch) }
        }
        let keep: (String) -> Bool = { !$0.contains(where: { $0.isNumber }) }
        if let comma = plain.firstIndex(of: ",") {
            let surname = words(String(plain[..<comma])).filter(keep)
            let given = words(String(plain[plain.index(after: comma)...])).filter(keep)
            return (surname, given)
        }
        let all = words(plain).filter(keep)
        guard let last = all.last else { return ([], []) }
        return ([last], Array(all.dropLast()))
    }

    static func isAlnum(_ c: Character) -> Bool { c.isLetter || c.isNumber }
}
