import BookModel

/// The words of a reading worth sending to a search engine, and the order of attempts. Providers' search
/// requires every word to match, so one OCR-garbled word sinks a query: words that are likely noise (too
/// short, digits as in call numbers "863 Mar", function words) are left out, and when a search finds
/// nothing acceptable the next attempts send pairs of words, longest first: a pair of correct words is
/// specific enough in a search engine, and one of several pairs is likely free of OCR errors.
struct QueryWords: Sendable {
    struct Attempt: Sendable, Equatable {
        var title: [String] = []
        var author: [String] = []
        var any: [String] = []
    }

    let title: [String]
    let author: [String]
    /// Words from a raw reading with no title/author split.
    let any: [String]
    static let maxWords = 6

    var isEmpty: Bool { title.isEmpty && author.isEmpty && any.isEmpty }

    init(_ request: EnrichmentRequest) {
        let t = Self.keep(TextNormalization.tokens(request.title ?? ""))
        let a = Self.keep(request.authors.flatMap { TextNormalization.tokens($0) })
        if !t.isEmpty {
            title = Array(t.prefix(Self.maxWords))
            author = Array(Self.longest(a, 2))
            any = []
        } else {
            title = []; author = []
            any = Self.longest(Self.keep(Self.withoutShelfMarks(TextNormalization.tokens(request.rawText))), Self.maxWords)
        }
    }

    /// Title and author words; then the title alone; then pairs of title words, longest first; then the
    /// longest word alone when it has 7+ letters (rare enough to narrow a search by itself).
    /// A raw reading: its best words; then pairs of them, longest first; then its longest word alone.
    var attempts: [Attempt] {
        var out: [Attempt] = []
        func add(_ a: Attempt) { if !(a.title.isEmpty && a.author.isEmpty && a.any.isEmpty), !out.contains(a) { out.append(a) } }
        if !title.isEmpty {
            add(Attempt(title: title, author: author))
            add(Attempt(title: title))
            for pair in Self.pairs(title) { add(Attempt(any: pair)) }
            if let long = Self.longest(title, 1).first, long.count >= 7 { add(Attempt(any: [long])) }
        } else {
            add(Attempt(any: any))
            for pair in Self.pairs(any) { add(Attempt(any: pair)) }
            if let long = Self.longest(any, 1).first, long.count >= 7 { add(Attempt(any: [long])) }
        }
        return out
    }

    /// Words two by two, longest first (each pair in reading order); a last odd word goes alone.
    static func pairs(_ words: [String]) -> [[String]] {
        guard words.count > 2 else { return [] }
        let byLength = words.enumerated().sorted { ($0.element.count, -$0.offset) > ($1.element.count, -$1.offset) }
        return stride(from: 0, to: byLength.count, by: 2).map { i in
            byLength[i..<min(i + 2, byLength.count)].sorted { $0.offset < $1.offset }.map(\.element)
        }
    }

    /// The `n` longest words, kept in reading order.
    static func longest(_ words: [String], _ n: Int) -> [String] {
        guard words.count > n else { return words }
        let chosen = Set(words.enumerated().sorted { ($0.element.count, -$0.offset) > ($1.element.count, -$1.offset) }.prefix(n).map(\.offset))
        return words.enumerated().filter { chosen.contains($0.offset) }.map(\.element)
    }

    /// De-duplicated words of 3+ letters with no digits, minus function words.
    static func keep(_ tokens: [String]) -> [String] {
        var out: [String] = []
        for t in tokens where (t.count >= 3 || isIdeographic(t)) && !t.contains(where: { $0.isASCII && $0.isNumber })
            && !stopWords.contains(t) && !out.contains(t) {
            out.append(t)
        }
        return out
    }

    /// Drops the letters of library shelf marks: a word of up to three letters right after a number
    /// ("863 Mar", "1(Fin)", "77.6 Gom") is the author's abbreviation in a call number, which no provider
    /// knows, and as a search word or a ranking word it only matches unrelated short titles. Numbers stay
    /// ("1984", "101 cuentos zen").
    static func withoutShelfMarks(_ tokens: [String]) -> [String] {
        var out: [String] = []
        var afterNumber = false
        for t in tokens {
            let numeric = t.contains { $0.isASCII && $0.isNumber }
            if afterNumber && !numeric && t.count <= 3 && !isIdeographic(t) { afterNumber = false; continue }
            afterNumber = numeric
            out.append(t)
        }
        return out
    }

    /// CJK has no spaces and two characters can be a whole title ("三体"): such words are always kept.
    static func isIdeographic(_ word: String) -> Bool { word.unicodeScalars.contains { $0.value >= 0x2E80 } }

    static let stopWords: Set<String> = [
        "the", "and", "for", "with", "from", "von", "und", "der", "die", "das", "les", "des", "une", "del", "los",
        "las", "por", "para", "con", "per", "els", "una", "uns", "que", "est", "sur", "dans", "aux", "edition",
        "editorial", "ediciones", "edicions", "vol", "tomo",
    ]
}
