import Foundation
internal import CTesseract
import ShelfImage

/// One recognised word: text, Tesseract's confidence (0...100) and its box in the recognised image.
struct OCRWord: Sendable, Equatable {
    var text: String
    var confidence: Double
    var left: Int, top: Int, right: Int, bottom: Int
    var fromDictionary: Bool
    var height: Int { bottom - top }
}

/// One text line as Tesseract segmented it.
struct OCRLine: Sendable, Equatable {
    var words: [OCRWord]
    var left: Int, top: Int, right: Int, bottom: Int
    var height: Int { bottom - top }
    var text: String { words.map(\.text).joined(separator: " ") }
}

/// Page-segmentation modes used on spines (names from tesseract's `PageSegMode`).
enum SegmentationMode: Sendable {
    /// PSM_SINGLE_LINE: the whole image is one text line.
    case singleLine
    /// PSM_SINGLE_BLOCK: one uniform block of text lines.
    case block
    /// PSM_SPARSE_TEXT: as much text as possible, in no particular order.
    case sparse

    var raw: TessPageSegMode {
        switch self {
        case .singleLine: PSM_SINGLE_LINE
        case .block: PSM_SINGLE_BLOCK
        case .sparse: PSM_SPARSE_TEXT
        }
    }
}

/// Owns one `TessBaseAPI`. Tesseract handles are not thread-safe: one engine per worker thread. A class
/// rather than a struct plus `defer` because the handle lives across many recognitions (loading the
/// language model costs ~100 ms) and must be ended exactly once.
final class TesseractEngine {
    private let handle: OpaquePointer

    /// The corresponding C functions are `TessBaseAPICreate` and `TessBaseAPIInit3`.
    init(dataPath: String, language: String) throws(ReaderError) {
        try Self.checkLanguageData(dataPath: dataPath, language: language)
        Self.limitOpenMP()
        guard let h = TessBaseAPICreate() else { throw .engineUnavailable("TessBaseAPICreate returned nil") }
        guard TessBaseAPIInit3(h, dataPath, language) == 0 else {
            TessBaseAPIDelete(h)
            throw .missingLanguageData(language, dataPath: dataPath)
        }
        handle = h
        // Crops carry no resolution; without this Tesseract guesses and warns on stderr for every image.
        _ = TessBaseAPISetVariable(h, "user_defined_dpi", "300")
        _ = TessBaseAPISetVariable(h, "debug_file", "/dev/null")
    }

    deinit {
        TessBaseAPIEnd(handle)
        TessBaseAPIDelete(handle)
    }

    /// Debian's libtesseract is built with OpenMP, whose worker threads spin-wait between the small
    /// parallel regions of one recognition: on spine crops that cost 5x the time (eval-reading: 498 ms vs
    /// 106 ms median per crop), mostly in the kernel. Readers parallelise across engines instead, so
    /// OpenMP gets one thread unless the user set the limit. Must run before the first engine starts.
    private static let openMPLimited: Bool = {
        setenv("OMP_THREAD_LIMIT", "1", 0) == 0
    }()

    static func limitOpenMP() { _ = openMPLimited }

    /// The version string of the linked libtesseract (`TessVersion`).
    static var version: String { String(cString: TessVersion()) }

    /// Where the language files are: `TESSDATA_PREFIX`, else the first Debian/Homebrew location that has them.
    static func defaultDataPath(language: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let prefix = environment["TESSDATA_PREFIX"], !prefix.isEmpty { return prefix }
        let candidates = [
            "/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata", "/usr/share/tessdata",
            "/usr/local/share/tessdata", "/opt/homebrew/share/tessdata",
        ]
        let first = language.split(separator: "+").first.map(String.init) ?? "eng"
        return candidates.first { FileManager.default.fileExists(atPath: "\($0)/\(first).traineddata") } ?? candidates[0]
    }

    /// Checked in Swift first so a missing file gives one clear error instead of Tesseract's stderr chatter.
    static func checkLanguageData(dataPath: String, language: String) throws(ReaderError) {
        for lang in language.split(separator: "+") where !FileManager.default.fileExists(atPath: "\(dataPath)/\(lang).traineddata") {
            throw .missingLanguageData(String(lang), dataPath: dataPath)
        }
    }

    /// Sets a Tesseract parameter (`TessBaseAPISetVariable`); false when the name is unknown.
    @discardableResult
    func setVariable(_ name: String, _ value: String) -> Bool {
        TessBaseAPISetVariable(handle, name, value) != 0
    }

    /// Recognises an 8-bit gray image fed straight from memory (`TessBaseAPISetImage` with 1 byte per pixel),
    /// then walks the words with a result iterator (`TessBaseAPIGetIterator`). No Leptonica file round trip.
    func recognize(_ image: GrayImage, mode: SegmentationMode) -> [OCRLine] {
        guard image.width >= 4, image.height >= 4 else { return [] }
        TessBaseAPISetPageSegMode(handle, mode.raw)
        image.pixels.withUnsafeBufferPointer { px in
            // Tesseract copies the pixels during SetImage; the pointer does not escape this closure.
            TessBaseAPISetImage(handle, px.baseAddress, Int32(image.width), Int32(image.height), 1, Int32(image.width))
        }
        defer { TessBaseAPIClear(handle) }
        guard TessBaseAPIRecognize(handle, nil) == 0, let iterator = TessBaseAPIGetIterator(handle) else { return [] }
        defer { TessResultIteratorDelete(iterator) }
        let page = TessResultIteratorGetPageIterator(iterator)
        var lines: [OCRLine] = []
        var l: Int32 = 0, t: Int32 = 0, r: Int32 = 0, b: Int32 = 0
        repeat {
            if lines.isEmpty || TessPageIteratorIsAtBeginningOf(page, RIL_TEXTLINE) != 0 {
                _ = TessPageIteratorBoundingBox(page, RIL_TEXTLINE, &l, &t, &r, &b)
                lines.append(OCRLine(words: [], left: Int(l), top: Int(t), right: Int(r), bottom: Int(b)))
            }
            guard let cText = TessResultIteratorGetUTF8Text(iterator, RIL_WORD) else { continue }
            let text = String(cString: cText)
            TessDeleteText(cText)
            let confidence = Double(TessResultIteratorConfidence(iterator, RIL_WORD))
            _ = TessPageIteratorBoundingBox(page, RIL_WORD, &l, &t, &r, &b)
            let dictionary = TessResultIteratorWordIsFromDictionary(iterator) != 0
            lines[lines.count - 1].words.append(
                OCRWord(text: text, confidence: confidence, left: Int(l), top: Int(t), right: Int(r), bottom: Int(b), fromDictionary: dictionary))
        } while TessResultIteratorNext(iterator, RIL_WORD) != 0
        return lines.filter { !$0.words.isEmpty }
    }
}

@available(*, unavailable) extension TesseractEngine: Sendable {}
