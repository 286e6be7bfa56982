import Foundation

/// Splits what Tesseract read on a spine into title, authors and the rest. Spines print the title biggest
/// and the author as a name, in either order, with publisher marks and call numbers around them; this
/// guesses from text size and name patterns and keeps everything in the raw text for the catalogue matcher.
enum TitleSplitter {
    /// A run of words printed together: a line, or part of a line cut at a wide gap.
    struct Segment: Equatable {
        var words: [OCRWord]
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
            line.words = line.words.flatMap(splitAtSeparators).flatMap(splitJoinedName)
            var current: [OCRWord] = []
            for var word in line.words {
                // "Padura/ EL HOMBRE...": a slash separates author and title as a gap would.
                let slashEnds = word.text.count > 1 && word.text.hasSuffix("/")
                if word.text == "/" {
                    if !current.isEmpty { out.append(Segment(words: current)) }
                    current = []
                    continue
                }
                if slashEnds { word.text.removeLast() }
                defer {
                    if slashEnds {
                        out.append(Segment(words: current))
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

    /// "UlrikeKeller-Knobelspies": OCR lost the space after a given name; put it back so the name is seen.
    static func splitJoinedName(_ word: OCRWord) -> [OCRWord] {
        let chars = Array(word.text)
        guard chars.count >= 6, chars[0].isUppercase else { return [word] }
        for i in 3..<(chars.count - 2) where chars[i].isUppercase && chars[i - 1].isLowercase && chars[i + 1].isLowercase {
            let given = String(chars[..<i])
            guard FirstNames.contains(given) else { continue }
            var first = word, rest = word
            let cut = word.left + (word.right - word.left) * i / chars.count
            first.text = given; first.right = cut
            rest.text = String(chars[i...]); rest.left = cut
            return [first, rest]
        }
        return [word]
    }

    static func split(_ segments: [Segment]) -> Split {
        // Library labels and stray marks out; then each segment into author name and the rest.
        var parts: [(segment: Segment, isName: Bool)] = []
        var minor: [Segment] = []
        for segment in segments {
            let cleaned = Segment(words: withoutLabels(segment.words))
            guard !cleaned.words.isEmpty, !isNoise(cleaned.text) else { continue }
            // Four letters or fewer ("N Pal", "Tea N", a stray "wed") or a publisher's name alone ("HEYNE",
            // "Penguin Books"): a label or a fragment, kept only when nothing longer was read.
            if cleaned.text.filter({ $0.isLetter || $0.isNumber }).count <= 4 || Publishers.isPublisher(cleaned.text) {
                minor.append(cleaned)
                continue
            }
            for piece in splitAtCaseChange(cleaned) {
                if Publishers.isPublisher(piece.segment.text) { continue }  // "... Herzenhoren HEYNE"
                parts += piece.isName ? [(piece.segment, true)] : splitName(piece.segment)
            }
        }
        if parts.isEmpty { parts = minor.map { ($0, false) } }
        guard !parts.isEmpty else { return Split(title: nil, authors: [], confidence: 0) }
        // A surname alone in capitals ("PALAHNIUK") beside a title in mixed case is the author: spines set
        // the two apart by case as often as by size.
        if parts.contains(where: { !$0.isName && $0.segment.text.contains(where: \.isLowercase) }) {
            for i in parts.indices where !parts[i].isName && isCapitalsSurname(parts[i].segment) {
                parts[i].isName = true
            }
        }
        // Name pieces of one word each on separate lines ("CHUCK" / "PALAHNIUK") are one name.
        let single = parts.indices.filter { parts[$0].isName }
        if single.count == 2, single.allSatisfy({ parts[$0].segment.words.count == 1 }) {
            parts[single[0]].segment = Segment(words: parts[single[0]].segment.words + parts[single[1]].segment.words)
            parts.remove(at: single[1])
        }
        let names = parts.filter(\.isName).map(\.segment)
        var others = parts.filter { !$0.isName }.map(\.segment)
        // A short title ("DUNE") beside the author's name: the short pieces are all that is left to be it.
        if others.isEmpty && !names.isEmpty { others = minor }
        // The title: the biggest print that is not a name; a name only when nothing else was read.
        let pool = others.isEmpty ? names : others
        let maxSize = pool.map(\.size).max() ?? 0
        let titleParts = pool.filter { $0.size >= 0.8 * maxSize }
        let title = titleParts.map(\.text).joined(separator: " ")
        let authors = others.isEmpty ? [] : names.map { tidyName($0.text) }
        let titleChars = title.filter { $0.isLetter || $0.isNumber }.count
        let chars = titleParts.reduce(0) { $0 + $1.text.count }
        var confidence = chars == 0 ? 0 : titleParts.reduce(0) { $0 + $1.confidence * Double($1.text.count) } / Double(chars)
        if titleChars < 4 { confidence *= 0.5 }
        return Split(title: titleChars == 0 ? nil : title, authors: authors, confidence: min(1, max(0, confidence)))
    }

    /// One word of five or more letters, all capitals, no digits: how spines print a surname alone.
    static func isCapitalsSurname(_ segment: Segment) -> Bool {
        guard segment.words.count == 1 else { return false }
        let letters = segment.text.filter(\.isLetter)
        return letters.count >= 5 && letters.count == segment.text.filter({ !".,'’-".contains($0) }).count
            && letters.allSatisfy(\.isUppercase)
    }

    /// "ESCRITOS CORSARIOS Pasolini", "PALAHNIUK Invéntate algo": a run in capitals beside a run in mixed
    /// case are two things printed differently, usually title and author. Cut where the case style changes,
    /// when the shorter side is one or two capitalised words (the author's name) and the other side longer.
    static func splitAtCaseChange(_ segment: Segment) -> [(segment: Segment, isName: Bool)] {
        let words = segment.words
        guard words.count >= 3 else { return [(segment, false)] }
        func caps(_ w: OCRWord) -> Bool {
            let letters = w.text.filter(\.isLetter)
            return letters.count >= 2 && letters.allSatisfy(\.isUppercase)
        }
        let styles = words.map(caps)
        for cut in [1, 2, words.count - 2, words.count - 1] where cut > 0 && cut < words.count {
            let head = words[..<cut], tail = words[cut...]
            let (short, long) = head.count <= tail.count ? (head, tail) : (tail, head)
            guard short.count <= 2, long.count >= 2 else { continue }
            let shortStyle = styles[short.startIndex], longStyles = Set(styles[long.startIndex..<long.endIndex])
            guard short.allSatisfy({ caps($0) == shortStyle }), longStyles == [!shortStyle] else { continue }
            guard short.allSatisfy({ $0.text.first?.isUppercase == true && $0.text.filter(\.isLetter).count >= 3 }) else { continue }
            return [(Segment(words: Array(head)), head.count == short.count), (Segment(words: Array(tail)), head.count != short.count)]
        }
        return [(segment, false)]
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
    /// characters at the ends: library and shop labels, not the book's own text.
    static func withoutLabels(_ words: [OCRWord]) -> [OCRWord] {
        var out: [OCRWord] = []
        var i = 0
        while i < words.count {
            let t = words[i].text
            let letters = t.filter(\.isLetter).count, digits = t.filter(\.isNumber).count
            // "N Pam": a lone capital then a 2-4 letter capitalised abbreviation.
            if t.count == 1, t.first?.isUppercase == true, i + 1 < words.count {
                let next = words[i + 1].text.filter(\.isLetter)
                if (2...4).contains(next.count), next.first?.isUppercase == true, next.dropFirst().allSatisfy(\.isLowercase) {
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
        while let first = out.first, first.text.filter({ $0.isLetter || $0.isNumber }).count <= 1 || first.text.allSatisfy({ $0.isNumber }) {
            out.removeFirst()
        }
        while let last = out.last, last.text.filter({ $0.isLetter || $0.isNumber }).count <= 1 || last.text.allSatisfy({ $0.isNumber }) {
            out.removeLast()
        }
        return out
    }

    /// Spine lines often run "Author Title" or "Title Author" with no gap: a two- or three-word run at either
    /// end that starts with a given name or initials is taken for the author.
    static func splitName(_ segment: Segment) -> [(segment: Segment, isName: Bool)] {
        let words = segment.words
        if looksLikeName(segment.text) { return [(segment, true)] }
        guard words.count >= 3 else { return [(segment, false)] }
        func isNameRun(_ run: ArraySlice<OCRWord>) -> Bool {
            guard let first = run.first else { return false }
            return (FirstNames.contains(first.text) || FirstNames.isInitial(first.text)) && looksLikeName(run.map(\.text).joined(separator: " "))
        }
        // Prefix: prefer three words only when the title then starts with a function word ("... El meu").
        for n in [4, 3, 2] where words.count > n {
            let prefix = words[..<n]
            if n >= 3 && !particleOrArticle(words[n].text) && !(n == 4 && hasParticle(prefix)) { continue }
            if isNameRun(prefix) {
                return [(Segment(words: Array(prefix)), true), (Segment(words: Array(words[n...])), false)]
            }
        }
        for n in [4, 3, 2] where words.count > n {
            let suffix = words[(words.count - n)...]
            if isNameRun(suffix) {
                return [(Segment(words: Array(words[..<(words.count - n)])), false), (Segment(words: Array(suffix)), true)]
            }
        }
        return [(segment, false)]
    }

    private static let articles: Set<String> = [
        "el", "la", "los", "las", "lo", "un", "una", "the", "a", "an", "les", "els", "l", "le", "il", "der", "die", "das",
    ]

    /// "TERESA DE LA PARRA": a name with a particle inside.
    static func hasParticle(_ words: ArraySlice<OCRWord>) -> Bool {
        words.dropFirst().contains { particles.contains($0.text.lowercased()) }
    }

    static func particleOrArticle(_ word: String) -> Bool {
        articles.contains(word.lowercased().trimmingCharacters(in: .punctuationCharacters))
    }

    /// Call numbers, prices, years and single letters: printed on spines, never a title.
    static func isNoise(_ text: String) -> Bool {
        let letters = text.filter(\.isLetter).count
        if letters == 0 { return true }
        let compact = text.filter { !$0.isWhitespace }
        if compact.count <= 2 { return true }
        // Mostly digits and symbols (e.g. "843.914 GAR").
        return Double(letters) / Double(compact.count) < 0.5
    }

    private static let particles: Set<String> = ["de", "del", "la", "le", "van", "von", "der", "da", "di", "du", "y", "i", "and", "&"]

    /// Two to five words, capitalised or initials, no digits, starting with a given name or initials:
    /// "Gabriel García Márquez", "J. R. R. TOLKIEN"; not "Silent Spring".
    static func looksLikeName(_ text: String) -> Bool {
        let words = text.split(separator: " ").map(String.init)
        guard (2...5).contains(words.count), !text.contains(where: \.isNumber) else { return false }
        guard FirstNames.contains(words[0]) || FirstNames.isInitial(words[0]) else { return false }
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
}
