import Foundation

/// A catalogue entry proposed for a reading, with a calibrated confidence: `score` ≈ the probability that the
/// entry is the book that was read. Accept it when `score >= CatalogIndex.acceptThreshold`.
public struct CatalogMatch: Sendable, Hashable {
    public var entry: CatalogEntry
    /// Position of `entry` in the catalogue it came from.
    public var entryIndex: Int
    public var score: Double
    /// The uncalibrated coverage score and its parts, kept for evaluation and review.
    public var features: MatchFeatures
}

/// How well one entry is covered by one reading. All parts are in 0...1.
public struct MatchFeatures: Sendable, Hashable {
    /// Weighted share of the main title's words found in the reading.
    public var title: Double
    public var subtitle: Double
    public var hasSubtitle: Bool = false
    public var author: Double
    public var hasAuthor: Bool
    public var tag: Double
    public var hasTag: Bool
    /// Weighted share of the reading's known words that the title (with subtitle) alone explains.
    public var queryByTitle: Double = 0
    /// Weighted share of the series name found in the reading (0 when the entry has none).
    public var series: Double = 0
    /// The whole call number appears in the reading as consecutive words ("75(Goy) Gud").
    public var tagExact: Bool
    /// Share of consecutive matched title words that appear in the reading in the opposite order.
    public var disorder: Double
    /// Weighted share of the reading's (known) words that this entry explains.
    public var query: Double
    /// The ranking score.
    public var raw: Double
    /// `raw` minus the best raw score of a candidate with a different title (negative below the leader).
    public var margin: Double
    /// Softmax probability of this entry against the candidates that are other works (the ranker is trained
    /// as exactly this softmax).
    public var share: Double = 0
}

/// Inverted index over a catalogue: integer word ids, IDF weights, and a character-trigram index over the
/// vocabulary so OCR-garbled words still find their catalogue spelling. A query touches the postings of its
/// own words only, keeps the ~100 best candidates by summed IDF, and re-ranks those by how much of each
/// catalogue field the reading covers (OCR mixes title, author, call number and publisher in any order, so
/// coverage beats symmetric string similarity).
public final class CatalogIndex: Sendable {
    /// Calibrated score at or above which a match is taken as the book: the lowest score at which the public
    /// training half of the Library Dataset shows precision >= 95% with 95% confidence (held-out half: 98.3% of
    /// readings accepted at 95.6% precision). Scores are probabilities, so callers wanting fewer wrong
    /// auto-accepts can use 0.5 (held-out: 97.4% accepted, 96.2% precision). See Benchmarks/eval-catalog.
    public static let acceptThreshold: Double = CatalogCalibration.standard.acceptThreshold

    public let catalog: Catalog
    public let calibration: CatalogCalibration
    public let ranking: CatalogRanking

    enum Field: Int { case title = 0, subtitle, author, tag, series }
    static let fieldCount = 5
    /// Candidates kept from the first pass for the precise re-rank.
    static let candidateCount = 120
    /// Words in more than this share of entries ("de", "la") do not propose candidates; they still count
    /// in the re-rank.
    static let stopShare: Float = 0.08
    static let minFuzzySimilarity: Float = 0.6
    static let splitSimilarity: Float = 0.9
    static let maxQueryTokens = 200
    /// "91 (026) (46.41)Gil" is the longest call number spelled apart in the Library Dataset's readings.
    static let maxCallNumberWords = 6
    /// Longer tokens are OCR garbage (or not words at all); they still match exactly but skip fuzzy search.
    static let maxFuzzyLength = 40

    // Vocabulary: word id → characters, document frequency, IDF.
    let vocabulary: [String: Int32]
    let wordChars: [UInt32]
    let wordStart: [Int32]
    let fuzzyWord: [Bool]
    let idf: [Float]
    let df: [Int32]
    // Character trigrams of fuzzy-matchable words → word ids.
    let trigramIds: [UInt64: Int32]
    let trigramStart: [Int32]
    let trigramWords: [Int32]
    // Per entry: tokens (word id, field, weight) in CSR layout, field weight totals.
    let tokenStart: [Int32]
    let tokenWord: [Int32]
    let tokenField: [UInt8]
    let tokenWeight: [Float]
    let fieldTotal: [Float]
    /// Same value ⇔ same normalized main title + authors; lets the margin ignore duplicate editions.
    let workKey: [Int32]
    // Word id → entries containing it.
    let postingStart: [Int32]
    let postingEntries: [Int32]
    // Per entry: the call number's normalized words run together ("75goygud"), CSR layout.
    let tagChars: [UInt32]
    let tagStart: [Int32]
    /// Call numbers of the catalogue by their words run together ("75sor" → "75(sor)"), to recognise one the
    /// reading shows split into words ("75 (Sor)", "91 (026) (46.41)Gil").
    let spacedCallNumbers: [String: [String]]

    private let scratchPool = ScratchPool()

    public init(_ catalog: Catalog, ranking: CatalogRanking = .standard, calibration: CatalogCalibration = .standard) {
        self.catalog = catalog
        self.calibration = calibration
        self.ranking = ranking
        let built = IndexBuilder(catalog.entries)
        vocabulary = built.vocabulary
        wordChars = built.wordChars
        wordStart = built.wordStart
        fuzzyWord = built.fuzzyWord
        idf = built.idf
        df = built.df
        trigramIds = built.trigramIds
        trigramStart = built.trigramStart
        trigramWords = built.trigramWords
        tokenStart = built.tokenStart
        tokenWord = built.tokenWord
        tokenField = built.tokenField
        tokenWeight = built.tokenWeight
        fieldTotal = built.fieldTotal
        workKey = built.workKey
        postingStart = built.postingStart
        postingEntries = built.postingEntries
        tagChars = built.tagChars
        tagStart = built.tagStart
        spacedCallNumbers = built.spacedCallNumbers
    }

    /// The best `top` entries for one reading, best first, with calibrated scores.
    public func match(_ query: String, top: Int = 5) -> [CatalogMatch] {
        guard top > 0, !catalog.entries.isEmpty else { return [] }
        // Scratch arrays are as long as the vocabulary; reuse them instead of zeroing fresh ones per query.
        var scratch = scratchPool.take() ?? QueryScratch(words: wordStart.count - 1, entries: catalog.entries.count)
        let result = match(query, top: top, scratch: &scratch)
        scratchPool.put(scratch)
        return result
    }

    /// The best entry when it is safe to take it as the book (score at or above the calibration's threshold);
    /// nil means "keep the reading as read and offer `match(_:top:)` candidates in review".
    public func accepted(_ query: String) -> CatalogMatch? {
        guard let best = match(query, top: 1).first, best.score >= calibration.acceptThreshold else { return nil }
        return best
    }

    func match(_ query: String, top: Int, scratch s: inout QueryScratch) -> [CatalogMatch] {
        let q = queryTokens(query)
        guard !q.tokens.isEmpty else { return [] }
        s.setRunTogether(CatalogText.words(query))
        s.parts = q.parts
        lookUpWords(q.tokens, &s)
        for (_, whole) in q.parts { s.queryWeight[whole] = 0 }
        let candidates = proposeCandidates(&s)
        var ranked = candidates.map { e in (e, features(entry: e, qCount: q.tokens.count, &s)) }
        resetWords(&s)
        ranked.sort { $0.1.raw > $1.1.raw || ($0.1.raw == $1.1.raw && $0.0 < $1.0) }

        // Margin and softmax share against candidates that are different works (editions of one book do not
        // compete with each other).
        let keep = min(ranked.count, max(top, 1))
        let best = ranked.first?.1.raw ?? 0
        var out: [CatalogMatch] = []
        out.reserveCapacity(keep)
        for i in 0..<keep {
            var f = ranked[i].1
            let key = workKey[ranked[i].0]
            var rival: Double? = nil
            var others = 0.0
            for j in 0..<ranked.count where j != i && workKey[ranked[j].0] != key {
                if rival == nil { rival = ranked[j].1.raw }
                others += exp(ranked[j].1.raw - best)
            }
            f.margin = f.raw - (rival ?? 0)
            let mine = exp(f.raw - best)
            f.share = mine / (mine + others)
            let e = ranked[i].0
            // A lower-ranked candidate is never shown as more likely than the one above it.
            let score = min(calibration.probability(f), out.last?.score ?? 1)
            out.append(CatalogMatch(entry: catalog.entries[e], entryIndex: e, score: score, features: f))
        }
        return out
    }

    /// Reading → distinct tokens: normalized words, then call numbers, both as written ("1(Fin)") and as the
    /// catalogue's call numbers whose words the reading shows apart ("75 (Sor)" → "75(sor)"). A call number is
    /// one more way to read its words, not more words: `parts` pairs each word with the call number it is part
    /// of, so explaining the call number explains its words and the call number itself weighs nothing.
    /// A spine holds a few dozen words; past `maxQueryTokens` it is not a spine reading and is cut short rather
    /// than slowing the match.
    func queryTokens(_ query: String) -> (tokens: [String], parts: [(part: Int, whole: Int)]) {
        var position: [String: Int] = [:]
        var tokens: [String] = []
        var parts: [(part: Int, whole: Int)] = []
        func add(_ t: String) -> Int? {
            if let at = position[t] { return at }
            guard tokens.count < Self.maxQueryTokens else { return nil }
            position[t] = tokens.count
            tokens.append(t)
            return tokens.count - 1
        }
        let words = CatalogText.words(query)
        let wordAt = words.map(add)
        for call in CatalogText.callNumbers(query) {
            guard position[call] == nil, let whole = add(call) else { continue }
            for w in CatalogText.words(call) { if let part = position[w] { parts.append((part, whole)) } }
        }
        for i in words.indices where words[i].contains(where: \.isNumber) {
            var key = words[i]
            for j in (i + 1)..<min(words.count, i + Self.maxCallNumberWords) {
                key += words[j]
                for call in spacedCallNumbers[key] ?? [] where position[call] == nil {
                    guard let whole = add(call) else { continue }
                    for k in i...j { if let part = wordAt[k] { parts.append((part, whole)) } }
                }
            }
        }
        return (tokens, parts)
    }

    /// Fills `s.wordSim` with the best similarity of each vocabulary word to any query token.
    private func lookUpWords(_ tokens: [String], _ s: inout QueryScratch) {
        s.queryWeight = [Float](repeating: 0, count: tokens.count)
        for (qi, token) in tokens.enumerated() {
            if let id = vocabulary[token] {
                s.offer(Int(id), 1, Int16(qi))
            } else {
                splitRunTogether(token, Int16(qi), &s)
            }
            let chars = Array(token.unicodeScalars.map(\.value))
            guard chars.count <= Self.maxFuzzyLength, CatalogText.isFuzzyMatchable(token, length: chars.count) else { continue }
            fuzzyLookUp(chars, Int16(qi), &s)
        }
        for w in s.touchedWords {
            if s.wholeSim[w] > 0 { s.queryWeight[Int(s.wordQuery[w])] = max(s.queryWeight[Int(s.wordQuery[w])], idf[w]) }
            if s.pieceShare[w] > 0 { s.queryWeight[Int(s.pieceQuery[w])] = max(s.queryWeight[Int(s.pieceQuery[w])], idf[w]) }
        }
    }

    /// "lietree" → "lie" + "tree": OCR drops the space between words often enough to try every cut. Each piece
    /// explains only its share of the token's letters, so "la" alone does not explain "lagalera" (a publisher's
    /// name) while an entry with both "lie" and "tree" explains all of "lietree".
    private func splitRunTogether(_ token: String, _ qi: Int16, _ s: inout QueryScratch) {
        let chars = Array(token)
        guard chars.count >= 5, chars.count <= 30 else { return }
        let n = Float(chars.count)
        for k in 2...(chars.count - 2) {
            guard let left = vocabulary[String(chars[..<k])], let right = vocabulary[String(chars[k...])] else { continue }
            s.offerPiece(Int(left), qi, share: Float(k) / n)
            s.offerPiece(Int(right), qi, share: Float(chars.count - k) / n)
        }
    }

    private func fuzzyLookUp(_ chars: [UInt32], _ qi: Int16, _ s: inout QueryScratch) {
        let grams = Self.trigrams(chars)
        var touched: [Int32] = []
        for g in grams {
            guard let t = trigramIds[g] else { continue }
            for k in Int(trigramStart[Int(t)])..<Int(trigramStart[Int(t) + 1]) {
                let w = Int(trigramWords[k])
                if s.gramCount[w] == 0 { touched.append(Int32(w)) }
                s.gramCount[w] &+= 1
            }
        }
        let nq = grams.count
        chars.withUnsafeBufferPointer { q in
            wordChars.withUnsafeBufferPointer { all in
                for w32 in touched {
                    let w = Int(w32)
                    let shared = Int(s.gramCount[w])
                    s.gramCount[w] = 0
                    let start = Int(wordStart[w]), end = Int(wordStart[w + 1])
                    let nw = end - start
                    // Cheap filter: enough shared trigrams relative to the shorter word, or, for a short word of the
                    // same length, all but the three trigrams one misread character breaks ("708.5" → "778.5").
                    let shorter = min(nq, nw)
                    guard shared >= 2, Float(shared) >= 0.45 * Float(shorter) || (nq == nw && shared >= nq - 3) else { continue }
                    let sim = WordSimilarity.similarity(q, UnsafeBufferPointer(rebasing: all[start..<end]), scratch: &s.dp)
                    if sim >= Self.minFuzzySimilarity { s.offer(w, sim, qi) }
                }
            }
        }
    }

    private func proposeCandidates(_ s: inout QueryScratch) -> [Int] {
        let n = catalog.entries.count
        let stopDF = Int32(max(2, Float(n) * Self.stopShare))
        var touchedEntries: [Int32] = []
        touchedEntries.reserveCapacity(2048)
        var usedStop = false
        for pass in 0..<2 {
            for w in s.touchedWords {
                let frequent = df[w] > stopDF
                if frequent != (pass == 1) { continue }
                if frequent { usedStop = true }
                let add = idf[w] * s.wordSim[w]
                for k in Int(postingStart[w])..<Int(postingStart[w + 1]) {
                    let e = Int(postingEntries[k])
                    if s.accumulator[e] == 0 { touchedEntries.append(Int32(e)) }
                    s.accumulator[e] += add
                }
            }
            if !touchedEntries.isEmpty { break }
        }
        _ = usedStop
        // Keep the best `candidateCount` by accumulated weight (min-heap).
        var heap = TopK(capacity: Self.candidateCount)
        for e32 in touchedEntries {
            let e = Int(e32)
            heap.insert(s.accumulator[e], e)
            s.accumulator[e] = 0
        }
        return heap.items
    }

    private func features(entry e: Int, qCount: Int, _ s: inout QueryScratch) -> MatchFeatures {
        var num = (0 as Float, 0 as Float, 0 as Float, 0 as Float, 0 as Float)
        var lastTitleQuery = -1, titlePairs = 0, reversedPairs = 0
        if s.explained.count < qCount {
            s.explained = [Float](repeating: 0, count: qCount)
            s.explainedByTitle = [Float](repeating: 0, count: qCount)
            s.pieces = [Float](repeating: 0, count: qCount)
            s.piecesByTitle = [Float](repeating: 0, count: qCount)
        }
        for i in 0..<qCount { s.explained[i] = 0; s.explainedByTitle[i] = 0; s.pieces[i] = 0; s.piecesByTitle[i] = 0 }
        s.piecesSeen.removeAll(keepingCapacity: true)
        s.piecesSeenByTitle.removeAll(keepingCapacity: true)
        for p in Int(tokenStart[e])..<Int(tokenStart[e + 1]) {
            let w = Int(tokenWord[p])
            let sim = s.wordSim[w]
            guard sim > 0 else { continue }
            let v = tokenWeight[p] * sim
            switch tokenField[p] {
            case 0: num.0 += v
            case 1: num.1 += v
            case 2: num.2 += v
            case 3: num.3 += v
            default: num.4 += v
            }
            let whole = s.wholeSim[w], share = s.pieceShare[w]
            let qi = Int(whole > 0 ? s.wordQuery[w] : s.pieceQuery[w])
            if whole > 0 {
                let wq = Int(s.wordQuery[w])
                if whole > s.explained[wq] { s.explained[wq] = whole }
                if tokenField[p] <= 1 && whole > s.explainedByTitle[wq] { s.explainedByTitle[wq] = whole }
            }
            if share > 0 {
                // A piece of a run-together token: pieces add up (each counted once per entry).
                let pq = Int(s.pieceQuery[w])
                if !s.piecesSeen.contains(Int32(w)) { s.piecesSeen.append(Int32(w)); s.pieces[pq] += Self.splitSimilarity * share }
                if tokenField[p] <= 1 && !s.piecesSeenByTitle.contains(Int32(w)) {
                    s.piecesSeenByTitle.append(Int32(w))
                    s.piecesByTitle[pq] += Self.splitSimilarity * share
                }
            }
            if tokenField[p] == 0 {
                if lastTitleQuery >= 0 {
                    titlePairs += 1
                    if qi < lastTitleQuery { reversedPairs += 1 }
                }
                lastTitleQuery = qi
            }
        }
        let base = e * Self.fieldCount
        func ratio(_ x: Float, _ f: Int) -> Double { fieldTotal[base + f] > 0 ? Double(min(1, x / fieldTotal[base + f])) : 0 }
        var qNum: Float = 0, qDen: Float = 0, qTitle: Float = 0
        for (part, whole) in s.parts where s.explained[whole] > s.explained[part] { s.explained[part] = s.explained[whole] }
        for i in 0..<qCount {
            qNum += s.queryWeight[i] * max(s.explained[i], min(Self.splitSimilarity, s.pieces[i]))
            qTitle += s.queryWeight[i] * max(s.explainedByTitle[i], min(Self.splitSimilarity, s.piecesByTitle[i]))
            qDen += s.queryWeight[i]
        }
        var f = MatchFeatures(
            title: ratio(num.0, 0), subtitle: ratio(num.1, 1),
            author: ratio(num.2, 2), hasAuthor: fieldTotal[base + 2] > 0,
            tag: ratio(num.3, 3), hasTag: fieldTotal[base + 3] > 0,
            tagExact: tagAppears(e, s),
            disorder: titlePairs > 0 ? Double(reversedPairs) / Double(titlePairs) : 0,
            query: qDen > 0 ? Double(qNum / qDen) : 0, raw: 0, margin: 0)
        f.series = ratio(num.4, 4)
        f.queryByTitle = qDen > 0 ? Double(qTitle / qDen) : 0
        f.hasSubtitle = fieldTotal[base + 1] > 0
        f.raw = ranking.score(f)
        return f
    }

    /// Whether the entry's call number occurs in the reading starting and ending on word boundaries.
    private func tagAppears(_ e: Int, _ s: QueryScratch) -> Bool {
        let start = Int(tagStart[e]), len = Int(tagStart[e + 1]) - start
        guard len >= 3, len <= s.runTogether.count else { return false }
        for i in 0...(s.runTogether.count - len) where s.wordBegins[i] && s.wordEnds[i + len - 1] {
            var same = true
            for k in 0..<len where s.runTogether[i + k] != tagChars[start + k] { same = false; break }
            if same { return true }
        }
        return false
    }

    private func resetWords(_ s: inout QueryScratch) {
        for w in s.touchedWords { s.wordSim[w] = 0; s.wholeSim[w] = 0; s.wordQuery[w] = 0; s.pieceShare[w] = 0; s.pieceQuery[w] = 0 }
        s.touchedWords.removeAll(keepingCapacity: true)
    }

    /// Padded trigrams ("$ja", "jav", ..., "er$"), distinct, packed 21 bits per scalar.
    static func trigrams(_ chars: [UInt32]) -> [UInt64] {
        let pad: UInt32 = 0x24
        var padded = [pad]
        padded.append(contentsOf: chars)
        padded.append(pad)
        var out: [UInt64] = []
        out.reserveCapacity(padded.count)
        for i in 0..<(padded.count - 2) {
            let g = UInt64(padded[i]) << 42 | UInt64(padded[i + 1]) << 21 | UInt64(padded[i + 2])
            if !out.contains(g) { out.append(g) }
        }
        return out
    }
}

/// Idle query scratch buffers, shared by concurrent callers of one index.
final class ScratchPool: @unchecked Sendable {
    // Guarded by `lock`; `@unchecked` because NSLock-protected state is invisible to the compiler.
    private let lock = NSLock()
    private var idle: [QueryScratch] = []

    func take() -> QueryScratch? {
        lock.lock()
        defer { lock.unlock() }
        return idle.popLast()
    }

    func put(_ scratch: QueryScratch) {
        lock.lock()
        defer { lock.unlock() }
        if idle.count < 8 { idle.append(scratch) }
    }
}

/// Per-query working memory, sized to the index once and cleaned after each query.
struct QueryScratch {
    var wordSim: [Float]
    var wordQuery: [Int16]
    /// Similarity as a match for a whole query token (`wordSim` also counts pieces of run-together tokens).
    var wholeSim: [Float]
    /// As a piece of a run-together query token (at `splitSimilarity`): its share of the token's letters, and
    /// which token (0 when no piece).
    var pieceShare: [Float]
    var pieceQuery: [Int16]
    var gramCount: [UInt16]
    var touchedWords: [Int] = []
    var accumulator: [Float]
    var queryWeight: [Float] = []
    var explained: [Float] = []
    var explainedByTitle: [Float] = []
    /// (word, call number it belongs to) query-token pairs, from `CatalogIndex.queryTokens`.
    var parts: [(part: Int, whole: Int)] = []
    // Per query token, for one entry: summed credit of its run-together pieces, and which pieces were counted.
    var pieces: [Float] = []
    var piecesByTitle: [Float] = []
    var piecesSeen: [Int32] = []
    var piecesSeenByTitle: [Int32] = []
    var dp: [Int32] = [Int32](repeating: 0, count: 64)
    /// The reading's words run together, with word boundaries, for call-number lookup.
    var runTogether: [UInt32] = []
    var wordBegins: [Bool] = []
    var wordEnds: [Bool] = []

    mutating func setRunTogether(_ words: [String]) {
        runTogether.removeAll(keepingCapacity: true)
        wordBegins.removeAll(keepingCapacity: true)
        wordEnds.removeAll(keepingCapacity: true)
        for w in words {
            let chars = w.unicodeScalars
            var k = 0
            let n = chars.count
            for c in chars {
                runTogether.append(c.value)
                wordBegins.append(k == 0)
                wordEnds.append(k == n - 1)
                k += 1
            }
        }
    }

    init(words: Int, entries: Int) {
        wordSim = [Float](repeating: 0, count: words)
        wordQuery = [Int16](repeating: 0, count: words)
        wholeSim = [Float](repeating: 0, count: words)
        pieceShare = [Float](repeating: 0, count: words)
        pieceQuery = [Int16](repeating: 0, count: words)
        gramCount = [UInt16](repeating: 0, count: words)
        accumulator = [Float](repeating: 0, count: entries)
    }

    mutating func offer(_ w: Int, _ sim: Float, _ qi: Int16) {
        if wordSim[w] == 0 { touchedWords.append(w) }
        wordSim[w] = max(wordSim[w], sim)
        if sim > wholeSim[w] { wholeSim[w] = sim; wordQuery[w] = qi }
    }

    mutating func offerPiece(_ w: Int, _ qi: Int16, share: Float) {
        if wordSim[w] == 0 { touchedWords.append(w) }
        wordSim[w] = max(wordSim[w], CatalogIndex.splitSimilarity)
        if share > pieceShare[w] { pieceShare[w] = share; pieceQuery[w] = qi }
    }
}

/// The k largest (value, id) pairs seen, via a min-heap on value.
struct TopK {
    let capacity: Int
    private var values: [Float] = []
    private var ids: [Int] = []

    init(capacity: Int) {
        self.capacity = capacity
        values.reserveCapacity(capacity)
        ids.reserveCapacity(capacity)
    }

    var items: [Int] { ids }

    mutating func insert(_ v: Float, _ id: Int) {
        if values.count < capacity {
            values.append(v); ids.append(id)
            var i = values.count - 1
            while i > 0 {
                let p = (i - 1) / 2
                if values[p] <= values[i] { break }
                values.swapAt(p, i); ids.swapAt(p, i); i = p
            }
        } else if v > values[0] {
            values[0] = v; ids[0] = id
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < values.count && values[l] < values[m] { m = l }
                if r < values.count && values[r] < values[m] { m = r }
                if m == i { break }
                values.swapAt(m, i); ids.swapAt(m, i); i = m
            }
        }
    }
}
