import Foundation
import ShelfModels

/// Tells which run of a spine reading's words is the title, the author, the publisher, a series or volume
/// mark, or noise, from the words and where and how big they are printed. Word rules alone could not: "SLOW
/// HORSES" and "MICK HERRON" look alike, and "Insel" or "LEIPZIG" alone look like a title. What tells them
/// apart is print size (the title is usually largest), place along the spine (the publisher at the foot,
/// stickers at either end), case, and which words are names, common words or publishers.
///
/// A small network (`models/reading/spine-tagger-v1.json`) scores every run of words of every segment; each
/// segment is cut into the one to three runs that score best together, since author and title are often
/// read as one line. Trained by `scripts/train-spine-tagger.py` on catalogue records rendered as the reader
/// reads spines; the features here mirror its `span_features` one for one.
struct SpineTagger: Sendable {
    enum Label: Int, Sendable { case title = 0, author, publisher, series, noise }

    /// One run of a segment with its label and the network's probabilities.
    struct Run: Equatable {
        var words: [OCRWord]
        var label: Label
        var probabilities: [Double]
        var size: Double
        /// A name of a list set apart by marks (`TitleSplitter.namesListedByMarks`): one person, an author.
        var listed = false
        var text: String { words.map(\.text).joined(separator: " ") }
    }

    let mean: [Double], scale: [Double]
    let hidden: Int
    let w1: [Double], b1: [Double], w2: [Double], b2: [Double]
    let classes: Int
    let cutPenalty: Double
    let lexicon: SpineLexicon

    private struct File: Decodable {
        var labels: [String]
        var features: [String]
        var mean: [Double], scale: [Double]
        var hidden: Int
        var w1: [Double], b1: [Double], w2: [Double], b2: [Double]
        var cutPenalty: Double
    }

    static let shipped: SpineTagger = {
        do {
            return try SpineTagger(json: try ShelfModels.data("spine-tagger-v1.json", in: "reading"), lexicon: .shipped)
        } catch {
            fatalError("models/reading/spine-tagger-v1.json is damaged or missing from this build: \(error)")
        }
    }()

    init(json: Data, lexicon: SpineLexicon) throws {
        let f = try JSONDecoder().decode(File.self, from: json)
        guard f.features == Self.featureNames, f.mean.count == f.features.count, f.scale.count == f.features.count,
              f.w1.count == f.features.count * f.hidden, f.b1.count == f.hidden, f.w2.count == f.hidden * f.labels.count,
              f.b2.count == f.labels.count, f.labels.count >= 5
        else { throw CocoaError(.fileReadCorruptFile) }
        mean = f.mean; scale = f.scale; hidden = f.hidden
        w1 = f.w1; b1 = f.b1; w2 = f.w2; b2 = f.b2
        classes = f.labels.count
        cutPenalty = f.cutPenalty
        self.lexicon = lexicon
    }

    static let featureNames = [
        "relSize", "isLargest", "isSmall", "posStart", "posEnd", "atStart", "atEnd", "nearFoot", "nearHead", "footKnown",
        "share", "oneSegment", "whole", "words1", "words2", "words3", "words4plus", "logLetters", "firstGiven",
        "firstInitial", "fracGiven", "fracSurname", "lastSurname", "fracCommon", "fracFunction", "fracUnknown",
        "nameLike", "publisher", "publisherWord", "place", "genre", "volume", "hasDigit", "fracDigits", "labelLike",
        "allCaps", "lowercase", "capitalised", "caseDiffers", "endsColon", "afterColon", "short", "firstOfReading",
        "lastOfReading", "sizeRankSecond", "colonInside", "styleUnlikeReading",
    ]

    /// Reading-wide figures the features are relative to.
    struct Context {
        var maxSize: Double
        var sizes: [Double]
        var left: Double, right: Double
        var chars: Int
        var segments: Int
        /// Every word's case style (`caseStyle`), segment by segment: what the rest of the reading is printed in.
        var styles: [[Int]]
        /// The spine's foot is at the start of the reading (text running up), at its end (down), or unknown.
        var footAtStart: Bool?

        init(_ segments: [TitleSplitter.Segment], footAtStart: Bool?) {
            sizes = Array(Set(segments.map(\.size))).sorted(by: >)
            maxSize = sizes.first ?? 1
            let words = segments.flatMap(\.words)
            left = Double(words.map(\.left).min() ?? 0)
            right = Double(words.map(\.right).max() ?? 0)
            chars = words.reduce(0) { $0 + $1.text.filter { $0.isLetter || $0.isNumber }.count }
            self.segments = segments.count
            styles = segments.map { $0.words.map { SpineTagger.caseStyle($0.text) } }
            self.footAtStart = footAtStart
        }
    }

    /// Words that go with a name without being one ("Teresa de la Parra", "Ludwig van Beethoven").
    private static let particles = TitleSplitter.nameParticles

    /// 0 all capitals (two letters or more), 1 capitalised, 2 lowercase first letter, 3 no letters.
    static func caseStyle(_ word: String) -> Int {
        let letters = word.filter(\.isLetter)
        guard let first = letters.first else { return 3 }
        if letters.count >= 2 && letters.allSatisfy(\.isUppercase) { return 0 }
        return first.isUppercase ? 1 : 2
    }

    /// The style most of `styles` share (the smaller on a tie), 3 when none has letters.
    static func dominantStyle(_ styles: [Int]) -> Int {
        let lettered = styles.filter { $0 != 3 }
        return Set(lettered).min { a, b in
            let ca = lettered.filter { $0 == a }.count, cb = lettered.filter { $0 == b }.count
            return ca != cb ? ca > cb : a < b
        } ?? 3
    }

    /// "Band 2", "BAND2", "Bd.3", "Tome", "Vol.": a volume mark, its number glued on or not.
    func isVolumeWord(_ word: String) -> Bool {
        if lexicon.has(word, .volume) { return true }
        let t = SpineLexicon.fold(word).trimmingCharacters(in: CharacterSet(charactersIn: ".,:;"))
        let head = t.prefix { $0.isLetter && $0.isASCII }
        var tail = t.dropFirst(head.count)
        if tail.first == "." { tail = tail.dropFirst() }
        guard !head.isEmpty, (1...3).contains(tail.count), tail.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
        return ["band", "bd", "vol", "tome", "tomo", "teil", "nr", "t", "no", "part", "book", "livre"].contains(String(head))
    }

    /// The features of `segment.words[i..<j]`, in `featureNames` order.
    func features(_ segment: TitleSplitter.Segment, index: Int, _ i: Int, _ j: Int, _ ctx: Context) -> [Double] {
        let words = Array(segment.words[i..<j])
        let texts = words.map(\.text)
        let n = Double(texts.count)
        // The run's own print: pieces of different size the reader put on one row keep their heights.
        let size = TitleSplitter.Segment(words: words).size
        let rel = ctx.maxSize > 0 ? size / ctx.maxSize : 1
        let extent = max(1e-6, ctx.right - ctx.left)
        let ps = (Double(words[0].left) - ctx.left) / extent, pe = (ctx.right - Double(words[words.count - 1].right)) / extent
        var nearFoot = 0.0, nearHead = 0.0
        if let foot = ctx.footAtStart {
            nearFoot = (foot ? ps : pe) < 0.15 ? 1 : 0
            nearHead = (foot ? pe : ps) < 0.15 ? 1 : 0
        }
        let digitCount = texts.reduce(0) { $0 + $1.filter(\.isNumber).count }
        let letterCount = texts.reduce(0) { $0 + $1.filter(\.isLetter).count }
        let chars = digitCount + letterCount
        let kinds = texts.map(lexicon.kinds)
        let given = texts.map(lexicon.isGiven)
        let surname = kinds.map { $0.contains(.surname) }, common = kinds.map { $0.contains(.common) }
        let function = kinds.map { $0.contains(.function) }
        let unknown = texts.indices.map { !(given[$0] || surname[$0] || common[$0]) && texts[$0].contains(where: \.isLetter) }
        let styles = texts.map(Self.caseStyle)
        let firstInitial = FirstNames.isInitial(texts[0])
        let firstGiven = (given[0] && !common[0]) || firstInitial
        let nameParticles = Self.particles.union(["y", "i"])
        let nameLike = (2...4).contains(texts.count) && (given[0] || firstInitial)
            && texts.allSatisfy { [0, 1].contains(Self.caseStyle($0)) || Self.particles.contains(SpineLexicon.fold($0)) }
            && (surname.last! || unknown.last! || given.last!)
            && !(1..<texts.count).contains { function[$0] && !nameParticles.contains(SpineLexicon.fold(texts[$0])) }
        let rest = Array(segment.words[..<i]) + Array(segment.words[j...])
        let restStyles = rest.map { Self.caseStyle($0.text) }.filter { $0 != 3 }
        let spanStyle = Self.dominantStyle(styles)
        let differs = !restStyles.isEmpty && spanStyle != 3 && !restStyles.contains(spanStyle)
        // The case the rest of the reading is printed in, against this run's: "PALAHNIUK" beside "Invéntate algo".
        var others: [Int] = []
        for (k, segmentStyles) in ctx.styles.enumerated() {
            others += k == index ? Array(segmentStyles[..<i]) + Array(segmentStyles[j...]) : segmentStyles
        }
        let otherStyle = Self.dominantStyle(others)
        let unlike = otherStyle != 3 && spanStyle != 3 && spanStyle != otherStyle
        let endsColon = texts.last!.hasSuffix(":") || texts.last!.hasSuffix(",")
        let afterColon = i > 0 && (segment.words[i - 1].text.hasSuffix(":") || segment.words[i - 1].text.hasSuffix(","))
        let second = ctx.sizes.count > 1 && abs(size - ctx.sizes[1]) < 1e-9 && ctx.sizes[0] > ctx.sizes[1] * 1.05
        func b(_ x: Bool) -> Double { x ? 1 : 0 }
        func frac(_ xs: [Bool]) -> Double { Double(xs.filter { $0 }.count) / n }
        return [
            rel, b(rel >= 0.9), b(rel < 0.6), ps, pe, b(ps < 0.08), b(pe < 0.08), nearFoot, nearHead, b(ctx.footAtStart != nil),
            Double(chars) / Double(max(1, ctx.chars)), b(ctx.segments == 1), b(i == 0 && j == segment.words.count),
            b(texts.count == 1), b(texts.count == 2), b(texts.count == 3), b(texts.count >= 4),
            log1p(Double(letterCount)), b(given[0] && !common[0]), b(firstInitial),
            frac(given), frac(surname), b(surname.last!), frac(common), frac(function), frac(unknown),
            b(nameLike && firstGiven),
            b(lexicon.isPublisher(texts.joined(separator: " "))), b(kinds.contains { $0.contains(.publisherWord) }),
            b(kinds.allSatisfy { $0.contains(.place) }), b(kinds.contains { $0.contains(.genre) }),
            b(texts.contains(where: isVolumeWord)),
            b(digitCount > 0), Double(digitCount) / Double(max(1, chars)),
            b(texts.contains(where: TitleSplitter.isLabelWord) || (digitCount > 0 && texts.contains { $0.contains(".") }) || letterCount <= 2),
            b(styles.allSatisfy { $0 == 0 || $0 == 3 }), b(styles.allSatisfy { $0 == 2 || $0 == 3 }), b(styles.allSatisfy { $0 != 2 }),
            b(differs), b(endsColon), b(afterColon), b(letterCount <= 4),
            b(index == 0 && i == 0), b(index == ctx.segments - 1 && j == segment.words.count), b(second),
            b(texts.dropLast().contains { $0.hasSuffix(":") }), b(unlike),
        ]
    }

    /// The network's class probabilities for one feature vector.
    func probabilities(_ x: [Double]) -> [Double] {
        var h = b1
        for (f, value) in x.enumerated() {
            let z = (value - mean[f]) / scale[f]
            guard z != 0 else { continue }
            let row = f * hidden
            for k in 0..<hidden { h[k] += z * w1[row + k] }
        }
        var o = b2
        for k in 0..<hidden where h[k] > 0 {
            let row = k * classes
            for c in 0..<classes { o[c] += h[k] * w2[row + c] }
        }
        let top = o.max()!
        let e = o.map { exp($0 - top) }
        let sum = e.reduce(0, +)
        return e.map { $0 / sum }
    }

    /// Each segment cut into the runs that score best together (at most three; a long segment stays whole),
    /// each run with its most likely label. "mixed", the network's last class, marks a run that crosses two
    /// things: it is never a label, only a reason not to keep the run whole.
    func runs(_ segments: [TitleSplitter.Segment], footAtStart: Bool?) -> [Run] {
        let ctx = Context(segments, footAtStart: footAtStart)
        var out: [Run] = []
        for (index, segment) in segments.enumerated() {
            let n = segment.words.count
            var options: [[Range<Int>]] = [[0..<n]]
            if n <= 12 {
                for a in 1..<max(1, n) {
                    options.append([0..<a, a..<n])
                    for c in (a + 1)..<max(a + 1, n) { options.append([0..<a, a..<c, c..<n]) }
                }
            }
            var scored: [Range<Int>: [Double]] = [:]
            for option in options {
                for r in option where scored[r] == nil {
                    scored[r] = probabilities(features(segment, index: index, r.lowerBound, r.upperBound, ctx))
                }
            }
            // A run scores by how sure the network is that it is one whole thing (not "mixed").
            var chosen = options[0], top = -Double.infinity
            for option in options {
                let score = option.reduce(0) { $0 + log(max(1e-9, 1 - scored[$1]![5])) } - cutPenalty * Double(option.count - 1)
                if score > top { top = score; chosen = option }
            }
            for r in chosen {
                let p = scored[r]!
                let label = Label(rawValue: p.prefix(5).indices.max { p[$0] < p[$1] }!)!
                let words = Array(segment.words[r])
                out.append(Run(words: words, label: label, probabilities: p, size: TitleSplitter.Segment(words: words).size))
            }
        }
        return out
    }
}

/// The split of text that comes without layout (one commercial-OCR line per spine, as in the Library
/// Dataset's annotations): every word the same size, one line after another. Public so `eval-reading
/// --annotations` measures the tagger on real readings of real spines.
public enum SpineTextSplit {
    public static func split(lines: [String]) -> (title: String?, authors: [String]) {
        var ocrLines: [OCRLine] = []
        for (row, text) in lines.enumerated() {
            var x = 0
            let words = text.split(whereSeparator: \.isWhitespace).map { (word: Substring) -> OCRWord in
                defer { x += 12 * word.count + 8 }
                return OCRWord(text: String(word), confidence: 90, left: x, top: 30 * row, right: x + 12 * word.count,
                               bottom: 30 * row + 20, fromDictionary: false)
            }
            guard !words.isEmpty else { continue }
            ocrLines.append(OCRLine(words: words, left: 0, top: 30 * row, right: x, bottom: 30 * row + 20))
        }
        let split = TitleSplitter.split(TitleSplitter.segments(ocrLines))
        return (split.title, split.authors)
    }
}
