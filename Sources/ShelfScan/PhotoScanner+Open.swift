import Catalog
import Foundation
import LibraryCore
import SpineDetection
import SpineReading
import OnnxRuntime
import PPOCR
import SpineModel
import TextCue

/// Which reader a scan uses, as the user chose it.
public enum ReaderChoice: Sendable, Equatable {
    case none
    /// `language`: Tesseract's language codes, `+`-joined (`eng`, `spa+cat`).
    case tesseract(language: String)
    /// PP-OCR on ONNX Runtime, from the model cache (`modelsDirectory` nil: the default one).
    case ppocr(modelsDirectory: String?)
    case openAI(endpoint: String?, model: String?, concurrency: Int)
    case gemini(endpoint: String?, model: String?, concurrency: Int)
}

extension PhotoScanner {
    /// Opens every collaborator a scan needs but the library, failing with one clear error before any photo is
    /// read: a missing language pack or an unreadable catalogue is a setup problem, not a bad photo. The library
    /// is the caller's to open and set afterwards (SQLite or PostgreSQL is the program's choice, not the
    /// pipeline's), so a setup error leaves no new library behind.
    /// - Parameter readingCacheDirectory: where a vision reader keeps its answers, so a rescan costs no calls;
    ///   nil keeps none.
    public static func open(
        configuration: ScanConfiguration,
        reader choice: ReaderChoice,
        catalogPath: String?,
        readingCacheDirectory: URL? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> PhotoScanner {
        let reader: (any SpineReader)?
        switch choice {
        case .none:
            reader = nil
        case .tesseract(let language):
            var readerConfiguration = ReaderConfiguration(kind: .tesseract, language: language)
            readerConfiguration.concurrency = configuration.jobs
            reader = try ReaderFactory.make(readerConfiguration, environment: environment)
        case .ppocr(let directory):
            var readerConfiguration = ReaderConfiguration(kind: .ppocr)
            readerConfiguration.modelsDirectory = directory.map { URL(fileURLWithPath: $0, isDirectory: true) }
            readerConfiguration.concurrency = configuration.jobs
            reader = try ReaderFactory.make(readerConfiguration, environment: environment)
        case .openAI(let endpoint, let model, let concurrency), .gemini(let endpoint, let model, let concurrency):
            var readerConfiguration = ReaderConfiguration(kind: choice.isGemini ? .gemini : .openai)
            if let endpoint {
                guard let url = URL(string: endpoint), url.scheme == "http" || url.scheme == "https" else {
                    throw ScanSetupError.badEndpoint(endpoint)
                }
                readerConfiguration.endpoint = url
            }
            if let model { readerConfiguration.model = model }
            readerConfiguration.concurrency = concurrency
            if let readingCacheDirectory { readerConfiguration.cacheDirectory = readingCacheDirectory }
            reader = try ReaderFactory.make(readerConfiguration, environment: environment)
        }
        let catalog = try catalogPath.map { path in
            let (loaded, _) = try Catalog.load(csvAt: path)
            return CatalogIndex(loaded)
        }
        // The text cue uses PP-OCR's detector model whichever reader reads the spines; a machine without the
        // model cache detects without it. With the PP-OCR reader it runs on the reader's detector session, which
        // allocates per run, so the memory a cue run frees goes to the reader's crops: a session of its own that
        // kept its arena was no faster there and held 50-65 MB more at its peak (4 Bookfinder photos, --jobs 1,
        // three runs each: 398-438 MB shared, 462-486 MB apart). Without that reader the cue gets a session of
        // its own that keeps its arena (`TextCue(models:)`), about 12 ms less CPU per photo.
        let detector = SpineDetector()
        let textCue: TextCue?
        if let ppocr = reader as? PPOCRReader {
            textCue = TextCue(session: ppocr.detector.session, longSide: detector.parameters.textCueLongSide)
        } else {
            var modelsDirectory: URL?
            if case .ppocr(let directory?) = choice { modelsDirectory = URL(fileURLWithPath: directory, isDirectory: true) }
            textCue = TextCue.fromModelCache(modelsDirectory, environment: environment,
                                             longSide: detector.parameters.textCueLongSide)
        }
        var scanner = PhotoScanner(configuration: configuration, detector: detector, reader: reader, textCue: textCue,
                                   catalog: catalog)
        scanner.spineModel = try spineModel(for: configuration.detector, reader: choice, environment: environment)
        return scanner
    }
}

extension PhotoScanner {
    /// The learned spine model on the model cache's ONNX Runtime, when the chosen detector uses it. A damaged model
    /// file stops the scan with one line; a machine without ONNX Runtime (scripts/setup.sh not run) scans with the
    /// classic detector alone unless the learned one was asked for by name.
    static func spineModel(for choice: DetectorChoice, reader: ReaderChoice,
                           environment: [String: String]) throws -> SpineModel? {
        guard choice != .classic else { return nil }
        var directory = PPOCRModels.defaultDirectory(environment: environment)
        if case .ppocr(let custom?) = reader { directory = URL(fileURLWithPath: custom, isDirectory: true) }
        let runtime: OnnxRuntime
        do {
            runtime = try OnnxRuntime.load(libraryPath: PPOCRModels.inDirectory(directory).runtimeLibrary)
        } catch {
            if choice == .fused { return nil }
            throw ScanSetupError.spineModel("--detector learned needs ONNX Runtime: \(error)")
        }
        do {
            return try SpineModel(runtime: runtime)
        } catch {
            throw ScanSetupError.spineModel(error.description)
        }
    }
}

extension ReaderChoice {
    var isGemini: Bool { if case .gemini = self { true } else { false } }
}

/// A scan that cannot start: said once, before any photo is read.
public enum ScanSetupError: Error, CustomStringConvertible, Equatable {
    case badEndpoint(String)
    case spineModel(String)

    public var description: String {
        switch self {
        case .badEndpoint(let text): "--endpoint \(text) is not an http(s) URL, e.g. http://localhost:11434/v1"
        case .spineModel(let line): line
        }
    }
}
