// eval-reading: how well the embedded readers read spines, side by side on the same crops, and their time.
//
//   swift run -c release eval-reading              Tesseract and PP-OCR on samples/ and the shared real photos
//   swift run -c release eval-reading --end-to-end crops from the detector, cut as the pipeline cuts them;
//                                                  a spine it missed counts as unread
//   swift run -c release eval-reading --ablation   Tesseract once per preparation step, to see what each gains
//   swift run -c release eval-reading --compare    Tesseract baseline vs default only
//   options: --reader tesseract|ppocr|both (default both)  --lang eng+spa  --limit N  --dump  --set samples|real
//
// Figures per reader and set:
//   title      strict title accuracy: the reader's title (after its title/author split) has similarity >= 0.8
//              to the truth (Similarity.ratio over TextNormalization);
//   in-text    the true title appears somewhere in everything the reader saw (>= 0.8 on some run of its words):
//              the engine's ceiling before the split;
//   author     of the spines with an annotated author, those whose author the reader named (>= 0.8);
//   ms/crop    median wall time per crop, read alone on one thread (one engine, one ONNX Runtime thread).
import BookModel
import Foundation
import ShelfImage
import SpineReading
import PPOCR

let args = CommandLine.arguments
func value(_ flag: String) -> String? { args.firstIndex(of: flag).flatMap { $0 + 1 < args.count ? args[$0 + 1] : nil } }
let language = value("--lang") ?? "eng"
let limit = value("--limit").flatMap(Int.init) ?? Int.max
let dump = args.contains("--dump")
let onlySet = value("--set")
let endToEnd = args.contains("--end-to-end")
let readerChoice = value("--reader") ?? "both"

let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
let dataset = root.appendingPathComponent("../shared/datasets/library-dataset").standardizedFileURL

var sets: [(String, [TruthCrop])] = []
@MainActor func load(_ name: String, _ pairs: [(URL, URL)]) {
    var crops: [TruthCrop] = []
    for (photo, truth) in pairs {
        do {
            crops += endToEnd ? try GroundTruth.detectedCrops(photo: photo, truth: truth, firstID: crops.count)
                              : try GroundTruth.crops(photo: photo, truth: truth, firstID: crops.count)
        } catch {
            print("note: skipping \(photo.lastPathComponent): \(error)")
        }
    }
    if crops.isEmpty { return }
    sets.append((name, Array(crops.prefix(limit))))
}

if onlySet == nil || onlySet == "samples" {
    let samples = GroundTruth.samples(in: root.appendingPathComponent("samples"))
    if samples.isEmpty { print("note: no samples/*.jpg|png with ground-truth JSON; skipping the synthetic set") }
    load("samples", samples)
}
if onlySet == nil || onlySet == "real" {
    let real = GroundTruth.realPhotos(dataset: dataset)
    if real.isEmpty { print("note: \(dataset.path) absent; skipping the real photos") }
    load("real", real)
}
if sets.isEmpty {
    print("eval-reading: nothing to evaluate")
    exit(0)
}

struct Score {
    var n = 0
    var correct = 0
    var inText = 0
    var authorsAnnotated = 0
    var authorsRight = 0
    var similaritySum = 0.0
    var read = 0
    var times: [Double] = []
    var median: Double {
        let t = times.sorted()
        return t.isEmpty ? 0 : t[t.count / 2]
    }
}

/// True when some run of `text`'s words is within 0.8 similarity of `title`.
func titleAppears(_ title: String, in text: String) -> Bool {
    let want = TextNormalization.tokens(title)
    let words = TextNormalization.tokens(text)
    guard !want.isEmpty, !words.isEmpty else { return false }
    let target = want.joined(separator: " ")
    for length in max(1, want.count - 2)...(want.count + 2) where length <= words.count {
        for start in 0...(words.count - length) {
            if Similarity.ratio(words[start..<(start + length)].joined(separator: " "), target) >= 0.8 { return true }
        }
    }
    return false
}

/// Reads each crop alone, so the time per crop is the latency a user waits per spine on one core.
func evaluate(_ crops: [TruthCrop], reader: any SpineReader) async -> Score {
    var score = Score()
    for truth in crops {
        let start = ContinuousClock.now
        let reading = await reader.read([truth.crop])[0]
        let elapsed = ContinuousClock.now - start
        score.times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
        let similarity = Similarity.ratio(reading.title ?? "", truth.title)
        score.n += 1
        score.similaritySum += similarity
        if reading.isRead { score.read += 1 }
        if similarity >= 0.8 { score.correct += 1 }
        if titleAppears(truth.title, in: reading.rawText) { score.inText += 1 }
        if !truth.author.trimmingCharacters(in: .whitespaces).isEmpty {
            score.authorsAnnotated += 1
            let best = reading.authors.map { Similarity.ratio($0, truth.author) }.max() ?? 0
            if best >= 0.8 { score.authorsRight += 1 }
        }
        if dump {
            let mark = similarity >= 0.8 ? "OK " : "   "
            print("\(mark)\(String(format: "%.2f", similarity)) truth=\"\(truth.title)\" / \"\(truth.author)\" read=\"\(reading.title ?? "-")\" authors=\(reading.authors) raw=\"\(reading.rawText.replacingOccurrences(of: "\n", with: " | "))\"")
        }
    }
    return score
}

func report(_ label: String, _ set: String, _ s: Score) {
    func pct(_ a: Int, _ b: Int) -> Double { b == 0 ? 0 : 100 * Double(a) / Double(b) }
    print(String(format: "%-28@ %-8@ n=%4d  title %5.1f%% (%d)  in-text %5.1f%%  author %5.1f%% (%d/%d)  similarity %.3f  read %4d  median %6.1f ms/crop",
                 label as NSString, set as NSString, s.n, pct(s.correct, s.n), s.correct, pct(s.inText, s.n),
                 pct(s.authorsRight, s.authorsAnnotated), s.authorsRight, s.authorsAnnotated,
                 s.n == 0 ? 0 : s.similaritySum / Double(s.n), s.read, s.median))
    fflush(nil)  // figures appear as they are measured, also when piped
}

var variants: [(String, TesseractOptions)] = [("default", TesseractOptions())]
if args.contains("--ablation") {
    let d = TesseractOptions()
    func with(_ change: (inout TesseractOptions) -> Void) -> TesseractOptions { var o = d; change(&o); return o }
    variants = [
        ("baseline (raw, psm7, 2 dirs)", .baseline),
        ("+ scale (spine 96 px across)", TesseractOptions(lineHeight: d.lineHeight, polarity: .asIs, mode: .singleLine, minWordConfidence: 0, refineScale: false)),
        ("+ block psm", TesseractOptions(lineHeight: d.lineHeight, polarity: .asIs, mode: .block, minWordConfidence: 0, refineScale: false)),
        ("+ garbage filter", with { $0.refineScale = false }),
        ("+ refine scale = default", d),
        ("default + local contrast", with { $0.normalizeContrast = true }),
        ("default + stretch contrast", with { $0.stretchContrast = true }),
        ("default + polarity auto", with { $0.polarity = .auto }),
        ("default + polarity both", with { $0.polarity = .both }),
        ("default, psm sparse", with { $0.mode = .sparse }),
        ("default, psm single line", with { $0.mode = .singleLine }),
        ("default, native scale", with { $0.lineHeight = 0 }),
        ("default, line 48", with { $0.lineHeight = 48 }),
        ("default, line 64", with { $0.lineHeight = 64 }),
        ("default, line 128", with { $0.lineHeight = 128 }),
        ("default, min conf 30", with { $0.minWordConfidence = 30 }),
        ("default, min conf 60", with { $0.minWordConfidence = 60 }),
        ("default, + upright", with { $0.tryUpright = true }),
    ]
}

if args.contains("--compare") {
    variants = [("baseline (raw, psm7, 2 dirs)", .baseline), ("default", TesseractOptions())]
}
if args.contains("--focus") {
    func o(_ line: Int, contrast: String, _ polarity: TesseractOptions.Polarity, _ mode: TesseractOptions.Mode = .block, refine: Bool = true) -> TesseractOptions {
        TesseractOptions(lineHeight: line, normalizeContrast: contrast == "local", polarity: polarity, mode: mode, refineScale: refine, stretchContrast: contrast == "stretch")
    }
    variants = [
        ("native, plain, refine", o(0, contrast: "none", .asIs)),
        ("native+refine? (0 skips)", o(0, contrast: "none", .asIs, refine: false)),
        ("128 plain refine", o(128, contrast: "none", .asIs)),
        ("128 stretch refine", o(128, contrast: "stretch", .asIs)),
        ("128 local auto refine", o(128, contrast: "local", .auto)),
        ("96 plain refine", o(96, contrast: "none", .asIs)),
        ("128 plain sparse refine", o(128, contrast: "none", .asIs, .sparse)),
        ("160 plain refine", o(160, contrast: "none", .asIs)),
    ]
}

print("eval-reading: a title is correct when similarity >= 0.8"
      + (endToEnd ? "; crops from the detector (end to end)" : "; crops from the ground-truth quads"))
do {
    if readerChoice == "tesseract" || readerChoice == "both" {
        for (label, options) in variants {
            let reader = try TesseractReader(language: language, concurrency: 1, options: options)
            for (name, crops) in sets { report("tesseract " + label, name, await evaluate(crops, reader: reader)) }
        }
    }
    if readerChoice == "ppocr" || readerChoice == "both" {
        let reader = try PPOCRReader(models: PPOCRModels.inDirectory(PPOCRModels.defaultDirectory()), concurrency: 1)
        for (name, crops) in sets { report("ppocr " + reader.model, name, await evaluate(crops, reader: reader)) }
    }
} catch {
    print("eval-reading: \(error)")
    exit(1)
}
