import Foundation
import ShelfModels

/// What a spine's words are known to be: given names and surnames of 38 languages, common words, and the
/// genre, volume and publisher words and publishers spines print, from `models/reading/` (made by
/// `scripts/train-spine-tagger.py` from Faker's name and word lists and the Library Dataset catalogue, both MIT).
/// The tagger's features and the review's name test read the same lists, so both agree on what a name is.
struct SpineLexicon: Sendable {
    /// A word's kinds, as letters in `lexicon-v1.tsv`.
    struct Kinds: OptionSet, Sendable {
        let rawValue: UInt16
        static let given = Kinds(rawValue: 1 << 0)      // g
        static let surname = Kinds(rawValue: 1 << 1)    // s
        static let common = Kinds(rawValue: 1 << 2)     // c
        static let function = Kinds(rawValue: 1 << 3)   // f
        static let genre = Kinds(rawValue: 1 << 4)      // k
        static let volume = Kinds(rawValue: 1 << 5)     // v
        static let publisherWord = Kinds(rawValue: 1 << 6)  // q
        static let place = Kinds(rawValue: 1 << 7)      // p

        init(rawValue: UInt16) { self.rawValue = rawValue }

        init(letters: Substring) {
            var kinds: Kinds = []
            for c in letters {
                switch c {
                case "g": kinds.insert(.given)
                case "s": kinds.insert(.surname)
                case "c": kinds.insert(.common)
                case "f": kinds.insert(.function)
                case "k": kinds.insert(.genre)
                case "v": kinds.insert(.volume)
                case "q": kinds.insert(.publisherWord)
                case "p": kinds.insert(.place)
                default: break
                }
            }
            self = kinds
        }
    }

    let words: [String: Kinds]
    let publishers: Set<String>
    /// The one-word names long enough to be told when damaged (`isPublisher(_:damaged:)`).
    let oneWordPublishers: [String]

    /// The shipped lists; a missing or unreadable file is a broken install, said once by name.
    static let shipped: SpineLexicon = {
        do {
            let tsv = String(decoding: try ShelfModels.data("lexicon-v1.tsv", in: "reading"), as: UTF8.self)
            let pubs = String(decoding: try ShelfModels.data("publishers-v1.txt", in: "reading"), as: UTF8.self)
            return SpineLexicon(tsv: tsv, publishers: pubs)
        } catch {
            fatalError("models/reading is damaged or missing from this build: \(error)")
        }
    }()

    init(tsv: String, publishers: String) {
        var words: [String: Kinds] = [:]
        words.reserveCapacity(tsv.utf8.count / 9)  // an entry takes 10-12 bytes: no regrowth while loading
        for line in tsv.split(separator: "\n") {
            guard let tab = line.firstIndex(of: "\t") else { continue }
            words[String(line[..<tab])] = Kinds(letters: line[line.index(after: tab)...])
        }
        self.words = words
        self.publishers = Set(publishers.split(separator: "\n").map(String.init))
        self.oneWordPublishers = self.publishers.filter { $0.count >= 6 && !$0.contains(" ") }.sorted()
    }

    /// Lowercase, accents dropped, ß as ss: the key of every look-up (as `fold` in the training script).
    static func fold(_ text: String) -> String {
        text.lowercased().replacingOccurrences(of: "ß", with: "ss").folding(options: .diacriticInsensitive, locale: nil)
    }

    /// A word's key: folded letters only, so "Scheidegger:" and "O'Brien" find their entries.
    static func key(_ word: String) -> String {
        String(fold(word).filter(\.isLetter))
    }

    /// A publisher's key: folded words of letters and digits, "&" and "-" as spaces.
    static func phraseKey(_ text: String) -> String {
        fold(text).replacingOccurrences(of: "&", with: " ").replacingOccurrences(of: "-", with: " ")
            .split(whereSeparator: \.isWhitespace).map { String($0.filter { $0.isLetter || $0.isNumber }) }
            .filter { !$0.isEmpty }.joined(separator: " ")
    }

    func kinds(_ word: String) -> Kinds {
        let k = Self.key(word)
        return k.isEmpty ? [] : words[k] ?? []
    }

    func has(_ word: String, _ kind: Kinds) -> Bool { kinds(word).contains(kind) }

    /// "Jan-Philipp", "Jean-Paul": a double given name counts by its first part.
    func isGiven(_ word: String) -> Bool {
        has(word, .given) || (word.contains("-") && has(String(word.split(separator: "-").first ?? ""), .given))
    }

    /// "Penguin Books", "Insel Verlag", "BASTEI LUBBE": a publisher's name alone, with or without its cue word.
    /// With `damaged`, also a one-word name of six letters or more as a reader gives it when the name is
    /// printed to the very end of the spine: a letter lost at either end or one read wrong ("OLDMANN",
    /// "SOLDMANN", "HANSE"), two lost of a name of eight letters or more ("LDMANN"), or up to two marks
    /// beyond it ("GOLDMANNM"). Without `misread`, no letter read wrong: a surname is often one letter off a
    /// publisher's name ("Fontane", "Fontana") where lost letters seldom make one.
    func isPublisher(_ text: String, damaged: Bool = false, misread: Bool = true) -> Bool {
        let k = Self.phraseKey(text)
        guard !k.isEmpty else { return false }
        if publishers.contains(k) { return true }
        if damaged, k.count >= 5, !k.contains(" "), words[k] == nil {
            let word = Array(k.unicodeScalars)
            for name in oneWordPublishers {
                let p = Array(name.unicodeScalars)
                if word.count == p.count - 1 && (p.dropFirst().elementsEqual(word) || p.dropLast().elementsEqual(word)) { return true }
                if p.count >= 8 && word.count == p.count - 2 && (p.dropFirst(2).elementsEqual(word) || p.dropLast(2).elementsEqual(word)) { return true }
                if word.count > p.count && word.count <= p.count + 2 && word.starts(with: p) { return true }
                if misread && word.count == p.count && zip(word, p).filter({ $0 != $1 }).count == 1 { return true }
            }
        }
        for cue in [" verlag", " books", " editions", " editores", " editorial", " edicions", " ediciones", " press", " taschenbuch", " comics"]
        where k.hasSuffix(cue) {
            if publishers.contains(String(k.dropLast(cue.count)).trimmingCharacters(in: .whitespaces)) { return true }
        }
        return false
    }
}
