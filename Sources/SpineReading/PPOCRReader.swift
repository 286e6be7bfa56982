import Foundation
import OnnxRuntime
import PPOCR
import ShelfImage

/// How a spine crop is read with PP-OCR. Public so `eval-reading` can switch steps and measure them.
public struct PPOCROptions: Sendable, Equatable {
    /// Lines whose mean character confidence is below this are dropped as garbage.
    public var minLineConfidence: Double = 0.5
    /// Words below this mean character confidence are dropped from a kept line.
    public var minWordConfidence: Double = 0.4
    /// At most this many of the biggest lines are read both ways round to decide which way up the spine
    /// is. Reading every line twice would double the recognizer's time for no gain: the lines of one spine
    /// share a direction.
    public var orientationLines: Int = 3
    /// The vote stops early once one way scores this many times the other (and at least three confident
    /// letters): a clear title line settles it.
    public var decisiveRatio: Double = 2
    /// Lines are cut out at most this many pixels high: the recognizer works at 48 px, so more only costs.
    public var maxLineHeight: Int = 96
    /// Narrowest recognizer input: PaddleOCR pads every line to 320 px; shorter padding saves time on
    /// short words.
    public var recognizerMinWidth: Int = 320
    /// A gap this many line heights wide or more between two letters read on one line is looked at again
    /// (`PPOCRSpine.fillGaps`): the small "of the" set between a title's large words. Zero looks at none. The
    /// small words found on the photos sat in gaps of 1.7 and 2.7 line heights; letter-spaced capitals leave
    /// gaps of 0.9 to 1.3 (four in five of the 176 gaps of 0.9 or more on the shared real photos), each one
    /// more detector run for nothing.
    public var gapWidth: Double = 1.3
    /// Words read in such a gap below this mean confidence are left out.
    public var minGapConfidence: Double = 0.5
    public var detector = TextDetector.Options()

    public init() {}
}

/// The embedded reader on PP-OCR (ONNX Runtime): text lines found by the DB detector, each line read by
/// the recognizer, the spine's direction chosen by which way round the recognizer is surer, then the
/// lines split into title and authors by `TitleSplitter` as for Tesseract.
///
/// PP-OCR's angle classifier is not used: on spines it scores the upside-down line almost as high as the
/// right one, while the recognizer's own confidence tells the two apart (the measurement: 63%
/// right orientation with the classifier against 81% possible).
public final class PPOCRReader: SpineReader {
    public let name = "ppocr"
    /// `ppocr-v5det-v6rec/onnxruntime-1.32.0`: part of the cache key.
    public let model: String
    public let promptVersion: String
    public let options: PPOCROptions
    public let detector: TextDetector
    let recognizer: TextRecognizer
    private let limiter: ConcurrencyLimiter

    /// Loads the runtime and both models; throws one `ReaderError` naming the missing or broken file and
    /// the command that fetches it.
    public init(models: PPOCRModels, concurrency: Int = 4, options: PPOCROptions = PPOCROptions()) throws(ReaderError) {
        do {
            let runtime = try OnnxRuntime.load(libraryPath: models.runtimeLibrary)
            var detector = TextDetector(session: try OnnxSession(runtime: runtime, modelPath: models.detector))
            detector.options = options.detector
            self.detector = detector
            var recognizer = try TextRecognizer(session: try OnnxSession(runtime: runtime, modelPath: models.recognizer),
                                                dictionaryPath: models.dictionary)
            recognizer.minWidth = options.recognizerMinWidth
            self.recognizer = recognizer
            model = "\(models.name)/onnxruntime-\(runtime.version)"
        } catch {
            throw ReaderError.ocrEngine(error.message)
        }
        self.options = options
        promptVersion = options == PPOCROptions() ? "ppocr-v2" : "ppocr-custom"
        limiter = ConcurrencyLimiter(limit: concurrency)
    }

    public func read(_ crops: [SpineCrop]) async -> [Reading] {
        await withTaskGroup(of: (Int, Reading).self) { group in
            for (i, crop) in crops.enumerated() {
                group.addTask { (i, await self.limiter.run { await self.readBlocking(crop) }) }
            }
            var out = [Reading?](repeating: nil, count: crops.count)
            for await (i, r) in group { out[i] = r }
            return out.map { $0! }
        }
    }

    /// Inference blocks for tens of milliseconds: it runs on a Dispatch thread, not on Swift's
    /// cooperative pool, which it would starve. The limiter bounds how many run at once.
    private func readBlocking(_ crop: SpineCrop) async -> Reading {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: self.readNow(crop))
            }
        }
    }

    /// Reads one crop on the calling thread.
    public func readNow(_ crop: SpineCrop) -> Reading {
        do {
            let (split, raw, runsUp) = try PPOCRSpine.read(crop.image, detector: detector, recognizer: recognizer, options: options)
            return Reading.fromSplit(split, spineID: crop.id, rawText: raw, reader: name, model: model,
                                     promptVersion: promptVersion, textRunsUp: runsUp)
        } catch {
            return Reading.unread(spineID: crop.id, reason: error.message, reader: name, model: model, promptVersion: promptVersion)
        }
    }
}

/// The per-crop steps, kept apart from the reader so they are plain functions of their inputs.
enum PPOCRSpine {
    /// A line cut out of the spine, in the reading frame (the spine turned so its text runs left to right).
    struct Line {
        var rect: RotatedRect
        var image: RGBImage
    }

    static func read(_ image: RGBImage, detector: TextDetector, recognizer: TextRecognizer, options: PPOCROptions)
        throws(OnnxRuntimeError) -> (split: TitleSplitter.Split, raw: String, textRunsUp: Bool?)
    {
        guard image.width >= 8, image.height >= 8 else {
            return (TitleSplitter.Split(title: nil, authors: [], confidence: 0), "", nil)
        }
        // English spines mostly read top to bottom, many European ones bottom to top. Turning the crop
        // counter-clockwise makes top-to-bottom text run left to right; the other direction then comes out
        // upside down, which the orientation vote below catches.
        let standing = image.height >= image.width
        let along = try read(frame: standing ? image.rotated(.counterClockwise90) : image, footKnown: true,
                             detector: detector, recognizer: recognizer, options: options)
        // "Paolini", "RYAN": many spines print the author's name across the spine at its top, level as the
        // photo stands, and the title along it. With no author read along, a name read across the top is the
        // author, and the first line of what was read.
        if standing, along.split.title != nil, along.split.authors.isEmpty,
           let name = try nameAcrossTop(image, along: along.raw, detector: detector, recognizer: recognizer, options: options) {
            var split = along.split
            split.authors = [name]
            return (split, name + "\n" + along.raw, along.textRunsUp)
        }
        // A thick book may print everything across its spine, in short rows one under the other ("Silke
        // Redolfi / Frauen / bauen Staat / NZZ Verlag"): with nothing read along it, those rows are the reading,
        // read in the crop's own frame. Where the foot is is then unknown.
        guard standing, along.raw.isEmpty, along.acrossLines > 0 else { return (along.split, along.raw, along.textRunsUp) }
        let across = try read(frame: image, footKnown: false, detector: detector, recognizer: recognizer, options: options)
        return across.raw.isEmpty ? (along.split, along.raw, along.textRunsUp) : (across.split, across.raw, nil)
    }

    /// Lines across the spine (call-number labels, stacked letters) are not the title's direction. A box
    /// whose long side runs across counts however near square it is: "EMILY / TESH", printed in two short rows
    /// across a spine's foot, makes one such box, which read along the spine gave "ENSY" in the largest print.
    static func runsAcross(_ rect: RotatedRect) -> Bool { rect.isVertical }

    /// The name printed across a standing spine's top (`image`: the crop as it stands; `along`: what was read
    /// along it). The detector finds print at right angles to its training poorly, so the top fifth is looked
    /// at again level, as the photo stands, at least 320 px wide (a thin spine's name is a few pixels high);
    /// its one to three lines that run across the spine, top to bottom, are each read either way round (the
    /// surer kept, and only when sure: a spine's top holds logos and scratches too). With no line found there,
    /// `nameInBands` reads the top without the detector.
    static func nameAcrossTop(_ image: RGBImage, along: String, detector: TextDetector, recognizer: TextRecognizer,
                              options: PPOCROptions) throws(OnnxRuntimeError) -> String? {
        let cut = image.cropped(x: 0, y: 0, width: image.width, height: min(image.height, max(8, image.height / 5)))
        let grow = 320 / Double(cut.width)
        let top = grow > 1 ? cut.resized(width: 320, height: Int((Double(cut.height) * grow).rounded())) : cut
        let lines = try detector.detect(top).map(\.rect).filter { !$0.isVertical }.sorted { $0.center.y < $1.center.y }
        if lines.isEmpty { return try nameInBands(image, along: along, recognizer: recognizer) }
        guard lines.count <= 3 else { return nil }
        var texts: [String] = []
        for rect in lines {
            let line = lineImage(rect, in: top, options: options)
            let pair = try recognizer.recognize([line, line.rotated(.half)])
            let best = pair[0].confidence >= pair[1].confidence ? pair[0] : pair[1]
            guard best.confidence >= 0.8 else { return nil }
            texts.append(best.text)
        }
        return name(across: texts, along: along)
    }

    /// The name across the top when the detector drew no line there: "CESARE" over "CLOWN IN A CORNFIELD",
    /// in letters a few pixels high. Bands across the top fifth, each `bandHeight` of the spine's width high
    /// and `bandStep` apart (a name across a spine fits its width, so its letters are about a fifth of it
    /// high), go straight to the recognizer, both ways round in one batch. The surest reading that is a name,
    /// at `bandConfidence` or more, is the author: bands over a number or a logo read sure too, so the name
    /// test decides, not the confidence alone.
    static func nameInBands(_ image: RGBImage, along: String, recognizer: TextRecognizer) throws(OnnxRuntimeError) -> String? {
        let bands = topBands(width: image.width, height: image.height).flatMap { y, h -> [RGBImage] in
            let band = image.cropped(x: 0, y: y, width: image.width, height: h)
            return [band, band.rotated(.half)]
        }
        guard !bands.isEmpty else { return nil }
        let read = try recognizer.recognize(bands)
        return surestName(read.map { ($0.text, $0.confidence) }, along: along)
    }

    static let bandHeight = 0.3, bandStep = 0.1, bandConfidence = 0.85

    /// Where `nameInBands` looks: (top, height) of each band in a `width` x `height` standing crop.
    static func topBands(width: Int, height: Int) -> [(y: Int, height: Int)] {
        let w = Double(width), band = max(4, Int(bandHeight * w)), step = max(2, Int(bandStep * w))
        let limit = min(height, max(8, height / 5))
        return stride(from: 0, through: limit - band, by: step).map { ($0, band) }
    }

    /// Of the bands' readings, the surest at `bandConfidence` or more that `name(across:along:)` takes.
    static func surestName(_ readings: [(text: String, confidence: Double)], along: String) -> String? {
        readings.filter { $0.confidence >= bandConfidence }
            .sorted { $0.confidence > $1.confidence }
            .lazy.compactMap { name(across: [$0.text], along: along) }.first
    }

    /// The lines read across a spine's top as one name, when they look like one: one to three words, each
    /// capitalised and letters only, no publisher, no function, genre or volume word, at least one the lexicon
    /// knows as a name or not at all, and none of it read along the spine already (a wide spine's title rows
    /// are read along it and across).
    static func name(across texts: [String], along: String, lexicon: SpineLexicon = .shipped) -> String? {
        let words = texts.joined(separator: " ").split(separator: " ").map(String.init)
        guard (1...3).contains(words.count), words.joined().filter(\.isLetter).count >= 3 else { return nil }
        let name = words.joined(separator: " ")
        func letters(_ s: String) -> String { SpineLexicon.fold(s).filter(\.isLetter) }
        let seen = letters(along)
        guard words.allSatisfy(TitleSplitter.isNameWord), !lexicon.isPublisher(name, damaged: true),
              words.contains(where: { w in
                  let kinds = lexicon.kinds(w)
                  return kinds.isEmpty || kinds.contains(.given) || kinds.contains(.surname)
              }),
              words.allSatisfy({ lexicon.kinds($0).isDisjoint(with: [.function, .genre, .volume]) }),
              !words.contains(where: { letters($0).count >= 3 && seen.contains(letters($0)) })
        else { return nil }
        return name
    }

    /// A detected line cut out level, `maxLineHeight` high at most, its length in proportion.
    static func lineImage(_ rect: RotatedRect, in frame: RGBImage, options: PPOCROptions) -> RGBImage {
        let thickness = max(2, rect.thickness), length = max(2, rect.length)
        let height = min(options.maxLineHeight, Int(thickness.rounded()))
        let width = max(2, Int((length * Double(height) / thickness).rounded()))
        return frame.warped(rect.quad, width: width, height: height)
    }

    /// Reads the lines that run left to right in `frame` (either way round), and counts the word-long lines
    /// that run across them.
    static func read(frame: RGBImage, footKnown: Bool, detector: TextDetector, recognizer: TextRecognizer, options: PPOCROptions)
        throws(OnnxRuntimeError) -> (split: TitleSplitter.Split, raw: String, textRunsUp: Bool?, acrossLines: Int)
    {
        let none = TitleSplitter.Split(title: nil, authors: [], confidence: 0)
        let found = try detector.detect(frame)
        let acrossLines = found.filter { runsAcross($0.rect) }.count
        let lines: [Line] = found.filter { !runsAcross($0.rect) }.map { Line(rect: $0.rect, image: lineImage($0.rect, in: frame, options: options)) }
        guard !lines.isEmpty else { return (none, "", nil, acrossLines) }

        // Orientation: the biggest lines read both ways round, one at a time, until one way is clearly
        // surer (or `orientationLines` were read). Most spines are decided by their title line alone.
        let order = lines.indices.sorted { lines[$0].rect.length * lines[$0].rect.thickness > lines[$1].rect.length * lines[$1].rect.thickness }
        func weight(_ r: RecognizedText) -> Double {
            r.characters.reduce(0) { $0 + ($1.text.first.map { $0.isLetter || $0.isNumber } == true ? $1.confidence * $1.confidence : 0) }
        }
        var upright = 0.0, flipped = 0.0
        var voted: [(index: Int, upright: RecognizedText, flipped: RecognizedText)] = []
        for i in order.prefix(max(1, options.orientationLines)) {
            let pair = try recognizer.recognize([lines[i].image, lines[i].image.rotated(.half)])
            voted.append((i, pair[0], pair[1]))
            upright += weight(pair[0])
            flipped += weight(pair[1])
            let (high, low) = (max(upright, flipped), min(upright, flipped))
            if high >= 3 && high >= options.decisiveRatio * low { break }
        }
        let flip = flipped > upright

        var texts = [RecognizedText?](repeating: nil, count: lines.count)
        for v in voted { texts[v.index] = flip ? v.flipped : v.upright }
        let rest = lines.indices.filter { texts[$0] == nil }
        if !rest.isEmpty {
            let read = try recognizer.recognize(rest.map { flip ? lines[$0].image.rotated(.half) : lines[$0].image })
            for (k, i) in rest.enumerated() { texts[i] = read[k] }
        }
        if options.gapWidth > 0 {
            for i in lines.indices {
                guard let text = texts[i], text.confidence >= options.minLineConfidence else { continue }
                texts[i] = try fillGaps(text, line: lines[i].image, turned: flip, detector: detector, recognizer: recognizer,
                                        options: options)
            }
        }

        // Lines in the reading frame (turned half round when flipped), top to bottom.
        var ocrLines: [OCRLine] = []
        for (i, line) in lines.enumerated() {
            guard let text = texts[i], text.confidence >= options.minLineConfidence else { continue }
            var rect = line.rect
            if flip { rect.center = Point(x: Double(frame.width) - rect.center.x, y: Double(frame.height) - rect.center.y) }
            let words = words(of: text, in: rect, minConfidence: options.minWordConfidence)
            guard !words.isEmpty else { continue }
            ocrLines.append(OCRLine(words: words, left: words.map(\.left).min()!, top: words.map(\.top).min()!,
                                    right: words.map(\.right).max()!, bottom: words.map(\.bottom).max()!))
        }
        ocrLines = rows(ocrLines)
        let raw = ocrLines.map(\.text).joined(separator: "\n")
        // Flipped, the text runs up the spine: the reading starts at its foot.
        return (TitleSplitter.split(TitleSplitter.segments(blocks(ocrLines)), footAtStart: footKnown ? flip : nil), raw, flip,
                acrossLines)
    }

    /// Many spines set a title's small words between its large ones, smaller or stacked: "YEAR of/the
    /// REAPER", "THE BOYS in the BOAT". The detector draws one line over the whole title, and at the
    /// recognizer's 48 px the small words vanish ("YEARREAPER", "BOYSBOAT"); what is left of them is a gap
    /// between two letters, `gapWidth` line heights or wider. Each such gap is cut from the line (`line`, turned
    /// half round when `turned`, as the recognizer read it; turned only once a gap is found), enlarged, and its
    /// own lines found and read (a line across it, "of the" turned on its side, either way round). What it
    /// reads goes in only when every word is a function word ("in", "of", "the", "der", "de": two letters or
    /// more, or "&"), or runs of them ("INTHE"): the gaps in a letter-spaced word, a logo or an ornament read
    /// as anything else stay as they were.
    static func fillGaps(_ text: RecognizedText, line: RGBImage, turned: Bool = false, detector: TextDetector,
                         recognizer: TextRecognizer, options: PPOCROptions) throws(OnnxRuntimeError) -> RecognizedText {
        let width = Double(line.width), height = Double(line.height)
        lazy var read = turned ? line.rotated(.half) : line
        guard height >= 8, text.characters.count >= 2 else { return text }
        let letters = text.characters.indices.filter { !text.characters[$0].text.allSatisfy(\.isWhitespace) }
        var characters = text.characters
        // From the last gap back, so insertions leave the earlier indices where they were.
        for (a, b) in zip(letters, letters.dropFirst()).reversed() {
            let (pa, pb) = (text.characters[a].position, text.characters[b].position)
            guard (pb - pa) * width >= options.gapWidth * height else { continue }
            let x0 = Int((pa * width + 0.25 * height).rounded()), x1 = Int((pb * width - 0.25 * height).rounded())
            guard x1 - x0 >= 4 else { continue }
            let words = try gapWords(read.cropped(x: x0, y: 0, width: x1 - x0, height: line.height),
                                     detector: detector, recognizer: recognizer, options: options)
            guard !words.isEmpty else { continue }
            // The words spread over the gap, a space on either side of each.
            let count = words.reduce(0) { $0 + $1.text.count + 1 } + 1
            var inserted: [RecognizedText.Character] = []
            var k = 0
            func place(_ s: String, _ confidence: Double) {
                k += 1
                inserted.append(.init(text: s, confidence: confidence, position: pa + (pb - pa) * Double(k) / Double(count + 1)))
            }
            place(" ", 1)
            for word in words {
                for c in word.text { place(String(c), word.confidence) }
                place(" ", 1)
            }
            characters.insert(contentsOf: inserted, at: a + 1)
        }
        return RecognizedText(characters: characters)
    }

    /// The function words read in one gap cut from a line, in reading order; none when anything else is
    /// read there, or no line is found in it. The gap is enlarged to `gapHeight` (the small words are a third
    /// of the line or so).
    static func gapWords(_ gap: RGBImage, detector: TextDetector, recognizer: TextRecognizer, options: PPOCROptions)
        throws(OnnxRuntimeError) -> [(text: String, confidence: Double)] {
        let scale = Double(gapHeight) / Double(gap.height)
        let image = gap.resized(width: max(8, Int((Double(gap.width) * scale).rounded())), height: gapHeight)
        // Top to bottom ("of" over "the"), and left to right along one row ("in the").
        func before(_ a: RotatedRect, _ b: RotatedRect) -> Bool {
            let sameRow = abs(a.center.y - b.center.y) < 0.5 * min(a.thickness, b.thickness)
            return sameRow ? a.center.x < b.center.x : a.center.y < b.center.y
        }
        let found = try detector.detect(image).map(\.rect).sorted(by: before)
        // Small print only: a line as thick as the gap is a piece of the large print itself ("HO RSE").
        guard !found.isEmpty, found.allSatisfy({ $0.thickness <= maxGapLineShare * Double(image.height) }) else { return [] }
        var readings: [RecognizedText] = []
        for rect in found {
            let cut = lineImage(rect, in: image, options: options)
            if rect.isVertical {
                // Cut out along its long axis, the line lies level either way round.
                let pair = try recognizer.recognize([cut, cut.rotated(Rotation.half)])
                readings.append(pair[0].confidence >= pair[1].confidence ? pair[0] : pair[1])
            } else {
                readings += try recognizer.recognize([cut])
            }
        }
        var words: [(text: String, confidence: Double)] = []
        for reading in readings where !reading.text.allSatisfy(\.isWhitespace) {
            guard reading.confidence >= options.minGapConfidence else { return [] }
            for word in reading.text.split(separator: " ") {
                guard let parts = functionWords(String(word)) else { return [] }
                words += parts.map { ($0, reading.confidence) }
            }
        }
        return words
    }

    /// How high a gap is looked at: at 128 px, "of" over "the" read 0.56 sure instead of 0.97.
    static let gapHeight = 192

    /// The thickest a line found in a gap may be, as a share of the gap's height (the line's): the small
    /// words measured were 35-42% of it.
    static let maxGapLineShare = 0.6

    /// `word` as one or more function words run together ("of", "INTHE" as "IN", "THE"), or nil. "&" is one.
    /// Of the pieces, one at least must have three letters.
    static func functionWords(_ word: String, lexicon: SpineLexicon = .shipped) -> [String]? {
        if word == "&" { return [word] }
        let chars = Array(word)
        guard chars.count >= 2, chars.allSatisfy(\.isLetter) else { return nil }
        // Fewest pieces first: "INTHE" as "IN THE", not "IN T HE".
        var best = [[String]?](repeating: nil, count: chars.count + 1)
        best[0] = []
        for end in 2...chars.count {
            for start in 0...(end - 2) {
                guard let before = best[start] else { continue }
                let piece = String(chars[start..<end])
                guard lexicon.has(piece, .function) else { continue }
                if best[end] == nil || best[end]!.count > before.count + 1 { best[end] = before + [piece] }
            }
        }
        // Run together, one of them at least as long as "the": two-letter words alone make too many ("OP UN").
        guard let pieces = best[chars.count], pieces.count == 1 || pieces.contains(where: { $0.count >= 3 }) else { return nil }
        return pieces
    }

    /// The detector sometimes cuts one printed line at a space; pieces on one row with no more than a
    /// letter height between them, printed the same size, are one line again (words left to right). Pieces
    /// further apart, or of another size ("Anna Weidenholzer" beside the larger "den Fischen gut"), stay
    /// separate: along a spine, author, title and publisher share a row but are different things.
    /// Lines are in reading order (`readingOrder`).
    static func rows(_ lines: [OCRLine]) -> [OCRLine] {
        var out: [OCRLine] = []
        for line in lines.sorted(by: { $0.left < $1.left }) {
            if let i = out.firstIndex(where: { row in
                let overlap = min(row.bottom, line.bottom) - max(row.top, line.top)
                let gap = line.left - row.right
                let small = Double(max(1, min(row.height, line.height))), large = Double(max(row.height, line.height))
                return Double(overlap) >= 0.6 * small && large <= 1.4 * small
                    && gap <= max(row.height, line.height) && gap > -max(row.height, line.height)
            }) {
                var row = out[i]
                row.words = (row.words + line.words).sorted { $0.left < $1.left }
                row.left = min(row.left, line.left); row.right = max(row.right, line.right)
                row.top = min(row.top, line.top); row.bottom = max(row.bottom, line.bottom)
                out[i] = row
            } else {
                out.append(line)
            }
        }
        return readingOrder(out)
    }

    /// A wide spine prints blocks side by side, each over one to three rows: "KATE / SAUNDERS" beside "DAS
    /// GEHEIMNIS VON / WISHTIDE MANOR". Read row by row, the two would interleave; so lines that share most
    /// of their extent along the spine form a column, columns are read from the left, and each column from
    /// the top. Lines on one row in different columns (a thin spine) come out left to right as before.
    static func readingOrder(_ lines: [OCRLine]) -> [OCRLine] {
        var columns: [(left: Int, right: Int, lines: [OCRLine])] = []
        for line in lines.sorted(by: { $0.left < $1.left }) {
            var merged = (left: line.left, right: line.right, lines: [line])
            // A line may bridge columns found so far (one wide title row over two short ones): they join.
            columns.removeAll { column in
                let overlap = min(column.right, merged.right) - max(column.left, merged.left)
                let narrower = max(1, min(column.right - column.left, merged.right - merged.left))
                guard Double(overlap) >= 0.5 * Double(narrower) else { return false }
                merged = (min(column.left, merged.left), max(column.right, merged.right), column.lines + merged.lines)
                return true
            }
            columns.append(merged)
        }
        return columns.sorted { $0.left < $1.left }.flatMap { column in
            column.lines.sorted { a, b in
                let overlap = min(a.bottom, b.bottom) - max(a.top, b.top)
                if Double(overlap) >= 0.5 * Double(min(a.height, b.height)) { return a.left < b.left }
                return a.top + a.bottom < b.top + b.bottom
            }
        }
    }

    /// Rows of one printed block are one run of text to the split: "TRUDE / TEIGE", "Als Großmutter / im Regen
    /// tanzte", "Doppel / leben". A short line (in reading order, so column by column) joins the short one
    /// before it when it stands in its column right below it (a gap under half a line) and is printed the same
    /// size. Long lines stay apart: a subtitle over the authors' names ("The New Science of Adult Attachment /
    /// Amir Levine and Rachel Heller") is two things set in one size, and the tagger tells them apart better
    /// as two lines than as one run.
    static func blocks(_ lines: [OCRLine]) -> [OCRLine] {
        var out: [OCRLine] = []
        for line in lines {
            if var above = out.last {
                let small = Double(max(1, min(above.height, line.height))), large = Double(max(above.height, line.height))
                let overlap = min(above.right, line.right) - max(above.left, line.left)
                let gap = Double(line.top - above.bottom)
                if above.words.count <= 3, line.words.count <= 3, large <= 1.25 * small, gap >= -0.2 * small, gap <= 0.5 * large,
                   Double(overlap) >= 0.5 * Double(max(1, min(above.right - above.left, line.right - line.left))) {
                    above.words += line.words
                    above.left = min(above.left, line.left); above.right = max(above.right, line.right)
                    above.bottom = max(above.bottom, line.bottom)
                    out[out.count - 1] = above
                    continue
                }
            }
            out.append(line)
        }
        return out
    }

    /// Words with boxes from the characters' positions along the line: the splitter needs each word's
    /// extent and size to find gaps and print sizes.
    static func words(of text: RecognizedText, in rect: RotatedRect, minConfidence: Double) -> [OCRWord] {
        let left = rect.center.x - rect.halfLength, top = Int((rect.center.y - rect.halfThickness).rounded())
        let bottom = Int((rect.center.y + rect.halfThickness).rounded())
        let step = rect.length / Double(max(1, text.characters.count + 1))
        var words: [OCRWord] = []
        var current: [RecognizedText.Character] = []
        func flush() {
            defer { current = [] }
            guard let first = current.first, let last = current.last else { return }
            let word = current.map(\.text).joined()
            let confidence = current.reduce(0) { $0 + $1.confidence } / Double(current.count)
            guard confidence >= minConfidence, word.contains(where: { $0.isLetter || $0.isNumber }) else { return }
            let x0 = left + first.position * rect.length - step / 2, x1 = left + last.position * rect.length + step / 2
            words.append(OCRWord(text: word, confidence: confidence * 100, left: Int(x0.rounded()), top: top,
                                 right: Int(x1.rounded()), bottom: bottom, fromDictionary: false))
        }
        for c in text.characters {
            if c.text.allSatisfy(\.isWhitespace) { flush() } else { current.append(c) }
        }
        flush()
        return words
    }
}
