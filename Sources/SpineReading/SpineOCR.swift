import Foundation
import ShelfImage

/// How a spine crop is prepared and recognised. Public so the evaluation can switch each step off and
/// measure what it gains; the defaults are the measured best (`eval-reading --ablation`, 83 titled spines
/// of the two real photos): plain Tesseract 13.3% of titles, + spine scaled to 96 px across 9.6%, + block
/// segmentation 21.7%, + word-confidence filter 25.3%, + scale refinement 33.7%. Local contrast
/// normalisation (24.1%), a global stretch (30.1%) and explicit polarity (31.3% auto, 32.5% both, at twice
/// the time) did not help there, so they are off by default; Tesseract already inverts light-on-dark lines.
/// On the first 400 synthetic spines of samples/: plain 52.2%, default 70.2% (`eval-reading --compare`).
public struct TesseractOptions: Sendable, Equatable {
    public enum Polarity: String, Sendable { case asIs, auto, both }
    public enum Mode: String, Sendable { case singleLine, block, sparse }

    /// Height in pixels of the spine's width after rotating the text horizontal: letters end up at
    /// roughly 30-40 px, where Tesseract's LSTM is most accurate. 0 keeps the crop's own scale.
    public var lineHeight: Int
    /// Local contrast normalisation (each pixel against its neighbourhood's mean and spread).
    public var normalizeContrast: Bool
    /// Global 1..99 percentile stretch; applied when `normalizeContrast` is off.
    public var stretchContrast: Bool
    public var polarity: Polarity
    public var mode: Mode
    /// Words below this confidence (0...100) are dropped as garbage.
    public var minWordConfidence: Double
    /// Also try the unrotated crop (stacked letters, horizontal text on a standing spine).
    public var tryUpright: Bool
    /// Re-read the better orientation once more at the scale that brings its median letter height to
    /// ~36 px, when the first pass found letters far from that (wide spines with several lines).
    public var refineScale: Bool

    public init(lineHeight: Int = 96, normalizeContrast: Bool = false, polarity: Polarity = .asIs, mode: Mode = .block,
                minWordConfidence: Double = 45, tryUpright: Bool = false, refineScale: Bool = true, stretchContrast: Bool = false) {
        self.stretchContrast = stretchContrast
        self.lineHeight = lineHeight
        self.normalizeContrast = normalizeContrast
        self.polarity = polarity
        self.mode = mode
        self.minWordConfidence = minWordConfidence
        self.tryUpright = tryUpright
        self.refineScale = refineScale
    }

    /// Plain Tesseract on the raw crop, both rotations: the baseline the other steps are measured against.
    public static let baseline = TesseractOptions(lineHeight: 0, normalizeContrast: false, polarity: .asIs, mode: .singleLine, minWordConfidence: 0, refineScale: false)

    var segmentation: SegmentationMode {
        switch mode {
        case .singleLine: .singleLine
        case .block: .block
        case .sparse: .sparse
        }
    }
}

/// The per-crop recognition: orientations, scaling, contrast, polarity, then the title split.
enum SpineOCR {
    struct Result {
        var lines: [OCRLine]
        var score: Double
        var turn: GrayOps.Turn
    }

    static func read(_ image: RGBImage, engine: TesseractEngine, options: TesseractOptions) -> (split: TitleSplitter.Split, raw: String) {
        guard image.width >= 4, image.height >= 4 else { return (TitleSplitter.Split(title: nil, authors: [], confidence: 0), "") }
        let gray = GrayOps.luma(image)
        // Standing spines: text runs top-to-bottom (turn counter-clockwise to read) or bottom-to-top
        // (clockwise). Lying books: upright or upside down.
        var turns: [GrayOps.Turn] = image.height >= image.width ? [.counterClockwise, .clockwise] : [.none, .half]
        if options.tryUpright && image.height >= image.width { turns.append(.none) }
        var best: Result?
        for turn in turns {
            let result = recognize(gray, turn: turn, engine: engine, options: options)
            if best == nil || result.score > best!.score { best = result }
        }
        guard var best else { return (TitleSplitter.Split(title: nil, authors: [], confidence: 0), "") }
        if options.refineScale {
            let heights = best.lines.flatMap(\.words).filter { keep($0, options: options) && $0.text.count >= 2 }.map(\.height).sorted()
            if !heights.isEmpty {
                let median = Double(heights[heights.count / 2])
                if median < 24 || median > 50 {
                    var refined = options
                    let across = best.turn == .none || best.turn == .half ? gray.height : gray.width
                    let base = options.lineHeight > 0 ? options.lineHeight : across
                    refined.lineHeight = min(400, max(24, Int(Double(base) * 36 / median)))
                    let again = recognize(gray, turn: best.turn, engine: engine, options: refined)
                    if again.score > best.score { best = again }
                }
            }
        }
        let raw = best.lines.map(\.text).joined(separator: "\n")
        let kept = best.lines.map { line in
            var l = line
            l.words = line.words.filter { keep($0, options: options) }
            return l
        }.filter { !$0.words.isEmpty }
        return (TitleSplitter.split(TitleSplitter.segments(kept)), raw)
    }

    static func recognize(_ gray: GrayImage, turn: GrayOps.Turn, engine: TesseractEngine, options: TesseractOptions) -> Result {
        var g = GrayOps.rotated(gray, turn)
        if options.lineHeight > 0 {
            let scale = Double(options.lineHeight) / Double(g.height)
            let width = min(6000, max(8, Int((Double(g.width) * scale).rounded())))
            g = GrayOps.resized(g, width: width, height: options.lineHeight)
        }
        if options.normalizeContrast {
            g = GrayOps.normalizedContrast(g, radius: max(8, g.height / 2))
        } else if options.stretchContrast {
            g = GrayOps.stretched(g)
        }
        var candidates: [GrayImage]
        switch options.polarity {
        case .asIs: candidates = [g]
        case .auto: candidates = [GrayOps.looksLightOnDark(g) ? GrayOps.inverted(g) : g]
        case .both: candidates = [g, GrayOps.inverted(g)]
        }
        var best = Result(lines: [], score: -1, turn: turn)
        for candidate in candidates {
            let padValue: UInt8 = candidate.pixels.isEmpty ? 255 : median(candidate)
            let padded = GrayOps.padded(candidate, by: max(8, candidate.height / 6), value: padValue)
            let lines = engine.recognize(padded, mode: options.segmentation)
            let s = score(lines, options: options)
            if s > best.score { best = Result(lines: lines, score: s, turn: turn) }
        }
        return best
    }

    /// Confident letters: how much believable text an orientation produced.
    static func score(_ lines: [OCRLine], options: TesseractOptions) -> Double {
        var total = 0.0
        for line in lines {
            for word in line.words where keep(word, options: options) {
                let chars = Double(word.text.filter { $0.isLetter || $0.isNumber }.count)
                total += chars * word.confidence / 100 * (word.fromDictionary ? 1.2 : 1)
            }
        }
        return total
    }

    /// Garbage filter: confident words made mostly of letters and digits.
    static func keep(_ word: OCRWord, options: TesseractOptions) -> Bool {
        guard word.confidence >= options.minWordConfidence else { return false }
        let alnum = word.text.filter { $0.isLetter || $0.isNumber }.count
        guard alnum >= 1 else { return false }
        if word.text.count == 1 { return word.confidence >= 80 && alnum == 1 }
        return Double(alnum) / Double(word.text.count) >= 0.5
    }

    private static func median(_ g: GrayImage) -> UInt8 {
        var hist = [Int](repeating: 0, count: 256)
        for v in g.pixels { hist[Int(v)] += 1 }
        var seen = 0
        for i in 0..<256 {
            seen += hist[i]
            if seen * 2 >= g.pixels.count { return UInt8(i) }
        }
        return 255
    }
}
