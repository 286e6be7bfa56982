import Foundation

/// Builds the flat arrays `CatalogIndex` searches; runs once per catalogue.
struct IndexBuilder {
    var vocabulary: [String: Int32] = [:]
    var wordChars: [UInt32] = []
    var wordStart: [Int32] = [0]
    var fuzzyWord: [Bool] = []
    var idf: [Float] = []
    var df: [Int32] = []
    var trigramIds: [UInt64: Int32] = [:]
    var trigramStart: [Int32] = []
    var trigramWords: [Int32] = []
    var tokenStart: [Int32] = [0]
    var tokenWord: [Int32] = []
    var tokenField: [UInt8] = []
    var tokenWeight: [Float] = []
    var fieldTotal: [Float] = []
    var workKey: [Int32] = []
    var postingStart: [Int32] = []
    var postingEntries: [Int32] = []
    var tagChars: [UInt32] = []
    var tagStart: [Int32] = [0]
    var spacedCallNumbers: [String: [String]] = [:]

    /// How much each kind of word counts inside its field: a spine shows the surname far more often than
    /// the given name, and co-authors rarely.
    static let givenNameFactor: Float = 0.5
    static let coAuthorFactor: Float = 0.3

    init(_ entries: [CatalogEntry]) {
        var factors: [Float] = []
        // Authors, call-number prefixes and series repeat across a catalogue; normalize each text once.
        var authorCache: [String: ([String], [String])] = [:]
        var tagCache: [String: [String]] = [:]
        var wordCache: [String: [String]] = [:]
        func cached<T>(_ text: String, in cache: inout [String: T], _ make: (String) -> T) -> T {
            if let hit = cache[text] { return hit }
            let value = make(text)
            cache[text] = value
            return value
        }
        var works: [String: Int32] = [:]
        for entry in entries {
            var seen: [Int64: Int] = [:]  // (word, field) → position in this entry's tokens
            func add(_ words: [String], _ field: CatalogIndex.Field, _ factor: Float) {
                for w in words {
                    let id = wordID(w)
                    let key = Int64(id) << 3 | Int64(field.rawValue)
                    if let at = seen[key] {
                        factors[at] = max(factors[at], factor)
                    } else {
                        seen[key] = factors.count
                        tokenWord.append(id)
                        tokenField.append(UInt8(field.rawValue))
                        factors.append(factor)
                    }
                }
            }
            let (main, subtitle) = CatalogText.splitTitle(entry.title)
            let mainWords = CatalogText.words(main)
            add(mainWords, .title, 1)
            add(CatalogText.words(subtitle), .subtitle, 1)
            for (k, author) in entry.authors.enumerated() {
                let (surname, given) = cached(author, in: &authorCache) { CatalogText.authorParts($0) }
                let f: Float = k == 0 ? 1 : Self.coAuthorFactor
                add(surname, .author, f)
                add(given, .author, f * Self.givenNameFactor)
            }
            let tagWords = cached(entry.tag, in: &tagCache) { CatalogText.tagTokens($0) }
            add(tagWords, .tag, 1)
            for call in tagWords where call.contains(where: { !CatalogText.isAlnum($0) }) {
                let key = CatalogText.words(call).joined()
                if spacedCallNumbers[key]?.contains(call) != true { spacedCallNumbers[key, default: []].append(call) }
            }
            add(cached(entry.series, in: &wordCache) { CatalogText.words($0) }, .series, 1)
            tokenStart.append(Int32(tokenWord.count))
            for w in cached(entry.tag, in: &wordCache, CatalogText.words) { tagChars += w.unicodeScalars.map(\.value) }
            tagStart.append(Int32(tagChars.count))

            let key = mainWords.joined(separator: " ") + "|" +
                (entry.authors.first.map { cached($0, in: &wordCache, CatalogText.words).joined(separator: " ") } ?? "")
            if let k = works[key] { workKey.append(k) } else {
                let k = Int32(works.count)
                works[key] = k
                workKey.append(k)
            }
        }

        // Document frequency over entries (a word counted once per entry), then IDF.
        let nWords = wordStart.count - 1
        let nEntries = entries.count
        df = [Int32](repeating: 0, count: nWords)
        var lastEntry = [Int32](repeating: -1, count: nWords)
        var postingCount = [Int32](repeating: 0, count: nWords)
        for e in 0..<nEntries {
            for p in Int(tokenStart[e])..<Int(tokenStart[e + 1]) {
                let w = Int(tokenWord[p])
                if lastEntry[w] != Int32(e) {
                    lastEntry[w] = Int32(e)
                    df[w] += 1
                    if tokenField[p] != UInt8(CatalogIndex.Field.series.rawValue) { postingCount[w] += 1 }
                }
            }
        }
        let n = Float(max(1, nEntries))
        idf = df.map { log(1 + n / Float(max(1, $0))) }

        // Token weights and per-field totals.
        tokenWeight = zip(tokenWord, factors).map { idf[Int($0)] * $1 }
        fieldTotal = [Float](repeating: 0, count: nEntries * CatalogIndex.fieldCount)
        for e in 0..<nEntries {
            for p in Int(tokenStart[e])..<Int(tokenStart[e + 1]) {
                fieldTotal[e * CatalogIndex.fieldCount + Int(tokenField[p])] += tokenWeight[p]
            }
        }

        // Postings (word → entries), series words excluded: a series name proposes too many unrelated books.
        postingStart = [Int32](repeating: 0, count: nWords + 1)
        for w in 0..<nWords { postingStart[w + 1] = postingStart[w] + postingCount[w] }
        postingEntries = [Int32](repeating: 0, count: Int(postingStart[nWords]))
        var fill = Array(postingStart.dropLast())
        for i in 0..<nWords { lastEntry[i] = -1 }
        for e in 0..<nEntries {
            for p in Int(tokenStart[e])..<Int(tokenStart[e + 1]) {
                let w = Int(tokenWord[p])
                guard tokenField[p] != UInt8(CatalogIndex.Field.series.rawValue), lastEntry[w] != Int32(e) else { continue }
                lastEntry[w] = Int32(e)
                postingEntries[Int(fill[w])] = Int32(e)
                fill[w] += 1
            }
        }

        // Trigrams of the words fuzzy matching may reach (letters only, long enough).
        var gramLists: [[Int32]] = []
        for w in 0..<nWords where fuzzyWord[w] {
            let chars = Array(wordChars[Int(wordStart[w])..<Int(wordStart[w + 1])])
            for g in CatalogIndex.trigrams(chars) {
                if let t = trigramIds[g] { gramLists[Int(t)].append(Int32(w)) } else {
                    trigramIds[g] = Int32(gramLists.count)
                    gramLists.append([Int32(w)])
                }
            }
        }
        trigramStart = [0]
        for list in gramLists {
            trigramWords += list
            trigramStart.append(Int32(trigramWords.count))
        }
    }

    private mutating func wordID(_ w: String) -> Int32 {
        if let id = vocabulary[w] { return id }
        let id = Int32(vocabulary.count)
        vocabulary[w] = id
        let scalars = w.unicodeScalars.map(\.value)
        wordChars += scalars
        wordStart.append(Int32(wordChars.count))
        fuzzyWord.append(CatalogText.isFuzzyMatchable(w, length: scalars.count))
        return id
    }
}
