import Foundation

/// Splits what a reader read on a spine into title, authors and the rest. Spines print the title biggest
/// and the author as a name, in either order, with publisher marks and call numbers around them: the lines
/// are cut into segments here (gaps, separators, joined words) and `SpineTagger` labels their runs from
/// words and layout. Everything stays in the raw text for the catalogue matcher and the review.
enum TitleSplitter {
    /// A run of words printed together: a line, or part of a line cut at a wide gap.
    struct Segment: Equatable {
        var words: [OCRWord]
        /// The segment ended at a separator mark ("/", "·", "•"), not at a gap or the line's end.
        var endsAtMark = false
        /// One name of a list of names set apart by marks ("Döpfner· Schürmann· Lehmkuhl").
        var listed = false
        /// The words after such a list on the last name's line: the title.
        var afterList = false
        var text: String { words.map(\.text).joined(separator: " ") }
        /// Median word height: the printed size.
        var size: Double {
            let h = words.map { Double($0.height) }.sorted()
            return h.isEmpty ? 0 : h[h.count / 2]
        }
        var confidence: Double {
            let chars = words.reduce(0) { $0 + $1.text.count }
            guard chars > 0 else { return 0 }
            return words.reduce(0) { $0 + $1.confidence * Double($1.text.count) } / Double(chars) / 100
        }
    }

    struct Split: Equatable {
        var title: String?
        var authors: [String]
        var confidence: Double
    }

    /// Segments from lines: a gap wider than 1.5 text heights separates title and author on one spine line.
    static func segments(_ lines: [OCRLine]) -> [Segment] {
        var out: [Segment] = []
        for var line in lines {
            line.words = splitAtHyphenedName(splitJoinedNames(line.words.flatMap(splitAtSeparators).flatMap(splitAtColon)
                .flatMap(splitJoinedInitials)))
            var current: [OCRWord] = []
            for var word in line.words {
                // "Padura/ EL HOMBRE...": a slash separates author and title as a gap would.
                let slashEnds = word.text.count > 1 && word.text.hasSuffix("/")
                if word.text == "/" {
                    if !current.isEmpty { out.append(Segment(words: current, endsAtMark: true)) }
                    current = []
                    continue
                }
                if slashEnds { word.text.removeLast() }
                defer {
                    if slashEnds {
                        out.append(Segment(words: current, endsAtMark: true))
                        current = []
                    }
                }
                if let last = current.last {
                    let gap = word.left - last.right
                    if Double(gap) > 1.5 * Double(max(last.height, word.height, 1)) {
                        out.append(Segment(words: current))
                        current = []
                    }
                }
                current.append(word)
            }
            if !current.isEmpty { out.append(Segment(words: current)) }
        }
        return out
    }

    /// The tagger's runs of a listed name are that one name, an author's; the words after the list on its
    /// line are the title's.
    static func listedNames(_ runs: [SpineTagger.Run], of segments: [Segment]) -> [SpineTagger.Run] {
        let names = segments.filter(\.listed).map(\.words)
        guard !names.isEmpty else { return runs }
        let titled = segments.filter(\.afterList).flatMap(\.words)
        var out: [SpineTagger.Run] = []
        var from: Int? = nil
        for var run in runs {
            if run.words.allSatisfy(titled.contains) { run.label = .title }
            let name = names.firstIndex { words in run.words.allSatisfy(words.contains) }
            if let name, name == from, var last = out.popLast() {
                last.words += run.words
                out.append(last)
                continue
            }
            from = name
            if name != nil {
                run.label = .author
                run.listed = true
            }
            out.append(run)
        }
        return out
    }

    /// "Döpfner· Schürmann· Lehmkuhl Wackelpeter Trotzkopf": authors listed with marks between them, the title
    /// after the last name on its line. A mark that ends a name and starts another is what lists people; a
    /// mark between author and title ("Padura/ EL HOMBRE") has one name before it. Each segment ended by a
    /// mark that holds a name (one to four words that can be a name's: capitalised, no function word, none the
    /// lexicon knows only as a word), followed by another such name, is one listed name; the last name takes
    /// as many words as the first (a list prints its names alike), and the words after it on its segment are
    /// cut off for the title. Lists of one name are no list.
    static func namesListedByMarks(_ segments: [Segment], lexicon: SpineLexicon = .shipped) -> [Segment] {
        func nameWord(_ w: OCRWord) -> Bool {
            let kinds = lexicon.kinds(w.text.trimmingCharacters(in: .punctuationCharacters))
            return isNameWord(w) && !isArticle(w) && !kinds.contains(.function)
                && (kinds.isEmpty || kinds.contains(.given) || kinds.contains(.surname))
        }
        func name(_ words: ArraySlice<OCRWord>) -> Bool { (1...4).contains(words.count) && words.allSatisfy(nameWord) }
        var out = segments
        var i = 0
        while i < out.count {
            defer { i += 1 }
            guard out[i].endsAtMark, name(out[i].words[...]) else { continue }
            let n = out[i].words.count
            var j = i + 1
            while j < out.count, out[j - 1].endsAtMark, out[j].endsAtMark, name(out[j].words[...]) { j += 1 }
            // out[j] holds the last name, alone or with the title after it.
            // One-word names need three to be a list: "Hesse/ Steppenwolf Roman" is a name and a title. Longer
            // names need a given name the lexicon knows to start the first: "Slow Horses/ Mick Herron" is a title
            // and a name.
            let given = out[i].words[0].text.trimmingCharacters(in: .punctuationCharacters)
            guard j < out.count, out[j - 1].endsAtMark, out[j].words.count >= n, name(out[j].words.prefix(n)),
                  n == 1 ? j - i >= 2 : lexicon.isGiven(given) && !lexicon.has(given, .common) else { continue }
            for k in i..<j { out[k].listed = true }
            if out[j].words.count > n {
                let rest = Segment(words: Array(out[j].words.dropFirst(n)), endsAtMark: out[j].endsAtMark, afterList: true)
                out[j] = Segment(words: Array(out[j].words.prefix(n)), listed: true)
                out.insert(rest, at: j + 1)
            } else {
                out[j].listed = true
            }
            i = j
        }
        return out
    }

    /// "Arundhati Der Gott der kleinen Dinge": a name printed before the title on its line, the title starting
    /// with an article. A name does not go on into a capitalised article (after "van" or "von" it is a
    /// particle: "Ernest van der Kwast"; "Jude the Obscure" is a title), so a line in mixed case that starts with
    /// a given name the lexicon knows, no word of a title, and up to two more name words before an article with
    /// a capital and a word after it is cut before the article; so is a surname alone ("Schlink Der Vorleser"), one
    /// word the lexicon knows as a surname and as nothing else. In capitals nothing tells "ALEXANDER THE GREAT"
    /// from a name and a title.
    static func nameBeforeArticle(_ segments: [Segment], lexicon: SpineLexicon = .shipped) -> [Segment] {
        // "Marie sizun La gouvernante suédoise": the reader lost a surname's capital; a lower-case word no list
        // holds, letters only, still ends the name.
        func misreadSurname(_ w: OCRWord) -> Bool {
            w.text.count >= 3 && w.text.allSatisfy(\.isLetter) && lexicon.kinds(w.text).isEmpty
        }
        var out: [Segment] = []
        for segment in segments {
            let words = segment.words
            guard !segment.listed, segment.text.contains(where: \.isLowercase),
                  let a = words.indices.dropFirst().prefix(3).first(where: { isArticle(words[$0]) && words[$0].text.first!.isUppercase }),
                  a + 1 < words.count,
                  words[..<a].indices.allSatisfy({ isNameWord(words[$0]) || $0 > 0 && misreadSurname(words[$0]) }),
                  !particles.contains(words[a - 1].text.lowercased()),
                  lexicon.isGiven(words[0].text) || a == 1 && lexicon.kinds(words[0].text) == .surname,
                  !lexicon.has(words[0].text, .common), !lexicon.has(words[0].text, .function)
            else {
                out.append(segment)
                continue
            }
            out.append(Segment(words: Array(words[..<a])))
            var rest = segment
            rest.words = Array(words[a...])
            out.append(rest)
        }
        return out
    }

    /// Separator marks between author and title ("BROWN/SNEAKY", "Paasilinna•El"): the word is cut there
    /// and each piece but the last ends with "/", which `segments` treats as a segment end.
    static func splitAtSeparators(_ word: OCRWord) -> [OCRWord] {
        let marks: Set<Character> = ["/", "·", "•", "|"]
        guard word.text.count > 1, word.text.contains(where: { marks.contains($0) }) else { return [word] }
        let pieces = word.text.split(omittingEmptySubsequences: false, whereSeparator: { marks.contains($0) }).map(String.init)
        let total = max(1, word.text.count)
        var out: [OCRWord] = []
        var offset = 0
        for (k, piece) in pieces.enumerated() {
            defer { offset += piece.count + 1 }
            guard !piece.isEmpty else {
                if k > 0, !out.isEmpty, !out[out.count - 1].text.hasSuffix("/") { out[out.count - 1].text += "/" }
                continue
            }
            var w = word
            w.left = word.left + (word.right - word.left) * offset / total
            w.right = word.left + (word.right - word.left) * min(total, offset + piece.count) / total
            w.text = k < pieces.count - 1 ? piece + "/" : piece
            out.append(w)
        }
        return out
    }

    /// "Wild Trek-Jim Kjelgaard": a dash between title and author read as a hyphen, the space around it lost.
    /// A word whose part after its one hyphen is a known given name, and the part before none ("Anne-Marie",
    /// "Jean-Charles" stay whole), with a name word after it, is cut there and the segment ends before the name.
    static func splitAtHyphenedName(_ words: [OCRWord], lexicon: SpineLexicon = .shipped) -> [OCRWord] {
        var out: [OCRWord] = []
        for (i, word) in words.enumerated() {
            let parts = word.text.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, i + 1 < words.count, isNameWord(words[i + 1]), isNameWord(parts[1]),
                  parts[0].filter(\.isLetter).count >= 2, parts[1].count >= 3,
                  lexicon.isGiven(parts[1]), !lexicon.isGiven(parts[0]) else {
                out.append(word)
                continue
            }
            let cut = parts[0].count
            var before = piece(of: word, 0..<cut)
            before.text += "/"
            out += [before, piece(of: word, (cut + 1)..<word.text.count)]
        }
        return out
    }

    /// "Scheidegger:Mariannes": a colon between author and title with the space after it lost. The word is
    /// cut after the colon, which stays on the first piece; unlike a slash it does not end the segment, as a
    /// colon also ends a title before its subtitle: the tagger weighs it.
    static func splitAtColon(_ word: OCRWord) -> [OCRWord] {
        let chars = Array(word.text)
        guard let i = chars.firstIndex(of: ":"), i >= 2, i < chars.count - 2,
              chars[(i + 1)...].contains(where: \.isLetter), chars[..<i].contains(where: \.isLetter)
        else { return [word] }
        return [piece(of: word, 0..<(i + 1))] + splitAtColon(piece(of: word, (i + 1)..<chars.count))
    }

    /// The letters `range` of `word` as a word of their own, its box the same share of the word's width.
    static func piece(of word: OCRWord, _ range: Range<Int>) -> OCRWord {
        let chars = Array(word.text), width = word.right - word.left
        var piece = word
        piece.text = String(chars[range])
        piece.left = word.left + width * range.lowerBound / chars.count
        piece.right = word.left + width * range.upperBound / chars.count
        return piece
    }

    /// "J.R.Moehringer": OCR lost the spaces after a name's initials, which leaves one word no name list
    /// holds. The word is cut after each initial's full stop when a capitalised word of three letters or
    /// more follows them.
    static func splitJoinedInitials(_ word: OCRWord) -> [OCRWord] {
        let chars = Array(word.text)
        var i = 0
        while i + 1 < chars.count, chars[i].isUppercase, chars[i + 1] == "." { i += 2 }
        guard i > 0, chars.count - i >= 3, chars[i].isUppercase, chars[i...].allSatisfy(\.isLetter) else { return [word] }
        return stride(from: 0, to: i, by: 2).map { piece(of: word, $0..<($0 + 2)) } + [piece(of: word, i..<chars.count)]
    }

    /// `splitJoinedName` on each word of a line but one after a given name: "ADAM SILVERA" is a whole name
    /// already, not "ADAM SIL VERA" ("Sil" a given name, "Vera" a surname).
    static func splitJoinedNames(_ words: [OCRWord], lexicon: SpineLexicon = .shipped) -> [OCRWord] {
        words.indices.flatMap { i in
            i > 0 && isPlainGivenName(words[i - 1].text, lexicon: lexicon) ? [words[i]] : splitJoinedName(words[i], lexicon: lexicon)
        }
    }

    /// "UlrikeKeller-Knobelspies", "MICKHERRON": OCR lost the space after a given name; put it back so the
    /// name is seen. In capitals nothing marks where the name ends, so the rest must be a known surname and
    /// the whole not a word of its own.
    static func splitJoinedName(_ word: OCRWord, lexicon: SpineLexicon = .shipped) -> [OCRWord] {
        let chars = Array(word.text)
        guard chars.count >= 6, chars[0].isUppercase else { return [word] }
        let capitals = chars.allSatisfy { !$0.isLetter || $0.isUppercase }
        if capitals && !lexicon.kinds(word.text).isEmpty { return [word] }
        // "VCANDREWS": two initials without their full stops (two capitals no name starts with: no vowel, not a
        // name's "Mc" or "St") before a word the lists hold as a surname and nothing else ("SLASHER" stays whole).
        if capitals, chars[..<2].allSatisfy({ $0.isLetter && !"AEIOUY".contains($0) }), !["MC", "ST"].contains(String(chars[..<2])),
           lexicon.kinds(String(chars[2...])) == .surname {
            return [piece(of: word, 0..<2), piece(of: word, 2..<chars.count)]
        }
        for i in 3..<(chars.count - 2) {
            let given = String(chars[..<i]), surname = String(chars[i...])
            if capitals {
                // A given name that is also a word ("ELENA", "ROSE") only before a surname that is nothing else.
                guard surname.count >= 4, lexicon.has(given, .given), lexicon.has(surname, .surname),
                      !lexicon.has(given, .common) || lexicon.kinds(surname) == .surname else { continue }
            } else {
                guard chars[i].isUppercase && chars[i - 1].isLowercase && chars[i + 1].isLowercase, FirstNames.contains(given)
                else { continue }
            }
            return [piece(of: word, 0..<i), piece(of: word, i..<chars.count)]
        }
        return [word]
    }

    /// Title and authors of a reading: call-number labels and stray marks out, then `SpineTagger` labels the
    /// runs of each segment. What is left of a sticker once its marks are cut ("N 833 Par" to "Par") goes
    /// whole, or it would be taken for a short title. The title is the title runs in the largest print (a
    /// subtitle in smaller print stays out), in reading order; when nothing was labelled title, the run
    /// likeliest to be one. `footAtStart` says which end of the reading is the spine's foot, where
    /// publishers and stickers sit (nil: unknown).
    static func split(_ segments: [Segment], footAtStart: Bool? = nil, tagger: SpineTagger = .shipped,
                      lexicon: SpineLexicon = .shipped) -> Split {
        let cut = nameBeforeArticle(namesListedByMarks(segments, lexicon: lexicon), lexicon: lexicon)
        let joined = shortSurnamesJoined(cut, lexicon: lexicon)
        let shortTitle = twoLetterTitle(joined, lexicon: lexicon).map { [$0] }
        func dropped(_ words: [OCRWord], _ text: String) -> Bool { words.isEmpty || isNoise(text) && words != shortTitle }
        let cleaned = joined.compactMap { segment -> Segment? in
            var c = segment
            c.words = withoutLabels(segment.words)
            if dropped(c.words, c.text) { return nil }
            if c.words.count < segment.words.count && c.text.filter(\.isLetter).count <= 4 { return nil }
            return c
        }
        var runs = nameWithMiddleInitial(surnameAfterInitialRow(listedNames(tagger.runs(cleaned, footAtStart: footAtStart), of: cleaned)),
                                         lexicon: lexicon)
        runs = articleToNextRow(runs, lexicon: lexicon)
        runs = continuingTitles(runs, lexicon: lexicon)
        runs = titleWordEndingName(runs, lexicon: lexicon)
        // A label stuck to a run's end ("Agua cerrada TeaN") comes off. A title's "A" or "I" before a short
        // word is no sticker's letter when the title goes on in the next run ("A Game | of Thrones").
        for i in runs.indices {
            let goesOn = runs[i].label == .title && i + 1 < runs.count && runs[i + 1].label == .title
            runs[i].words = withoutLabels(runs[i].words, titleGoesOn: goesOn)
        }
        runs.removeAll { dropped($0.words, $0.text) }
        guard !runs.isEmpty else { return Split(title: nil, authors: [], confidence: 0) }
        runs = publishersAtEnds(runs, lexicon: lexicon)
        runs = nameRunBesideTitle(nameAfterTitle(nameBeforeTitle(runs, lexicon: lexicon), lexicon: lexicon), lexicon: lexicon)
        runs = nameAmongMarks(nameInOtherCase(surnameAfterGivenRow(runs, lexicon: lexicon), lexicon: lexicon), lexicon: lexicon)
        // A cut above may leave a title run whose row goes on ("MARC-UWE KLING DIE KANGURU- | CHRONIKEN").
        runs = continuingTitles(runs, lexicon: lexicon)
        runs = nameFromSticker(runs, abbreviation: stickerAbbreviation(segments), lexicon: lexicon)
        runs = largestWordIsTitle(logoAtFoot(runs, footAtStart: footAtStart), lexicon: lexicon)
        runs = surnameBesideGivenName(runs, lexicon: lexicon)
        runs = givenNameTitle(runs, lexicon: lexicon)
        var titles = runs.indices.filter { runs[$0].label == .title }
        if titles.isEmpty { titles = likeliestTitle(runs, lexicon: lexicon).map { [$0] } ?? [] }
        let titleRuns = titlePrint(titles, of: runs, lexicon: lexicon).map { runs[$0] }
        let title = titleRuns.map(\.text).joined(separator: " ")
        // A listed name is one person whatever stands beside it.
        let listed = runs.indices.filter { runs[$0].label == .author && runs[$0].listed && !titles.contains($0) }
        let authors = (namesOverRows(runs.indices.filter { runs[$0].label == .author && !runs[$0].listed && !titles.contains($0) },
                                     of: runs, lexicon: lexicon) + listed.map { [$0] }).sorted { $0.min()! < $1.min()! }
            .map { run in tidyName(run.map { runs[$0].text }.joined(separator: " ").trimmingCharacters(in: CharacterSet(charactersIn: ":,"))) }
            .map(withoutRole)
            .flatMap { coAuthors($0, lexicon: lexicon) }
            .filter { !$0.isEmpty && !isEditionStatement($0) }
        let words = titleRuns.flatMap(\.words)
        let titleChars = title.filter { $0.isLetter || $0.isNumber }.count
        var confidence = Segment(words: words).confidence
        if titleChars < 4 { confidence *= 0.5 }
        return Split(title: titleChars == 0 ? nil : title, authors: authors, confidence: min(1, max(0, confidence)))
    }

    /// "STEPHEN KING | Es": a title of two letters ("Es", "It", "Up") is no stray mark when it is a word the
    /// lexicon knows, capitalised, alone in its segment and in print half as large again as every other segment,
    /// one of which has four letters or more. Stickers' letters are small.
    static func twoLetterTitle(_ segments: [Segment], lexicon: SpineLexicon = .shipped) -> OCRWord? {
        for (i, s) in segments.enumerated() {
            guard s.words.count == 1, let w = s.words.first, w.text.count == 2, w.text.allSatisfy(\.isLetter),
                  w.text.first!.isUppercase, lexicon.has(w.text, .common) || lexicon.has(w.text, .function) else { continue }
            let others = segments.indices.filter { $0 != i }.map { segments[$0] }
            guard others.contains(where: { $0.text.filter(\.isLetter).count >= 4 }),
                  others.allSatisfy({ s.size >= 1.5 * $0.size }) else { continue }
            return w
        }
        return nil
    }

    /// The title of a reading where the tagger labelled none: the run likeliest to be one, but none when the
    /// reading is one whole name and nothing else ("DAVID BALDACCI", "ERNEST VAN DER KWAST": the title was not
    /// read, and the name is no title).
    static func likeliestTitle(_ runs: [SpineTagger.Run], lexicon: SpineLexicon = .shipped) -> Int? {
        let candidates = runs.indices.filter { runs[$0].label != .noise }
        if candidates.count == 1, runs[candidates[0]].label == .author, isWholeName(runs[candidates[0]].words, lexicon: lexicon) {
            return nil
        }
        // "MAX FRISCH | HOMO FABER", both runs taken for names: a whole name (a given name first) is the author
        // beside a run the tagger took for a name that is none: no surname alone ("Fielding"), no name with
        // particles ("Honore de Balzac"), and "LA CONSOLANTE" starts with an article.
        func named(_ run: SpineTagger.Run) -> Bool {
            let w = run.words
            return isWholeName(w, lexicon: lexicon) && !isArticle(w[0]) || looksLikeName(run.text)
                || w.count == 1 && isSurnameOnly(w[0], lexicon: lexicon)
        }
        let authors = candidates.filter { runs[$0].label == .author && !runs[$0].listed }
        let unnamed = authors.filter { !named(runs[$0]) }
        let pool = [unnamed.count < authors.count ? unnamed : [], candidates.filter { !runs[$0].listed }, candidates,
                    Array(runs.indices)].first { !$0.isEmpty }
        return pool?.max { runs[$0].probabilities[0] < runs[$1].probabilities[0] }
    }

    /// "Alain Claude | Sulzer", "Jenny | Torres Sanchez", "Gerritsen | Tess": a name set over rows is one author.
    /// Author rows that follow each other are one name when the name so far ends with a given name and the next
    /// row is one word; when it starts with a given name, is two words at most and the next row is one or two
    /// words that do not start with a given name (the name's surnames); when a surname stands alone and a given
    /// name alone follows it (the name is then given name first, as catalogues have it); or when an unknown
    /// word stands alone and a surname alone follows it (a given name misread: "Sanara | Brown"); or when two
    /// name words stand alone on rows in one print (names no list holds: "NAMINA | FORNA").
    /// "Beate Heinen | Ulrich Heinen" and "BEATE | ULRICH HEINEN" stay two. Indices in the name's order.
    static func namesOverRows(_ indices: [Int], of runs: [SpineTagger.Run], lexicon: SpineLexicon = .shipped) -> [[Int]] {
        var groups: [[Int]] = []
        for i in indices {
            let next = runs[i].words
            guard let group = groups.last, group.max() == i - 1 else {
                groups.append([i])
                continue
            }
            let name = group.flatMap { runs[$0].words }
            let alone = name.count == 1 && next.count == 1 && isNameWord(name[0]) && isNameWord(next[0])
            if let end = runs[group.last!].words.last, lexicon.isGiven(end.text), next.count == 1 {
                groups[groups.count - 1].append(i)
            } else if lexicon.isGiven(name[0].text), name.count <= 2, (1...2).contains(next.count),
                      next.allSatisfy(isNameWord), !lexicon.isGiven(next[0].text) {
                groups[groups.count - 1].append(i)
            } else if alone, lexicon.isGiven(next[0].text), !lexicon.isGiven(name[0].text), lexicon.has(name[0].text, .surname) {
                groups[groups.count - 1].insert(i, at: 0)
            } else if alone, lexicon.kinds(name[0].text).isEmpty, lexicon.kinds(next[0].text) == .surname {
                groups[groups.count - 1].append(i)
            } else if alone, lexicon.kinds(name[0].text).isEmpty, lexicon.kinds(next[0].text).isEmpty,
                      (0.8...1.25).contains(runs[i].size / max(runs[i - 1].size, 1)) {
                // "NAMINA | FORNA": two name words no list holds, a row each in one print, are one name.
                groups[groups.count - 1].append(i)
            } else {
                groups.append([i])
            }
        }
        return groups
    }

    /// The title runs in the title's print: those at least 0.8 of the largest, so a subtitle in smaller print
    /// stays out. A title printed word by word up a narrow spine ("DAS | GEHEIMNIS | VON | WISHTIDE MANOR")
    /// gives its short words boxes of lower height than its long ones, though the print is one: a smaller
    /// title run stays when it lies between two kept ones, or when it holds only articles and prepositions or
    /// ends in one, and a kept one follows it. Indices in reading order.
    static func titlePrint(_ titles: [Int], of runs: [SpineTagger.Run], lexicon: SpineLexicon = .shipped) -> [Int] {
        let top = titles.map { runs[$0].size }.max() ?? 0
        var kept = Set(titles.filter { runs[$0].size >= 0.8 * top })
        var changed = true
        while changed {
            changed = false
            for t in titles where !kept.contains(t) {
                let between = kept.contains(t - 1) && kept.contains(t + 1)
                // "Lolita lesen in | TEHERAN": the title goes on from a row that ends in an article, a
                // conjunction or a preposition.
                let leading = kept.contains(t + 1) && (runs[t].words.allSatisfy { lexicon.has($0.text, .function) }
                    || endsUnfinished(runs[t].words))
                if between || leading {
                    kept.insert(t)
                    changed = true
                }
            }
        }
        return titles.filter(kept.contains)
    }

    /// A title set over two or three rows ("DIE WOCHE, | IN DER ALLES ANDERS WURDE", "Doppel- | leben",
    /// "Leben | mit | Bonnie") is one run of one print, but the tagger labels each row's runs on their own and
    /// took the later rows for an author or for noise. A run goes on from a title run before it when that run
    /// ends in a comma or a hyphen, or when it starts with a lower-case word that is not a name's particle
    /// ("von", "de"): a title's, a name's or a publisher's own first row starts with a capital; or when it starts
    /// with a conjunction ("HARRYPOTTER | AND THE SORCERERS STONE") or a preposition ("LONG ROAD | To MERCY"), as no
    /// name's first row does. A row's case goes on past its end: a lower-case row after a word in capitals is a
    /// publisher's logo ("TORNADO | speak").
    /// A title row of articles alone ("The | COST KNOWING", "THIS | POISON HEART") is no title by itself: it
    /// joins the row after it. A name's row before a row that starts with a conjunction and an article ("PILAR
    /// RAMIREZ | AND THE ESCAPE FROM ZAFA") is the title's start, as a second author's row would start with a
    /// name. Only the title grows; the runs the tagger labelled title stay titles. Row heights differ more than
    /// prints do ("mit" has no capital and no ascender), hence the wide size bands.
    static func continuingTitles(_ runs: [SpineTagger.Run], lexicon: SpineLexicon = .shipped) -> [SpineTagger.Run] {
        var runs = runs
        // Rows joined one after another are one title in one print: "LAS REGLAS Y CARACTERÍSTICAS | DE TODOS LOS |
        // DEPORT", whose last row is printed three times larger, keeps its first row too.
        var chain: ClosedRange<Int>?
        func joinPrint(_ k: Int) {
            let joined = (chain?.upperBound == k - 1 ? chain!.lowerBound : k - 1)...k
            let size = joined.map { runs[$0].size }.max()!
            for j in joined { runs[j].size = size }
            chain = joined
        }
        var k = 1
        while k < runs.count {
            defer { k += 1 }
            guard let tail = runs[k - 1].words.last, let head = runs[k].words.first else { continue }
            let ratio = runs[k].size / max(runs[k - 1].size, 1)
            let nameStartsTitle = runs[k - 1].label == .author && runs[k].words.count >= 3 && conjunctions.contains(head.text.lowercased())
                && lexicon.has(runs[k].words[1].text, .function) && [.title, .noise].contains(runs[k].label)
            // "REDEMPTION | -PREP": a word broken across rows, whatever the runs were taken for.
            let brokenWord = head.text.count > 2 && head.text.hasPrefix("-") && runs[k - 1].label != .publisher
                && runs[k].label != .publisher && (0.5...2).contains(ratio)
            // "ATLAS ILUSTRADO DEL | Fitness", "INTO THE | WOODS", "TENIS EN | LA ESCUELA": a run ending in an article,
            // a conjunction or a preposition that ends no title goes on in the next, whatever the two were taken
            // for; no name or publisher ends in one either. Not before a run that starts with a given name or an
            // initial ("AMIR LEVINE AND | RACHEL HELLER", "KEEPER OF | J.A. CULICAN"), not a particle ending a
            // name's row ("Daphne du | Maurier"); a row of articles alone is left to the rule below. The title's
            // last word is often printed far larger than its first rows ("ATLAS ILUSTRADO DEL | Fitness", seven
            // times the height), so only a far smaller next run stays apart.
            let dangling = [.title, .author].contains(runs[k - 1].label) && [.title, .author].contains(runs[k].label)
                && neverEndsTitle.contains(tail.text.lowercased())
                && !isPlainGivenName(head.text, lexicon: lexicon)
                && !FirstNames.isInitial(head.text)
                && !(runs[k - 1].label == .author && isGivenName(runs[k - 1].words[0].text, lexicon: lexicon)
                     && particles.contains(tail.text.lowercased()))
                && !runs[k - 1].words.allSatisfy(isArticle) && ratio >= 0.33
            if nameStartsTitle || brokenWord || dangling {
                runs[k - 1].label = .title
                runs[k].label = .title
                joinPrint(k)
                continue
            }
            // "The | COST +KNOWING": an article alone on its row, which the tagger took for a stray mark.
            let articleMark = runs[k - 1].label == .noise && runs[k].label == .title
                && runs[k - 1].words.allSatisfy { isArticle($0) && $0.text.count >= 2 }
            guard runs[k - 1].label == .title || articleMark else { continue }
            if runs[k].label != .publisher, runs[k - 1].words.allSatisfy(isArticle), (0.5...2).contains(ratio) {
                runs[k].words = runs[k - 1].words + runs[k].words
                runs[k].label = .title
                runs[k].size = max(runs[k].size, runs[k - 1].size)
                runs.remove(at: k - 1)
                k -= 1
                chain = (chain?.upperBound == k ? chain!.lowerBound : k)...k
                continue
            }
            guard !articleMark else { continue }
            let hyphen = tail.text.count > 2 && tail.text.hasSuffix("-")
            let comma = tail.text.hasSuffix(",")
            let letters = head.text.filter(\.isLetter)
            // Plain lower case only: "ranzKafka", "jules Verne" are names whose first letter the reader lost.
            let lowerStart = letters.count >= 2 && head.text.first!.isLowercase && !head.text.contains(where: \.isUppercase)
                && !particles.contains(letters.lowercased())
            // Nor a publisher's logo in lower case after a title in mixed case ("La gouvernante suédoise | dtv").
            let lower = lowerStart && !tail.text.hasSuffix(".") && !tail.text.hasSuffix(":")
                && (tail.text.filter(\.isLetter).count < 2 || tail.text.contains(where: \.isLowercase))
                && runs[k].label != .publisher && !lexicon.isPublisher(runs[k].text)
            // "ZUKUNFT- | schreiben STATT SCHWARZMALEN": after a hyphen no logo starts, and a title's first word
            // is often printed far larger than the rest, so the print's size does not count.
            let hyphenThenLower = hyphen && lowerStart && runs[k].label != .publisher
            // "DAS | SCHATTEN | HAUS": a row of one common word that no name list holds, in the title's print,
            // is the title's last row, not a surname.
            let commonRow = runs[k].label == .author && runs[k].words.count == 1 && lexicon.kinds(head.text) == .common
                && (0.8...1.25).contains(ratio)
            // "CARACTERÍSTICAS | DE TODOS LOS | DEPORT": a row between two of a title's, starting with a preposition
            // and ending in a word that ends no title, is no name's row even when its preposition brings in names.
            let middle = ["de", "di", "da", "von"].contains(head.text.lowercased())
                && neverEndsTitle.contains(runs[k].words.last!.text.lowercased())
            let joined = conjunctions.contains(head.text.lowercased())
                || (prepositions.contains(head.text.lowercased()) || middle) && runs[k].words.count >= 2 && runs[k].label != .author
            // "Mejora tu | Tenis | Charles Applewhaite": one word that is no name, between the title and a whole name.
            let beforeName = runs[k].label == .author && runs[k].words.count == 1 && k + 1 < runs.count
                && runs[k + 1].label == .author && runs[k + 1].words.count >= 2
                && isGivenName(runs[k + 1].words[0].text, lexicon: lexicon)
                && lexicon.kinds(head.text).isDisjoint(with: [.given, .surname])
            guard (hyphen || comma || joined || beforeName) && (0.5...2).contains(ratio)
                    || lower && runs[k].label != .author && (0.6...1.4).contains(ratio) || hyphenThenLower || commonRow else { continue }
            runs[k].label = .title
            // Kept beside the title's print when the title is assembled from the largest runs.
            joinPrint(k)
        }
        return runs
    }

    /// "Bel Mooney Leben | mit Bonnie", "Silke Rel Frauen | bauen Staat": the title's first word printed on the
    /// name's row, and the title's row after it starting in lower case, which goes on from a word before it. A
    /// name's row of three words or more, starting with a given name and ending in a word that is no name
    /// (a common word, or one the lexicon does not know), gives that word to the title when the next row is a
    /// title in about the same print that starts with a lower-case word, not a name's particle.
    static func titleWordEndingName(_ runs: [SpineTagger.Run], lexicon: SpineLexicon = .shipped) -> [SpineTagger.Run] {
        var out = runs
        for k in runs.indices.dropFirst().reversed() where runs[k - 1].label == .author && runs[k].label == .title {
            let name = runs[k - 1].words, head = runs[k].words[0].text
            guard name.count >= 3, let last = name.last, isNameWord(last),
                  isGivenName(name[0].text, lexicon: lexicon),
                  lexicon.kinds(last.text).isDisjoint(with: [.given, .surname]),
                  head.filter(\.isLetter).count >= 2, head.first?.isLowercase == true,
                  !head.contains(where: \.isUppercase), !particles.contains(head.lowercased()),
                  (0.6...1.6).contains(runs[k].size / max(runs[k - 1].size, 1)) else { continue }
            out = cutting(out, at: k - 1, before: name.count - 1, into: (.author, .title))
            out[k].size = runs[k].size
        }
        return out
    }

    /// "BAYRON THIS | POISON HEART": an article at a row's end starts the title's row after it, and a name left
    /// before it, with no author elsewhere, is the author. A row of function words and the article ("On the |
    /// Origin of Species", "DE LOS | Deportes") is left to the row rules. Inside one printed run an article ends
    /// no row: where the tagger cut "Jude the | Obscure", the line is one title.
    static func articleToNextRow(_ runs: [SpineTagger.Run], lexicon: SpineLexicon = .shipped) -> [SpineTagger.Run] {
        var out = runs
        for k in out.indices.dropFirst() where out[k].label == .title && out[k - 1].label != .publisher && out[k - 1].words.count >= 2 {
            guard let last = out[k - 1].words.last, isArticle(last), let next = out[k].words.first, !inOneRun(last, next),
                  out[k - 1].words.dropLast().contains(where: { w in
                      let lower = w.text.lowercased()
                      return !lexicon.has(w.text, .function) && !prepositions.contains(lower) && !particles.contains(lower)
                  }),
                  (0.5...2).contains(out[k].size / max(out[k - 1].size, 1)) else { continue }
            out[k].words.insert(out[k - 1].words.removeLast(), at: 0)
            // What the row holds before the article, one to three name words with no author read anywhere, is
            // the author: name and title start share the row ("BAYRON THIS", in smaller print than "POISON
            // HEART", was left a title run and dropped).
            let rest = out[k - 1].words
            if out[k - 1].label == .title, !out.contains(where: { $0.label == .author }), (1...3).contains(rest.count),
               rest.allSatisfy({ isNameWord($0) && lexicon.kinds($0.text).isDisjoint(with: [.function, .common, .genre, .volume, .publisherWord]) }) {
                out[k - 1].label = .author
            }
        }
        return out
    }

    /// "Allegria | DOREEN VIRTUE | Dein Leben im Licht": a publisher's logo the list lacks, printed far larger than
    /// the title, at the spine's foot. A one-word title run at the foot, at least twice the print of a title run of
    /// several words, is taken for the logo.
    static func logoAtFoot(_ runs: [SpineTagger.Run], footAtStart: Bool?) -> [SpineTagger.Run] {
        guard let footAtStart, let foot = footAtStart ? runs.firstIndex(where: { $0.label != .noise })
                : runs.lastIndex(where: { $0.label != .noise }),
              runs[foot].label == .title, runs[foot].words.count == 1,
              runs.indices.contains(where: { $0 != foot && runs[$0].label == .title && runs[$0].words.count >= 2
                  && runs[foot].size >= 2 * runs[$0].size }) else { return runs }
        var out = runs
        out[foot].label = .publisher
        return out
    }

    /// "Attached. | The New Science of Adult Attachment | AMIR LEVINE AND RACHEL HELLER": a title of one word,
    /// printed far larger than anything else on the spine, taken for a surname. When another author run starts
    /// with a given name and a name's word, a one-word author run at least one and a half times the print of
    /// every other run is the title, if no list holds the word as a name or a publisher ("PATTERSON" printed
    /// large beside "Maxine Paetro" stays the author).
    static func largestWordIsTitle(_ runs: [SpineTagger.Run], lexicon: SpineLexicon = .shipped) -> [SpineTagger.Run] {
        guard let big = runs.indices.max(by: { runs[$0].size < runs[$1].size }), runs[big].label == .author,
              runs[big].words.count == 1, let word = runs[big].words.first?.text.trimmingCharacters(in: .punctuationCharacters),
              !lexicon.has(word, .surname), !lexicon.isGiven(word), !lexicon.isPublisher(word, damaged: true),
              runs.indices.allSatisfy({ $0 == big || runs[$0].label == .noise || runs[big].size >= 1.5 * runs[$0].size }),
              runs.indices.contains(where: { $0 != big && runs[$0].label == .author && runs[$0].words.count >= 2
                  && isNameWord(runs[$0].words[1]) && lexicon.isGiven(runs[$0].words[0].text) })
        else { return runs }
        var out = runs
        out[big].label = .title
        return out
    }

    /// An article or a demonstrative, which starts a title and never stands for one.
    static func isArticle(_ word: OCRWord) -> Bool { isArticle(word.text) }

    static func isArticle(_ text: String) -> Bool {
        ["the", "a", "an", "this", "these", "der", "die", "das", "le", "la", "les", "el", "los", "las", "il"]
            .contains(text.lowercased())
    }

    /// "John Green Eine wie Alaska", "Maria Oruña Lo que la marea esconde": the author's name and the title
    /// printed as one line in one size, which the tagger keeps whole as a title when it does not know the
    /// surname. When the reading has no author at all (or no title, and the line went to the author whole), a
    /// run that starts with a given name, then one capitalised word (the surname, known or not), then more
    /// words gives the name to the author. Further words join the name only when they are known surnames and
    /// nothing else ("Gabriel García Márquez"); a common word ("Eine", "Lo") or an unknown one ends it. The rest
    /// must be at least two words, so "Jane Eyre" and "Oliver Twist" stay titles.
    static func nameBeforeTitle(_ runs: [SpineTagger.Run], lexicon: SpineLexicon = .shipped) -> [SpineTagger.Run] {
        // With no title at all, the line may have been labelled an author whole ("Sheila O'Flanagan Carolines
        // Schwester"): the same cut applies to it.
        let whole = wholeLineLabel(runs)
        guard let whole, let t = runs.firstIndex(where: { $0.label == whole && $0.words.count >= 4 }) else { return runs }
        let words = runs[t].words
        func given(_ w: OCRWord) -> Bool { isGivenName(w.text, lexicon: lexicon) }
        // "TERAH KATHRYN COLLINS FENG SHUI IM WESTEN": a first given name the lexicon does not hold at all (no
        // word of a title either), known by the given name after it; the name is then three words at least, and
        // the title two.
        let doubleGiven = words.count >= 5 && !given(words[0]) && given(words[1])
            && isNameWord(words[0]) && isNameWord(words[2]) && lexicon.kinds(words[0].text).isEmpty
        // "Frank und Gundi Gaschler Ich will verstehen": two given names joined by "und" share the surname after
        // them (a surname no list holds, or one it holds as a surname only); the title is two words at least.
        let sharedSurname = words.count >= 6 && given(words[0]) && given(words[2]) && !given(words[3])
            && nameJoins.contains(words[1].text.lowercased())
            && isNameWord(words[2]) && isNameWord(words[3]) && lexicon.kinds(words[3].text).subtracting(.surname).isEmpty
        guard given(words[0]) || doubleGiven, isNameWord(words[0]), isNameWord(words[1]) || sharedSurname
        else { return runs }
        var end = sharedSurname ? 4 : doubleGiven ? 3 : 2
        while end < words.count - 2, isNameWord(words[end]),
              lexicon.kinds(words[end].text) == .surname || particles.contains(words[end].text.lowercased()) && end + 1 < words.count - 2 {
            end += 1
        }
        // A name ends on a surname, not on "de" or "von" nor on a preposition or an article ("TENIS EN LA
        // ESCUELA": "Tenis" is a given name somewhere, "en" a surname), and the title does not start with a
        // lower-case "von": "Johann Wolfgang von Goethe" is a name whole.
        // "ROALD DAHL'S BOOK OF GHOST STORIES": a name in the possessive is the title's own.
        guard !particles.contains(words[end - 1].text.lowercased()),
              !prepositions.contains(words[end - 1].text.lowercased()), !isArticle(words[end - 1]),
              !["'s", "’s"].contains(where: { words[end - 1].text.lowercased().hasSuffix($0) }),
              !(particles.contains(words[end].text) && words[end].text.first?.isLowercase == true) else { return runs }
        // A line labelled an author whole may hold two names: "MIKAEL KROGERUS ROMAN TSCHAPPELER".
        if whole == .author, words.count - end <= 3, lexicon.isGiven(words[end].text) { return runs }
        return cutting(runs, at: t, before: end, into: (.author, .title))
    }

    /// Which label a line kept whole may carry for the name rules to cut it: a title when the reading has no
    /// author, an author when it has no title (the tagger labelled the whole line a name), else none.
    static func wholeLineLabel(_ runs: [SpineTagger.Run]) -> SpineTagger.Label? {
        !runs.contains(where: { $0.label == .author }) ? .title : !runs.contains(where: { $0.label == .title }) ? .author : nil
    }

    /// A given name in the lexicon's lists or in the list of first names.
    static func isGivenName(_ text: String, lexicon: SpineLexicon) -> Bool {
        lexicon.isGiven(text) || FirstNames.contains(text)
    }

    /// A given name that is no function word too: the lists hold "La", "De" and "Tenis" as given names.
    static func isPlainGivenName(_ text: String, lexicon: SpineLexicon) -> Bool {
        isGivenName(text, lexicon: lexicon) && !lexicon.has(text, .function)
    }

    /// A publisher's name at either end of the reading is the publisher whatever the tagger said, and so is
    /// one printed over two rows there ("CARLSEN | COMICS", "Goldmann | Taschenbuch"): the imprint's row
    /// alone names no publisher, and the name's row beside it was left to be taken for the author. A name one
    /// letter off a publisher's is a misread publisher only where the tagger saw no author in it: "FONTANE" is
    /// Fontane, not Fontana; "OLDMANN", a letter lost, is Goldmann still.
    static func publishersAtEnds(_ runs: [SpineTagger.Run], lexicon: SpineLexicon = .shipped) -> [SpineTagger.Run] {
        var out = runs
        guard runs.count > 1 else { return out }
        for (end, inner) in [(runs.startIndex, runs.startIndex + 1), (runs.endIndex - 1, runs.endIndex - 2)] {
            if lexicon.isPublisher(runs[end].text, damaged: true, misread: runs[end].label != .author) {
                out[end].label = .publisher
            } else if runs.count > 2, runs[inner].label != .title || runs[inner].words.count == 1,
                      lexicon.isPublisher(runs[min(end, inner)].text + " " + runs[max(end, inner)].text) {
                out[end].label = .publisher
                out[inner].label = .publisher
            }
        }
        return out
    }

    /// "SLOW HORSES MICK HERRON": the name printed after the title on one line. When the reading has no author,
    /// a title run of four words or more that ends in a given name and a capitalised surname gives the two to the
    /// author, unless a particle or function word stands before them ("The Curious Case of Benjamin Button",
    /// "Das Tagebuch der Anne Frank") or the two are words too ("IN DER ALLES ANDERS WURDE"). A surname that is
    /// also a word counts when the lists hold it as a surname ("TURTLES ALL THE WAY DOWN JOHN GREEN"): many are
    /// ("Green", "Black", "King"), and the function word before the name still guards titles that end in one.
    ///
    /// A name with particles ("IFIGENIA TERESA DE LA PARRA") is cut after a title of one word too, and from a
    /// line the tagger labelled an author whole when nothing was labelled title: a given name, "de la" or "van
    /// der" and a surname do not end a title, and the word before the name still guards "Historia de Juana de
    /// Arco". Without particles such a line stays whole: "MIKAEL KROGERUS ROMAN TSCHAPPELER" is two names.
    static func nameAfterTitle(_ runs: [SpineTagger.Run], lexicon: SpineLexicon = .shipped) -> [SpineTagger.Run] {
        let whole = wholeLineLabel(runs)
        guard let whole, let t = runs.firstIndex(where: { $0.label == whole && $0.words.count >= 3 }) else { return runs }
        let words = runs[t].words, n = words.count
        var g = n - 2
        while g > 1, n - 2 - g < 2, nameParticles.contains(words[g].text.lowercased()) { g -= 1 }
        let withParticles = g < n - 2
        guard withParticles ? !nameParticles.contains(words[g].text.lowercased()) : whole == .title && n >= 4,
              !(whole == .author && isGivenName(words[0].text, lexicon: lexicon))
        else { return runs }
        let given = words[g], surname = words[n - 1], before = words[g - 1]
        guard isPlainGivenName(given.text, lexicon: lexicon),
              isNameWord(given), isNameWord(surname),
              lexicon.has(surname.text, .surname) || !lexicon.has(surname.text, .common) && !lexicon.has(given.text, .common),
              !lexicon.has(before.text, .function), !particles.contains(before.text.lowercased()) else { return runs }
        return cutting(runs, at: t, before: g, into: (.title, .author))
    }

    /// "MARKUS | ZUSAK THE BOOK THIEF", "Jürgen | Seibold SEIN": a given name alone on its row, taken for the
    /// author, and the surname printed on the title's row before the title. The title run's first word goes to
    /// the name when it can be a surname (capitalised; no given name; no common, function, genre, volume or place
    /// word) and title words are left.
    static func surnameAfterGivenRow(_ runs: [SpineTagger.Run], lexicon: SpineLexicon = .shipped) -> [SpineTagger.Run] {
        var out = runs
        for k in runs.indices.dropLast() where runs[k].label == .author && runs[k + 1].label == .title {
            let given = runs[k].words, title = runs[k + 1].words
            guard given.count == 1, lexicon.isGiven(given[0].text), isNameWord(given[0]), title.count >= 2,
                  isNameWord(title[0]), !lexicon.isGiven(title[0].text),
                  lexicon.kinds(title[0].text).isDisjoint(with: [.common, .function, .genre, .volume, .place])
            else { continue }
            out[k].words.append(title[0])
            out[k + 1].words.removeFirst()
            return out
        }
        return out
    }

    /// "Gerpitsen | Tess | DAS SCHATTEN | HAUS": a bestseller's surname printed far larger than the given name, on
    /// its own row beside it, and taken for the title as the largest print. A one-word title run that can be a
    /// surname (capitalised, no list holds it but as a surname), at least one and a half times the print of a
    /// one-word given name beside it taken for the author, is the name's other half when a title run of two
    /// words or more is left ("HUNTER | WARRIORS", one print, stays). The name is given name first.
    static func surnameBesideGivenName(_ runs: [SpineTagger.Run], lexicon: SpineLexicon = .shipped) -> [SpineTagger.Run] {
        for k in runs.indices where runs[k].label == .title && runs[k].words.count == 1 {
            let word = runs[k].words[0]
            guard isNameWord(word), word.text.filter(\.isLetter).count >= 4, lexicon.kinds(word.text).subtracting([.surname]).isEmpty,
                  runs.indices.contains(where: { $0 != k && runs[$0].label == .title && runs[$0].words.count >= 2 }),
                  let g = [k - 1, k + 1].first(where: { g in
                      runs.indices.contains(g) && runs[g].label == .author && runs[g].words.count == 1 && isNameWord(runs[g].words[0])
                          && isPlainGivenName(runs[g].words[0].text, lexicon: lexicon)
                          && runs[k].size >= 1.5 * runs[g].size
                  })
            else { continue }
            var out = runs
            out[g].words.append(word)
            out.remove(at: k)
            return out
        }
        return runs
    }

    /// "PETER STAMM | AGNES", "CHRISTA WOLF | KASSANDRA": a book named after its heroine, both runs taken for names
    /// and the larger print, the author's, for the title. When the title and the author are two runs, one a whole
    /// name (two or three words, a given name first, a word the lexicon knows as a surname last) and the other one
    /// word the lexicon knows as a given name and not as a surname, the one word is the title: a book is often
    /// named by a given name alone, its author seldom is.
    static func givenNameTitle(_ runs: [SpineTagger.Run], lexicon: SpineLexicon = .shipped) -> [SpineTagger.Run] {
        let named = runs.indices.filter { runs[$0].label == .title || runs[$0].label == .author }
        func wholeName(_ run: SpineTagger.Run) -> Bool {
            guard run.words.count <= 3, isWholeName(run.words, lexicon: lexicon), let last = run.words.last else { return false }
            return lexicon.has(last.text, .surname)
        }
        func loneGivenName(_ run: SpineTagger.Run) -> Bool {
            guard run.words.count == 1, let word = run.words.first, isNameWord(word) else { return false }
            return isPlainGivenName(word.text, lexicon: lexicon) && !lexicon.has(word.text, .surname)
        }
        guard named.count == 2, let a = named.first(where: { loneGivenName(runs[$0]) }),
              let t = named.first(where: { $0 != a && wholeName(runs[$0]) }) else { return runs }
        var out = runs
        out[t].label = .author
        out[a].label = .title
        return out
    }

    /// "Stellmacher FROSCH ODER TRAUMPRINZ?", "GRISCOM Die Heilung der Gefühle": a surname set apart from the
    /// title by its case alone, read into the title's run. When the reading has no author, a title run's first
    /// word of four letters or more goes to the author when it is capitalised and the two words or more after
    /// it are in capitals, or it is in capitals and the words after it are in mixed case; and it is no word the
    /// lexicon knows but a surname ("Die" and "THE" are words; "ZUKUNFT- schreiben" is a word too). Likewise one
    /// or two words in lower case that the lexicon knows only as names or not at all, before words in capitals.
    static func nameInOtherCase(_ runs: [SpineTagger.Run], lexicon: SpineLexicon = .shipped) -> [SpineTagger.Run] {
        guard !runs.contains(where: { $0.label == .author }),
              let t = runs.firstIndex(where: { $0.label == .title && $0.words.count >= 3 }) else { return runs }
        let words = runs[t].words, first = words[0], rest = words.dropFirst()
        func capitals(_ w: OCRWord) -> Bool { w.text.contains(where: \.isLetter) && !w.text.contains(where: \.isLowercase) }
        let letters = first.text.filter(\.isLetter)
        let titleCase = letters.count >= 4 && letters.dropFirst().allSatisfy(\.isLowercase) && rest.allSatisfy(capitals)
        let capitalised = letters.count >= 4 && capitals(first) && rest.allSatisfy { !capitals($0) }
            && rest.contains(where: { $0.text.first?.isUppercase == true })
        // "akwaeke emezi PET": a name of one or two words set in lower case before a title in capitals.
        let lower = words.prefix(2).prefix { w in
            w.text.count >= 3 && w.text.allSatisfy { $0.isLetter && $0.isLowercase }
                && lexicon.kinds(w.text).subtracting([.given, .surname]).isEmpty
        }.count
        if lower > 0, words[lower...].allSatisfy(capitals), words[lower...].contains(where: { $0.text.count >= 3 }) {
            return cutting(runs, at: t, before: lower, into: (.author, .title))
        }
        guard titleCase || capitalised, isNameWord(first), lexicon.kinds(first.text).subtracting(.surname).isEmpty
        else { return runs }
        return cutting(runs, at: t, before: 1, into: (.author, .title))
    }

    /// "Iny Lorentz | Die Kastratin | Knaur.", "Siba Shakib | Nach Afghanistan ... | GOLDMANN": a name the tagger
    /// took for a publisher or noise, as it does with names no list holds. When the reading has no author and
    /// a run the publisher list holds, another run that is not the title, not a publisher the list holds, and
    /// one to three capitalised words of letters the lexicon knows only as names or not at all, is the author.
    static func nameAmongMarks(_ runs: [SpineTagger.Run], lexicon: SpineLexicon = .shipped) -> [SpineTagger.Run] {
        guard !runs.contains(where: { $0.label == .author }),
              runs.contains(where: { $0.label == .publisher && lexicon.isPublisher($0.text) }) else { return runs }
        var out = runs
        for k in runs.indices where [.publisher, .noise, .series].contains(runs[k].label) {
            let words = runs[k].words
            guard (1...3).contains(words.count), words.allSatisfy(isNameWord), !lexicon.isPublisher(runs[k].text, damaged: true),
                  words.allSatisfy({ lexicon.kinds($0.text).subtracting([.given, .surname]).isEmpty }),
                  words.map({ $0.text.filter(\.isLetter).count }).reduce(0, +) >= 4 else { continue }
            out[k].label = .author
            return out
        }
        return out
    }

    /// "N Paa", "796.342 Tor", "NPal": a library's call-number sticker ends in the first three letters of the
    /// author's surname (the label Spanish and Catalan libraries put on every book; "FIC SMI" in many others).
    /// The abbreviation: three letters, a capital and two lower-case, after a lone capital or a class number
    /// or glued to the capital. Nil when no sticker was read.
    static func stickerAbbreviation(_ segments: [Segment]) -> String? {
        func abbreviation(_ t: String) -> Bool {
            let c = Array(t)
            return c.count == 3 && c[0].isUppercase && c.dropFirst().allSatisfy { $0.isLetter && $0.isLowercase }
        }
        for segment in segments {
            let words = segment.words.map(\.text)
            for (i, w) in words.enumerated() {
                if i > 0, abbreviation(w) {
                    let before = words[i - 1]
                    if before.count == 1 && before.first!.isUppercase || before.contains(where: \.isNumber) { return w }
                }
                let c = Array(w)
                if c.count == 4, c[0].isUppercase, abbreviation(String(c.dropFirst())) { return String(c.dropFirst()) }
            }
        }
        return nil
    }

    /// "N Paa | Paasilinna El molinero aullador", "796.422 Pul | Anatomía del CORREDOR J. PULEO", "NPal |
    /// NGÈLICA I RAFEL | MIQUEL DE PALOL": the word the sticker abbreviates is the author's surname, wherever the
    /// tagger put it. The name is that word with the given names, initials and particles before it on its run
    /// (on a run taken for the author, all the words before it); the rest of the run is title. When no title is
    /// left, the runs taken for another author are the title. A word the lexicon knows as anything but a name is
    /// left alone: for a book with no author the sticker abbreviates the title ("796 Enc | Enciclopedia visual").
    static func nameFromSticker(_ runs: [SpineTagger.Run], abbreviation: String?, lexicon: SpineLexicon = .shipped) -> [SpineTagger.Run] {
        guard let abbreviation else { return runs }
        let key = SpineLexicon.fold(abbreviation)
        for r in runs.indices where runs[r].label != .publisher {
            let words = runs[r].words
            guard let i = words.firstIndex(where: { w in
                isNameWord(w) && w.text.filter(\.isLetter).count > key.count && SpineLexicon.fold(w.text).hasPrefix(key)
                    && lexicon.kinds(w.text).subtracting([.given, .surname]).isEmpty
            }) else { continue }
            // A run taken for the author stays whole ("Iraima Fernández Go", "Pasqual i Escrivà", "Ernesto Angel
            // Binda Ángel Norberto Coerezza") unless an article or preposition follows the name ("Padura EL HOMBRE").
            if runs[r].label == .author {
                let titled = words[(i + 1)...].contains { !particles.contains($0.text.lowercased()) && lexicon.has($0.text, .function) }
                if !titled { return runs }
            }
            var s = i
            while s > 0, runs[r].label == .author || isGivenName(words[s - 1].text, lexicon: lexicon)
                    || FirstNames.isInitial(words[s - 1].text) || particles.contains(words[s - 1].text.lowercased()) {
                s -= 1
            }
            while s < i, particles.contains(words[s].text.lowercased()) { s += 1 }
            var out = runs, name = r
            if i + 1 < words.count { out = cutting(out, at: r, before: i + 1, into: (.author, .title)) } else { out[r].label = .author }
            if s > 0 {
                out = cutting(out, at: r, before: s, into: (.title, .author))
                name = r + 1
            }
            if !out.contains(where: { $0.label == .title }) {
                for k in out.indices where k != name && out[k].label == .author { out[k].label = .title }
            }
            return out
        }
        return runs
    }

    /// "The Schopenhauer Cure Irvin D. Yalom": a name with a middle initial at either end of a title run, with
    /// a word of title or more beside it, is the author, whether the lexicon knows the name or not; a lone
    /// capital with its full stop between two names is how names are printed, titles seldom do it. Only
    /// one-letter initials count ("King Mr. Mercedes" stays), and a run wholly in lower case is read in its
    /// own case.
    static func nameWithMiddleInitial(_ runs: [SpineTagger.Run], lexicon: SpineLexicon = .shipped) -> [SpineTagger.Run] {
        for r in runs.indices where runs[r].label == .title && runs[r].words.count >= 4 {
            let words = runs[r].words.map(\.text)
            let lower = !words.joined().contains(where: \.isUppercase)
            func name(_ w: String) -> Bool {
                !w.contains(".") && isNameWord(lower ? w.capitalized : w) && !lexicon.has(w, .function)
            }
            func initial(_ w: String) -> Bool { w.count == 2 && FirstNames.isInitial(lower ? w.uppercased() : w) }
            // At the end: name, initials, name, with title before them.
            var k = words.count - 2
            while k >= 1, initial(words[k]) { k -= 1 }
            if k < words.count - 2, k >= 1, name(words[k]), name(words[words.count - 1]) {
                return cutting(runs, at: r, before: k, into: (.title, .author))
            }
            // At the start: the same, with title after them.
            var e = 1
            while e < words.count - 1, initial(words[e]) { e += 1 }
            if e > 1, e + 1 < words.count, name(words[0]), name(words[e]) {
                return cutting(runs, at: r, before: e + 1, into: (.author, .title))
            }
            // "Irvin D. | Yalom The Schopenhauer Cure": the tagger cut the name after its initial.
            if r > 0, runs[r - 1].label != .title, runs[r - 1].label != .publisher, name(words[0]) {
                let before = runs[r - 1].words.map(\.text)
                if before.count >= 2, name(before[0]), before.dropFirst().allSatisfy(initial) {
                    var out = cutting(runs, at: r, before: 1, into: (.author, .title))
                    out[r].words = runs[r - 1].words + out[r].words
                    out.remove(at: r - 1)
                    return out
                }
            }
        }
        return runs
    }

    /// "LAURELL K. | AMILTON | LECIRQUE | DESDAMNÉS": a row that is a given name and its middle initials ends
    /// before its surname, which is the next row when that is one name word, whatever the tagger took it for (a
    /// name does not end on a middle initial).
    static func surnameAfterInitialRow(_ runs: [SpineTagger.Run]) -> [SpineTagger.Run] {
        for k in runs.indices.dropLast() where runs[k].label != .publisher && runs[k + 1].label != .publisher {
            let name = runs[k].words, next = runs[k + 1].words
            guard name.count >= 2, isNameWord(name[0]), FirstNames.contains(name[0].text),
                  name.dropFirst().allSatisfy({ FirstNames.isLetterInitial($0.text) }),
                  next.count == 1, isNameWord(next[0]), !FirstNames.contains(next[0].text) else { continue }
            var out = runs
            out[k].words += next
            out[k].label = .author
            out.remove(at: k + 1)
            return out
        }
        return runs
    }

    /// Run `t` cut in two before its word `k`, the pieces labelled `labels` in reading order: where a name and a
    /// title were read as one line.
    static func cutting(_ runs: [SpineTagger.Run], at t: Int, before k: Int,
                        into labels: (SpineTagger.Label, SpineTagger.Label)) -> [SpineTagger.Run] {
        var first = runs[t], second = runs[t]
        first.words = Array(runs[t].words[..<k]); first.label = labels.0
        second.words = Array(runs[t].words[k...]); second.label = labels.1
        var out = runs
        out.replaceSubrange(t...t, with: [first, second])
        return out
    }

    /// Words that end in an article, a conjunction or a preposition: a title's row that goes on in the next.
    static func endsUnfinished(_ words: [OCRWord]) -> Bool {
        guard let last = words.last?.text.lowercased() else { return false }
        return neverEndsTitle.contains(last) || prepositions.contains(last)
    }

    /// Two words side by side in one printed run: on one row (their heights overlap by most of the smaller
    /// one), in one print (heights within a quarter of each other), the second after the first by no more than
    /// the gap `segments` splits at. Blocks along a thin spine share a row, but wider gaps or another print
    /// part them ("BAYRON THIS | POISON HEART", 34 and 50 px high, close together).
    static func inOneRun(_ a: OCRWord, _ b: OCRWord) -> Bool {
        let overlap = min(a.bottom, b.bottom) - max(a.top, b.top)
        let ratio = Double(max(a.height, 1)) / Double(max(b.height, 1))
        return b.left >= a.right && Double(b.left - a.right) <= 1.5 * Double(max(a.height, b.height, 1))
            && Double(overlap) > 0.5 * Double(min(a.height, b.height)) && (0.8...1.25).contains(ratio)
    }

    /// A name word the lexicon knows as a surname and as nothing else, or not at all: "Dürrenmatt", "Kobr".
    static func isSurnameOnly(_ w: OCRWord, lexicon: SpineLexicon) -> Bool {
        isNameWord(w) && lexicon.kinds(w.text).subtracting(.surname).isEmpty
    }

    /// A surname standing alone for its author: a surname-only word of four letters or more, not broken at a
    /// hyphen ("ZUKUNFT- | schreiben" is a word the next row ends).
    static func isLoneSurname(_ w: OCRWord, lexicon: SpineLexicon) -> Bool {
        isSurnameOnly(w, lexicon: lexicon) && w.text.filter(\.isLetter).count >= 4 && !w.text.hasSuffix("-")
    }

    /// A word that can be part of a name: capitalised, two letters or more, nothing but letters, hyphens,
    /// apostrophes and dots ("O'Flanagan", "Jean-Charles", "D.").
    static func isNameWord(_ w: OCRWord) -> Bool { isNameWord(w.text) }

    /// Two to four name words, the first a given name the lexicon knows: "MARTIN KORDIć", "Ernest van der Kwast"
    /// in capitals.
    static func isWholeName(_ words: [OCRWord], lexicon: SpineLexicon = .shipped) -> Bool {
        (2...4).contains(words.count) && words.allSatisfy(isNameWord)
            && lexicon.isGiven(words[0].text.trimmingCharacters(in: .punctuationCharacters))
    }

    static func isNameWord(_ text: String) -> Bool {
        let letters = text.filter(\.isLetter)
        return letters.count >= 2 && letters.first!.isUppercase && text.allSatisfy { $0.isLetter || "-'’.".contains($0) }
    }

    /// "NPam", "TeaN", "ueaN": a call-number sticker read as one word. Real words do not put a capital after
    /// lowercase letters at their end, nor two capitals before lowercase in four letters.
    static func isLabelWord(_ text: String) -> Bool {
        let letters = Array(text.filter(\.isLetter))
        guard (3...5).contains(letters.count), letters.count == text.count else { return false }
        if letters.last!.isUppercase && letters.dropLast().contains(where: \.isLowercase) { return true }
        return letters.count <= 4 && letters[0].isUppercase && letters[1].isUppercase && letters.dropFirst(2).allSatisfy(\.isLowercase)
    }

    /// Drops call-number labels ("796.332 Luc", "N Pam"), bare numbers at the ends and stray single
    /// characters at the ends: library and shop labels, not the book's own text. A title's first word may
    /// be a single letter ("A Room with a View", "I Am Legend"): a capital A or I before a word and more in
    /// one line stays, where a sticker's letter and its abbreviation mostly stand alone.
    /// `titleGoesOn`: the words are a title's run that the next run continues, so a capital A or I before a
    /// word starts the title even with nothing after that word here ("A Game | of Thrones").
    static func withoutLabels(_ words: [OCRWord], titleGoesOn: Bool = false) -> [OCRWord] {
        if words.count >= (titleGoesOn ? 2 : 3), ["A", "I"].contains(words[0].text), words[1].text.filter(\.isLetter).count >= 2 {
            return [words[0]] + labelsDropped(Array(words.dropFirst()))
        }
        return labelsDropped(words)
    }

    private static func labelsDropped(_ words: [OCRWord]) -> [OCRWord] {
        var out: [OCRWord] = []
        var i = 0
        while i < words.count {
            let t = words[i].text
            let letters = t.filter(\.isLetter).count, digits = t.filter(\.isNumber).count
            // "N Pam": a lone capital then a 2-4 letter capitalised abbreviation. An A or I with more words after
            // the abbreviation starts a title after a name ("Martin A Game of Thrones"). After other words, a
            // plain word that is no name ("The Hate U Give") is the title's: a sticker abbreviates a surname.
            if t.count == 1, t.first?.isUppercase == true, i + 1 < words.count, !(["A", "I"].contains(t) && i + 2 < words.count) {
                let next = words[i + 1].text.filter(\.isLetter)
                let plainWord = i > 0 && SpineLexicon.shipped.has(next, .common)
                    && !SpineLexicon.shipped.has(next, .surname) && !SpineLexicon.shipped.has(next, .given)
                if (2...4).contains(next.count), next.first?.isUppercase == true, next.dropFirst().allSatisfy(\.isLowercase), !plainWord {
                    i += 2
                    continue
                }
            }
            if isLabelWord(t) && (i == 0 || i == words.count - 1) { i += 1; continue }
            // "796.332", "843.9": classification numbers.
            if digits > 0 && (t.contains(".") || t.contains(",")) && letters == 0 { i += 1; continue }
            out.append(words[i])
            i += 1
        }
        // A name's initials ("E. M. Forster", "J.R.R. Tolkien") are no stray marks: a capital and its dot, then
        // more initials and a capitalised word.
        func initials(_ words: ArraySlice<OCRWord>) -> Bool {
            guard let first = words.first, FirstNames.isInitial(first.text) else { return false }
            let rest = words.dropFirst().drop { FirstNames.isInitial($0.text) }
            return rest.first.map(isNameWord) ?? false
        }
        while let first = out.first, first.text.filter({ $0.isLetter || $0.isNumber }).count <= 1 || first.text.allSatisfy({ $0.isNumber }),
              !initials(out[...]) {
            out.removeFirst()
        }
        // "LAURELL K. | HAMILTON": a given name's middle initial at the end of its row; the surname is on the next.
        func middleInitial(_ words: [OCRWord]) -> Bool {
            words.count >= 2 && FirstNames.isLetterInitial(words[words.count - 1].text)
                && isNameWord(words[words.count - 2]) && FirstNames.contains(words[words.count - 2].text)
        }
        while let last = out.last, last.text.filter({ $0.isLetter || $0.isNumber }).count <= 1 || last.text.allSatisfy({ $0.isNumber }),
              !middleInitial(out) {
            out.removeLast()
        }
        return out
    }

    /// "MARIE | LU": a surname of two letters (Lu, Li, Wu, Ng, Oz) on a row of its own is too short to tell from
    /// a stray mark, so it is dropped as noise. After a row that is one given name alone, in about its print
    /// (the wide band of `continuingTitles`: the box of a short word is often lower than its row's print), it
    /// joins that name.
    static func shortSurnamesJoined(_ segments: [Segment], lexicon: SpineLexicon = .shipped) -> [Segment] {
        var out: [Segment] = []
        for segment in segments {
            if let last = out.last, last.words.count == 1, segment.words.count == 1, lexicon.isGiven(last.words[0].text),
               isNameWord(last.words[0]), segment.text.count == 2, segment.text.allSatisfy(\.isLetter),
               segment.text.first!.isUppercase, (0.5...2).contains(segment.size / max(last.size, 1)) {
                out[out.count - 1].words.append(segment.words[0])
            } else {
                out.append(segment)
            }
        }
        return out
    }

    /// Call numbers, prices, years, series numbers and single letters: printed on spines, never a title.
    static func isNoise(_ text: String) -> Bool {
        let letters = text.filter(\.isLetter).count
        if letters == 0 { return true }
        // "detebe-Klassiker21364", "ISBN978-3": every word carries a series or catalogue number.
        if text.split(separator: " ").allSatisfy({ $0.filter(\.isNumber).count >= 4 }) { return true }
        let compact = text.filter { !$0.isWhitespace }
        if compact.count <= 2 { return true }
        // Mostly digits and symbols (e.g. "843.914 GAR").
        return Double(letters) / Double(compact.count) < 0.5
    }

    /// Words that join two parts of one title ("HARRYPOTTER | AND THE SORCERERS STONE").
    private static let conjunctions: Set<String> = ["and", "&", "und", "et", "or", "oder", "ou"]
    /// Prepositions that start the rest of a title on its next row ("LONG ROAD | To MERCY"); not "by", "mit",
    /// "von" or "de", which start a name.
    private static let prepositions: Set<String> = [
        "to", "of", "in", "on", "at", "for", "from", "with", "into", "under", "over", "after", "before", "beyond",
        "through", "without", "im", "am", "vom", "zum", "zur", "aus", "für", "über", "unter", "nach", "ohne", "gegen",
        "à", "au", "aux", "pour", "sur", "dans", "sans", "avec", "en", "con", "para", "sin", "sobre", "desde", "entre",
    ]
    /// Articles, conjunctions and prepositions that end no title and no name: a row ending in one goes on. Not
    /// those that end titles ("A House to Die For", "Twenty Years After", "Live and Let Die") nor those that
    /// bring in a name ("by", "von", "de", "mit").
    private static let neverEndsTitle: Set<String> = [
        "the", "a", "an", "of", "and", "&", "der", "das", "des", "dem", "den", "ein", "eine", "einer", "eines", "einem",
        "einen", "und", "zum", "zur", "vom", "le", "la", "les", "un", "une", "du", "et", "au", "aux", "el", "los", "las",
        "del", "al", "y", "en", "una", "unos", "unas", "il", "gli", "della", "dei", "delle", "het", "een",
    ]
    private static let particles: Set<String> = ["de", "del", "la", "le", "van", "von", "der", "da", "di", "du", "y", "i", "and", "&"]
    /// The words that join two people's names ("Frank und Gundi Gaschler", "Christina and Stanislav Grof").
    static let nameJoins: Set<String> = ["und", "and", "&", "et"]
    /// The particles inside one person's name ("Teresa de la Parra", "Ernest van der Kwast"), without the
    /// conjunctions that join two names. The tagger's features count the same ones.
    static let nameParticles: Set<String> = ["de", "del", "la", "le", "van", "von", "der", "da", "di", "du"]

    /// Two to five words, capitalised or initials, no digits, starting with a given name or initials:
    /// "Gabriel García Márquez", "J. R. R. TOLKIEN"; not "Silent Spring".
    static func looksLikeName(_ text: String) -> Bool {
        let words = text.split(separator: " ").map(String.init)
        guard (2...5).contains(words.count), !text.contains(where: \.isNumber) else { return false }
        // "Der Sturm": an article is a given name somewhere, but no name starts with one.
        guard FirstNames.contains(words[0]) || FirstNames.isInitial(words[0]), !isArticle(words[0]) else { return false }
        // A name ends on a surname: "ATLAS ILUSTRADO DEL" is a title's row that goes on.
        guard !particles.contains(words[words.count - 1].lowercased()) else { return false }
        var capitalised = 0
        for w in words {
            if particles.contains(w.lowercased()) && (w.first?.isLowercase == true || words.count >= 3) { continue }
            let letters = w.filter(\.isLetter)
            guard !letters.isEmpty, letters.count <= 15, w.allSatisfy({ $0.isLetter || ".'-’".contains($0) }) else { return false }
            guard letters.first!.isUppercase else { return false }
            capitalised += 1
        }
        // Titles in title case look like names; common title words give them away.
        let titleWords: Set<String> = ["the", "of", "a", "an", "in", "on", "el", "los", "las", "un", "una", "en", "to", "history", "book", "guide", "story"]
        if words.contains(where: { titleWords.contains($0.lowercased()) }) { return false }
        return capitalised >= 2
    }

    /// "GARCÍA MÁRQUEZ, GABRIEL" stays as printed apart from whitespace; catalogue matching normalises.
    static func tidyName(_ text: String) -> String {
        text.split(separator: " ").joined(separator: " ")
    }

    /// "MIT HEIDI FRIEDRICH", "Edited by Charles-Edmond Bichot", "Hrsg. von Karl Heinz": the role printed before
    /// a name is not part of it.
    static func withoutRole(_ name: String) -> String {
        var words = name.split(separator: " ").map(String.init)
        let roles: [[String]] = [["edited", "by"], ["translated", "by"], ["herausgegeben", "von"], ["hrsg.", "von"], ["hrsg", "von"],
                                 ["übersetzt", "von"], ["ubersetzt", "von"], ["mit"], ["with"], ["by"], ["hrsg."], ["hrsg"], ["ed."], ["eds."]]
        for role in roles where words.count > role.count && zip(words, role).allSatisfy({ $0.lowercased() == $1 }) {
            words.removeFirst(role.count)
            break
        }
        return words.joined(separator: " ")
    }

    /// One author per person, as a catalogue lists them: "Christina und Stanislav Grof" is Christina Grof and
    /// Stanislav Grof (a given name alone before "und", "and", "&" or "et" shares the surname after it);
    /// "BEATE HEINEN MIT HEIDI FRIEDRICH" names two people, as does "MIKAEL KROGERUS ROMAN TSCHÄPPELER": two
    /// given names the lexicon knows, each followed by a word that is none. "Ortega y Gasset" stays one name.
    static func coAuthors(_ name: String, lexicon: SpineLexicon = .shipped) -> [String] {
        let words = name.split(separator: " ").map(String.init)
        let joins = nameJoins, withs: Set<String> = ["mit", "with", "avec"]
        if let j = words.indices.first(where: { joins.contains(words[$0].lowercased()) || withs.contains(words[$0].lowercased()) }),
           j > 0, j < words.count - 1 {
            let left = Array(words[..<j]), right = Array(words[(j + 1)...])
            guard left.allSatisfy(isNameWord), right.allSatisfy(isNameWord) else { return [name] }
            let shared = joins.contains(words[j].lowercased()) && left.count == 1 && right.count >= 2
                && lexicon.isGiven(left[0]) && lexicon.isGiven(right[0])
            let first = shared ? left + [right.last!] : left
            return [first.joined(separator: " ")] + coAuthors(right.joined(separator: " "), lexicon: lexicon)
        }
        if words.count == 4, words.allSatisfy(isNameWord), lexicon.isGiven(words[0]), lexicon.isGiven(words[2]),
           !lexicon.isGiven(words[1]), !lexicon.isGiven(words[3]) {
            return [words[0...1].joined(separator: " "), words[2...3].joined(separator: " ")]
        }
        return [name]
    }

    /// "SECOND EDITION", "FIFTIETH ANNIVERSARY EDITION", "2. Auflage": printed where a name stands, not a name.
    static func isEditionStatement(_ text: String) -> Bool {
        let words = text.lowercased().split(separator: " ").map { String($0).trimmingCharacters(in: .punctuationCharacters) }
        let marks: Set<String> = ["edition", "ed", "auflage", "ausgabe", "édition", "edición", "edizione"]
        let qualifiers: Set<String> = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
                                       "fiftieth", "anniversary", "revised", "new", "expanded", "updated", "special", "international",
                                       "neue", "erweiterte", "überarbeitete", "aktualisierte", "sonderausgabe", "of", "the", "and"]
        guard words.contains(where: marks.contains) else { return false }
        return words.allSatisfy { marks.contains($0) || qualifiers.contains($0) || $0.allSatisfy(\.isNumber) || $0.isEmpty
            || ($0.dropLast(2).allSatisfy(\.isNumber) && ["st", "nd", "rd", "th"].contains(String($0.suffix(2)))) }
    }

    /// "JANE AUSTEN | PRIDE AND PREJUDICE": a name on a row of its own in the title's print, which the tagger
    /// labelled title beside the title's row. When the reading has no author and two title runs or more,
    /// a title run at either end of them that looks like a name, is one in capitals beside rows in mixed case, or
    /// is one or two surnames in smaller print than the title ("Klüpfel und Kobr | Kluftinger"), goes to the
    /// author.
    static func nameRunBesideTitle(_ runs: [SpineTagger.Run], lexicon: SpineLexicon = .shipped) -> [SpineTagger.Run] {
        let titles = runs.indices.filter { runs[$0].label == .title }
        guard titles.count >= 2, !runs.contains(where: { $0.label == .author }) else { return runs }
        var out = runs
        // Never the row a title goes on into ("Lolita lesen in | TEHERAN"). A name may be the largest print
        // ("PALAHNIUK | El Día del Ajuste").
        for t in [titles.first!, titles.last!] where runs[t].words.count <= 3 && !(titles.contains(t - 1) && endsUnfinished(runs[t - 1].words)) {
            let others = titles.filter { $0 != t }.map { runs[$0] }
            guard looksLikeName(runs[t].text) || namedInCapitals(runs[t], beside: others, lexicon: lexicon)
                || surnamePair(runs[t], beside: others, lexicon: lexicon) || smallSurname(runs[t], beside: others, lexicon: lexicon)
            else { continue }
            out[t].label = .author
            break
        }
        return out
    }

    /// "Klüpfel und Kobr | Kluftinger", "Preston & Child": two authors named by their surnames alone, joined by
    /// "und", "and", "&" or "et", in smaller print than the title beside them. Each is a name word of three
    /// letters or more the lexicon knows as a surname or not at all; a title of two nouns so joined ("Krieg
    /// und Frieden") is the largest print on its spine.
    static func surnamePair(_ run: SpineTagger.Run, beside others: [SpineTagger.Run], lexicon: SpineLexicon) -> Bool {
        let w = run.words
        guard w.count == 3, nameJoins.contains(w[1].text.lowercased()), let largest = others.map(\.size).max(),
              run.size < 0.8 * largest else { return false }
        return [w[0], w[2]].allSatisfy { isSurnameOnly($0, lexicon: lexicon) && $0.text.filter(\.isLetter).count >= 3 }
    }

    /// "Die Physiker | Dürrenmatt": a surname alone, in print under 0.8 of the title's, which the tagger took for
    /// a subtitle. One capitalised name word of four letters or more that the lexicon knows as a surname or not
    /// at all (a genre or common word is a subtitle: "Roman", "Thriller").
    static func smallSurname(_ run: SpineTagger.Run, beside others: [SpineTagger.Run], lexicon: SpineLexicon) -> Bool {
        guard run.words.count == 1, isLoneSurname(run.words[0], lexicon: lexicon), let largest = others.map(\.size).max()
        else { return false }
        return run.size < 0.8 * largest
    }

    /// "AMARTYA SEN | The Argumentative Indian": a given name no list holds, but the run is two or three words
    /// in capitals, none of them a function, genre or place word and at most one a common word, or one surname
    /// alone ("PALAHNIUK"), beside title rows in mixed case. A spine sets its name apart by case as often as by size.
    static func namedInCapitals(_ run: SpineTagger.Run, beside others: [SpineTagger.Run], lexicon: SpineLexicon) -> Bool {
        let capitals = (1...3).contains(run.words.count) && run.words.allSatisfy { w in
            isNameWord(w) && !w.text.contains(where: \.isLowercase) && lexicon.kinds(w.text).subtracting([.given, .surname, .common]).isEmpty
        }
        guard capitals, !others.isEmpty, others.allSatisfy({ $0.text.contains(where: \.isLowercase) }) else { return false }
        // "GRISCOM | Die Heilung der Gefühle": a surname alone, four letters or more and no word of any other kind,
        // not broken at a hyphen ("ZUKUNFT- | schreiben", a word the next row ends).
        if run.words.count == 1 { return isLoneSurname(run.words[0], lexicon: lexicon) }
        // A short surname is often a word somewhere too ("SEN"); a run of common words only is a title.
        let common = run.words.filter { lexicon.has($0.text, .common) }.count
        return common < run.words.count && common <= 1
    }
}
