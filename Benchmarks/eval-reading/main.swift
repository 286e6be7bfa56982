// eval-reading: how well the embedded readers read spines, side by side on the same crops, and their time.
//
//   swift run -c release eval-reading              Tesseract and PP-OCR on samples/ and the shared real photos
//   swift run -c release eval-reading --end-to-end crops from the detector, cut as the pipeline cuts them;
//                                                  a spine it missed counts as unread; a second line gives
//                                                  the figures on the spines it found alone
//   swift run -c release eval-reading --ablation   Tesseract once per preparation step, to see what each gains
//   swift run -c release eval-reading --compare    Tesseract baseline vs default only
//   swift run -c release eval-reading --reader ppocr --ppocr-variants   PP-OCR once per setting, to see what each costs
//   swift run -c release eval-reading --annotations  the title/author split alone, on the held-out scenes' real
//                                                  commercial-OCR lines of spine_annotations.csv
//   options: --reader tesseract|ppocr|both (default both)  --lang eng+spa  --limit N  --dump  --set samples|real|bookfinder|homes
//            --bookfinder DIR (or env BOOKFINDER_DIR): also the Bookfinder photos with typed titles, tuned and held out
//            --homes DIR (or env HOMES_DIR): also the other homes' photos with typed titles, tuned and held out
//
// Figures per reader and set:
//   title      strict title accuracy: the reader's title (after its title/author split) has similarity >= 0.8
//              to the truth (Similarity.ratio over TextNormalization);
//   in-text    the true title appears somewhere in everything the reader saw (>= 0.8 on some run of its words):
//              the engine's ceiling before the split;
//   author     of the spines with an annotated author, those whose author the reader named (>= 0.8), then
//              (in-text) those whose author appears somewhere in everything the reader saw: the split's ceiling;
//   names read of the spines with a true author on which a name was read, those whose every name is the book's;
//   title missed  of the spines read whose title is wrong: the whole title and more words (longer), a part
//              of it only (shorter), the title elsewhere in the reading (the split's miss), or not read at all;
//   author missed  of the spines whose author is not named, those on which the surname alone of an author the
//              truth gives in full was read ("PAMUK" for "Orhan Pamuk"), which no split can mend;
//   ms/crop    median wall time per crop, read alone on one thread (one engine, one ONNX Runtime thread),
//              and (cpu ...) the process CPU time it took, which other load on the machine does not inflate.
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
/// Where to write the crops a reader finds no text in at all (`--save-unread DIR`), to look at why.
let saveUnread = value("--save-unread").map { URL(fileURLWithPath: $0) }
let onlySet = value("--set")
let endToEnd = args.contains("--end-to-end")
let readerChoice = value("--reader") ?? "both"

let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
let dataset = root.appendingPathComponent("../shared/datasets/library-dataset").standardizedFileURL

// --annotations: the split alone, on the real commercial-OCR readings of spine_annotations.csv (one line per
// spine, no layout). Only the held-out scenes (photo names without their last "_N", sorted, every second from
// the second), whose books scripts/train-spine-tagger.py never trains on nor puts in its lexicon.
if args.contains("--annotations") {
    let path = dataset.appendingPathComponent("spine_annotations.csv").path
    guard let bytes = FileManager.default.contents(atPath: path) else {
        print("eval-reading: \(path) absent")
        exit(1)
    }
    let records = CSVReader.read(Array(bytes)).records
    let header = records.first?.fields ?? []
    let col = Dictionary(header.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    guard let imageCol = col["image_name"], let titleCol = col["title"], let authorCol = col["author"],
          let ocrCol = col["ocr"], let notBookCol = col["not_book"] else {
        print("eval-reading: \(path) lacks the expected columns")
        exit(1)
    }
    func scene(_ image: String) -> String {
        let stem = (image as NSString).deletingPathExtension
        guard let cut = stem.lastIndex(of: "_") else { return stem }
        return String(stem[..<cut])
    }
    let rows = records.dropFirst().filter { $0.fields.count == header.count }
    let scenes = Set(rows.map { scene($0.fields[imageCol]) }).sorted()
    let held = Set(scenes.enumerated().filter { $0.offset % 2 == 1 }.map(\.element))
    var n = 0, titles = 0, withAuthor = 0, authors = 0
    for row in rows where held.contains(scene(row.fields[imageCol])) {
        let f = row.fields
        let ocr = f[ocrCol].trimmingCharacters(in: .whitespaces)
        guard f[notBookCol] != "True", !ocr.isEmpty else { continue }
        let truth = f[titleCol].components(separatedBy: " : ")[0].trimmingCharacters(in: .whitespaces)
        let split = SpineTextSplit.split(lines: [ocr])
        n += 1
        if Similarity.ratio(split.title ?? "", truth) >= 0.8 { titles += 1 }
        // "Orteu, Francesc": right when one of the authors read holds the surname as a word.
        let surname = f[authorCol].split(separator: ",").first.map { TextNormalization.tokens(String($0)) } ?? []
        if !surname.isEmpty {
            withAuthor += 1
            if split.authors.contains(where: { author in
                let words = TextNormalization.tokens(author)
                return surname.allSatisfy { s in words.contains { Similarity.ratio($0, s) >= 0.8 } }
            }) { authors += 1 }
        }
        if dump {
            print("\(Similarity.ratio(split.title ?? "", truth) >= 0.8 ? "OK " : "   ")truth=\"\(truth)\" / \"\(f[authorCol])\" read=\"\(split.title ?? "-")\" authors=\(split.authors) ocr=\"\(ocr)\"")
        }
    }
    print(String(format: "annotations (held-out scenes: %d of %d, %d spines with OCR): title %.1f%% (%d)  author %.1f%% (%d/%d)",
                 held.count, scenes.count, n, 100 * Double(titles) / Double(max(1, n)), titles,
                 100 * Double(authors) / Double(max(1, withAuthor)), authors, withAuthor))
    exit(0)
}

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
if onlySet == nil || onlySet?.hasPrefix("bookfinder") == true {
    // scripts/fetch-bookfinder.sh extracts the photos outside the repository; the typed titles are ours.
    if let dir = value("--bookfinder") ?? ProcessInfo.processInfo.environment["BOOKFINDER_DIR"] {
        let split = GroundTruth.bookfinderPhotos(in: URL(fileURLWithPath: dir), truth: root.appendingPathComponent("Benchmarks/bookfinder-boxes"))
        if split.tuned.isEmpty && split.heldOut.isEmpty { print("note: no Bookfinder photos in \(dir); skipping them") }
        load("bookfinder", split.tuned)
        load("bookfinder held-out", split.heldOut)
    } else if onlySet != nil {
        print("note: Bookfinder photos not given (--bookfinder DIR or BOOKFINDER_DIR; scripts/fetch-bookfinder.sh)")
    }
}
if onlySet == nil || onlySet == "homes" {
    // Other homes: photos from scripts/fetch-home-shelves.sh, titles typed in Benchmarks/home-boxes; IMG_1346 may
    // be tuned on, the other home's photos are held out.
    if let dir = value("--homes") ?? ProcessInfo.processInfo.environment["HOMES_DIR"] {
        let homes = GroundTruth.homePhotos(in: URL(fileURLWithPath: dir), truth: root.appendingPathComponent("Benchmarks/home-boxes"))
        if homes.tuned.isEmpty && homes.heldOut.isEmpty { print("note: no titled home-shelf photos in \(dir); skipping them") }
        load("other homes tuned", homes.tuned)
        load("other homes held-out", homes.heldOut)
    }
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
    /// Of the spines with an annotated author, those where one of the authors appears somewhere in
    /// everything the reader saw: the ceiling of `authorsRight` before the split, as `inText` is the title's.
    var authorsInText = 0
    /// Words of true titles that carry accents (á, ç, ñ, ü...): how many the reader's text holds with the
    /// accent, and how many it holds at all (accent ignored).
    var accentedWords = 0
    var accentedExact = 0
    var accentedFolded = 0
    var similaritySum = 0.0
    var read = 0
    /// End to end, the spines the detector found (a crop to read) and, of those, the titles and annotated
    /// authors read right: the issue's own measure is on detected spines, where `correct` counts a missed
    /// spine as wrong too.
    var found = 0
    var foundCorrect = 0
    var foundAuthorsAnnotated = 0
    var foundAuthorsRight = 0
    var foundAuthorsInText = 0
    /// Of the spines with a true author on which a name was read, those whose every name read is one of the
    /// book's authors: `author` counts a spine right when any name read is, so a stray second name (a misread
    /// imprint, a mark) shows only here.
    var authorListsRead = 0
    var authorListsClean = 0
    /// Of the spines with a true author not named right, those on which a name read is the surname alone of an
    /// author the truth gives in full ("PAMUK" for "Orhan Pamuk"): many spines print no more, and no split can
    /// add the given name, so this share of `author`'s misses is out of any split's reach.
    var authorsMissed = 0
    var surnameAlone = 0
    /// Titles missed on spines the reader read, by what went wrong: the whole title and more words ("longer": a
    /// subtitle, a name or a publisher glued on), a part of it only ("shorter"), the title somewhere else in
    /// the reading but not as the title ("elsewhere": the split's miss), or nowhere in it (the recognizer's).
    var titleLonger = 0
    var titleShorter = 0
    var titleElsewhere = 0
    var titleNotRead = 0
    /// Of `titleElsewhere`: the title read as an author, and the title field holding the book's author.
    var titleAsAuthor = 0
    var authorAsTitle = 0
    /// Each read spine's reading confidence and whether its title is right: review's bulk verify takes every
    /// reading at or above a bar (80% to start), so a reading over it should be right.
    var confidences: [(confidence: Double, right: Bool)] = []
    var times: [Double] = []
    var cpuTimes: [Double] = []
    var median: Double { Self.median(times) }
    var cpuMedian: Double { Self.median(cpuTimes) }
    static func median(_ values: [Double]) -> Double {
        let t = values.sorted()
        return t.isEmpty ? 0 : t[t.count / 2]
    }
}

/// CPU time of the whole process in ms: with one crop in flight at a time this is what the crop cost,
/// whatever else the machine is doing (wall time is not, on a shared 2-core machine).
func processCPUms() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) * 1000 + Double(t.tv_nsec) / 1e6
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
        let cpuStart = processCPUms()
        let reading = await reader.read([truth.crop])[0]
        score.cpuTimes.append(processCPUms() - cpuStart)
        let elapsed = ContinuousClock.now - start
        score.times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
        let similarity = Similarity.ratio(reading.title ?? "", truth.title)
        score.n += 1
        let found = truth.crop.image.width > 0
        if found { score.found += 1 }
        if found, similarity >= 0.8 { score.foundCorrect += 1 }
        score.similaritySum += similarity
        if reading.isRead { score.read += 1; score.confidences.append((reading.confidence, similarity >= 0.8)) }
        if similarity >= 0.8 { score.correct += 1 }
        let appears = titleAppears(truth.title, in: reading.rawText)
        if appears { score.inText += 1 }
        if reading.isRead, similarity < 0.8 {
            let title = reading.title ?? ""
            if !title.isEmpty, titleAppears(truth.title, in: title) { score.titleLonger += 1 }
            else if !title.isEmpty, titleAppears(title, in: truth.title) { score.titleShorter += 1 }
            else if appears {
                score.titleElsewhere += 1
                if titleAppears(truth.title, in: reading.authors.joined(separator: " ")) { score.titleAsAuthor += 1 }
                if !title.isEmpty, truth.author.split(separator: ";").contains(where: { titleAppears(String($0), in: title) }) {
                    score.authorAsTitle += 1
                }
            }
            else { score.titleNotRead += 1 }
        }
        let seen = Set(reading.rawText.lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init))
        let seenFolded = Set(seen.map { $0.folding(options: .diacriticInsensitive, locale: nil) })
        for word in truth.title.lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init)
        where word.unicodeScalars.contains(where: { $0.value > 127 }) {
            score.accentedWords += 1
            if seen.contains(word) { score.accentedExact += 1 }
            if seenFolded.contains(word.folding(options: .diacriticInsensitive, locale: nil)) { score.accentedFolded += 1 }
        }
        // "Rita Mae Brown; Sneaky Pie Brown": naming any one of a book's authors is right.
        let trueAuthors = truth.author.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if !trueAuthors.isEmpty {
            score.authorsAnnotated += 1
            let best = reading.authors.flatMap { read in trueAuthors.map { Similarity.ratio(read, $0) } }.max() ?? 0
            if best >= 0.8 { score.authorsRight += 1 }
            let authorAppears = trueAuthors.contains { titleAppears($0, in: reading.rawText) }
            if authorAppears { score.authorsInText += 1 }
            if found { score.foundAuthorsAnnotated += 1 }
            if found, best >= 0.8 { score.foundAuthorsRight += 1 }
            if found, authorAppears { score.foundAuthorsInText += 1 }
            if best < 0.8 {
                score.authorsMissed += 1
                let surnames = trueAuthors.compactMap { name -> String? in
                    let words = TextNormalization.tokens(name)
                    return words.count >= 2 ? words.last : nil
                }
                if reading.authors.contains(where: { read in surnames.contains { Similarity.ratio(read, $0) >= 0.8 } }) {
                    score.surnameAlone += 1
                }
            }
            if !reading.authors.isEmpty {
                score.authorListsRead += 1
                if reading.authors.allSatisfy({ read in trueAuthors.contains { Similarity.ratio(read, $0) >= 0.8 } }) {
                    score.authorListsClean += 1
                }
            }
        }
        if let dir = saveUnread, reading.rawText.isEmpty {
            try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            if let png = try? truth.crop.image.pngData() {
                // Crop IDs restart with each set: the photo's name keeps two sets' crops apart.
                let name = "\(truth.source)-\(truth.crop.id)-\(TextNormalization.tokens(truth.title).joined(separator: "-")).png"
                try? Data(png).write(to: dir.appendingPathComponent(name))
            }
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
    print(String(format: "%-28@ %-8@ n=%4d  title %5.1f%% (%d)  in-text %5.1f%%  author %5.1f%% (%d/%d)  in-text %5.1f%%  similarity %.3f  read %4d  median %6.1f ms/crop (cpu %6.1f)",
                 label as NSString, set as NSString, s.n, pct(s.correct, s.n), s.correct, pct(s.inText, s.n),
                 pct(s.authorsRight, s.authorsAnnotated), s.authorsRight, s.authorsAnnotated, pct(s.authorsInText, s.authorsAnnotated),
                 s.n == 0 ? 0 : s.similaritySum / Double(s.n), s.read, s.median, s.cpuMedian))
    if endToEnd {
        print(String(format: "%-28@ %-8@ of the spines found (%d of %d): title %5.1f%% (%d)  author %5.1f%% (%d/%d)  in-text %5.1f%%",
                     "" as NSString, set as NSString, s.found, s.n, pct(s.foundCorrect, s.found), s.foundCorrect,
                     pct(s.foundAuthorsRight, s.foundAuthorsAnnotated), s.foundAuthorsRight, s.foundAuthorsAnnotated,
                     pct(s.foundAuthorsInText, s.foundAuthorsAnnotated)))
    }
    if s.authorListsRead > 0 {
        print(String(format: "%-28@ %-8@ names read: every one an author of the book on %5.1f%% (%d of %d spines)",
                     "" as NSString, set as NSString, pct(s.authorListsClean, s.authorListsRead), s.authorListsClean, s.authorListsRead))
    }
    let titlesMissed = s.titleLonger + s.titleShorter + s.titleElsewhere + s.titleNotRead
    if titlesMissed > 0 {
        print(String(format: "%-28@ %-8@ title missed on %d spines read: longer %d, shorter %d, elsewhere in the reading %d (read as an author %d, the author as the title %d), not read %d",
                     "" as NSString, set as NSString, titlesMissed, s.titleLonger, s.titleShorter, s.titleElsewhere,
                     s.titleAsAuthor, s.authorAsTitle, s.titleNotRead))
    }
    if s.authorsMissed > 0 {
        print(String(format: "%-28@ %-8@ author missed on %d spines: the surname alone read on %d (the book's author given in full)",
                     "" as NSString, set as NSString, s.authorsMissed, s.surnameAlone))
    }
    if !s.confidences.isEmpty {
        let bins: [(String, Range<Double>)] = [("<0.5", -Double.infinity..<0.5), ("0.5-0.8", 0.5..<0.8), ("0.8-0.9", 0.8..<0.9), (">=0.9", 0.9..<Double.infinity)]
        let parts = bins.map { name, range -> String in
            let inBin = s.confidences.filter { range.contains($0.confidence) }
            return String(format: "%@ %d (%.0f%% right)", name as NSString, inBin.count, pct(inBin.filter(\.right).count, inBin.count))
        }
        print(String(format: "%-28@ %-8@ reading confidence: ", "" as NSString, set as NSString) + parts.joined(separator: ", "))
    }
    if s.accentedWords > 0 {
        print(String(format: "%-28@ %-8@ accented title words: %d; read with the accent %d, read without it %d",
                     "" as NSString, set as NSString, s.accentedWords, s.accentedExact, s.accentedFolded - s.accentedExact))
    }
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
        var ppocrVariants: [(String, PPOCROptions)] = [("default", PPOCROptions())]
        if args.contains("--ppocr-variants") {
            func with(_ change: (inout PPOCROptions) -> Void) -> PPOCROptions { var o = PPOCROptions(); change(&o); return o }
            ppocrVariants += [
                ("orientation from 1 line", with { $0.orientationLines = 1 }),
                ("orientation ratio 1.5", with { $0.decisiveRatio = 1.5 }),
                ("orientation ratio 4", with { $0.decisiveRatio = 4 }),
                ("orientation always 3 lines", with { $0.decisiveRatio = .infinity }),
                ("orientation from 2 lines", with { $0.orientationLines = 2 }),
                ("rec min width 160", with { $0.recognizerMinWidth = 160 }),
                ("rec min width 96", with { $0.recognizerMinWidth = 96 }),
                ("det max side 640", with { $0.detector.maxSide = 640 }),
                ("det max side 1280", with { $0.detector.maxSide = 1280 }),
                ("det short side 64", with { $0.detector.minShortSide = 64 }),
                ("det short side 128", with { $0.detector.minShortSide = 128 }),
                ("line conf 0.3", with { $0.minLineConfidence = 0.3 }),
                ("line conf 0.7", with { $0.minLineConfidence = 0.7 }),
                ("box threshold 0.5", with { $0.detector.boxThreshold = 0.5 }),
                ("unclip 2.0", with { $0.detector.unclipRatio = 2.0 }),
            ]
        }
        for (label, options) in ppocrVariants {
            let reader = try PPOCRReader(models: PPOCRModels.inDirectory(PPOCRModels.defaultDirectory()), concurrency: 1, options: options)
            for (name, crops) in sets { report("ppocr " + label, name, await evaluate(crops, reader: reader)) }
        }
    }
} catch {
    print("eval-reading: \(error)")
    exit(1)
}
