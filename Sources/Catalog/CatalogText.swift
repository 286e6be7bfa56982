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

    /// Catalogue titles carry subtitles a spine rarely shows: "Pilates : la guía más accesible ...", and
    /// library systems join the works of one volume with runs of spaces: "Apologia de Sòcrates   Critó".
    static func splitTitle(_ title: String) -> (main: String, subtitle: String) {
        let punctuation = title.firstIndex(where: { $0 == ":" || $0 == ";" || $0 == "=" || $0 == "/" })
        let spaces = title.range(of: "   ")
        let cut: Range<String.Index>
        switch (punctuation, spaces) {
        case (nil, nil): return (title, "")
        case (let p?, nil): cut = p..<title.index(after: p)
        case (nil, let r?): cut = r
        case (let p?, let r?): cut = p < r.lowerBound ? p..<title.index(after: p) : r
        }
        let main = String(title[..<cut.lowerBound])
        if words(main).isEmpty { return (title, "") }
        return (main, String(title[cut.upperBound...]))
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

    /// Words worth fuzzy matching: letters only ("avier" → "javier"), or call numbers long enough that one
    /// misread digit still leaves them recognisable ("708.5" → "778.5"). Bare numbers (years, volumes) stay exact.
    static func isFuzzyMatchable(_ token: String, length: Int) -> Bool {
        if token.allSatisfy({ $0.isLetter }) { return length >= WordSimilarity.minFuzzyLength }
        return length >= 5 && token.contains(where: { $0.isNumber }) && token.contains(where: { !isAlnum($0) })
    }
}
