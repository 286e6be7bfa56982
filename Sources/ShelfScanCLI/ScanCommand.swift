import ArgumentParser
import Foundation
import LibraryCore
import ShelfScan

/// `shelfscan scan PATH...`: the product's main job. Thin: it turns flags into a `ScanConfiguration`,
/// opens the collaborators and prints what `BatchScanner` reports.
struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Find and read every book spine in shelf photos, and file them for review.",
        discussion: """
            Files and folders are accepted (folders recursively; .jpg, .jpeg, .png, .heic, .heif, .webp in any case). \
            Each photo is filed once, known by its content: scanning it again skips it unless --rescan.

            Exit status: 0 when every photo was scanned or skipped, 1 when some failed, 2 for a usage error.

            API keys for --reader openai|gemini come from OPENAI_API_KEY, GEMINI_API_KEY or \
            SHELFSCAN_API_KEY, or from $XDG_CONFIG_HOME/shelfscan/config.json; never from the command line.
            """
    )

    enum ReaderKind: String, ExpressibleByArgument, CaseIterable {
        case ppocr, tesseract, openai, gemini, none
    }

    @Argument(help: ArgumentHelp("Photos or folders of photos.", valueName: "path"),
              completion: .file(extensions: ["jpg", "jpeg", "png", "heic", "heif", "webp"]))
    var paths: [String]

    @Option(help: ArgumentHelp(
        "How spines are read: ppocr (embedded PP-OCR, offline), tesseract (offline), a vision-LLM endpoint, or none.",
        discussion: "ppocr needs the files scripts/setup.sh fetches into ~/.cache/shelfscan/models (or SHELFSCAN_MODELS_DIR)."))
    var reader: ReaderKind = Self.defaultReader

    /// Shared with `serve`, so both doors read spines the same way unless told otherwise.
    static let defaultReader: ReaderKind = .ppocr

    @Option(name: .customLong("lang"),
            help: ArgumentHelp("Tesseract language(s), +-joined, e.g. spa+cat; each needs its traineddata installed.",
                               valueName: "codes"))
    var language: String = "eng"

    @Option(help: ArgumentHelp("Base URL of the vision endpoint (default: the provider's public API).", valueName: "url"))
    var endpoint: String?

    @Option(help: "Model name at the endpoint.")
    var model: String?

    @Option(help: "Photos processed in parallel (default: the number of cores).")
    var jobs: Int?

    @Option(help: "Endpoint requests in flight across the whole batch.")
    var concurrency: Int = 4

    @Option(help: ArgumentHelp("Write a detection overlay: a .png file for one photo, else a folder.", valueName: "path"))
    var overlay: String?

    @Option(help: ArgumentHelp("Also write every spine crop as a JPEG into this folder.", valueName: "dir"))
    var crops: String?

    @Flag(help: "Detect and read, but file nothing.")
    var dryRun = false

    @Option(help: ArgumentHelp("On a shared (postgres://) library: seconds a photo stays claimed by this worker before another may take it over.", valueName: "seconds"))
    var claimLease: Double = 300

    @Flag(help: "Scan photos already filed again, replacing their pending Works (verified ones are kept).")
    var rescan = false

    @Flag(help: "In folders, leave symbolic links to photos and folders out (they are counted in the summary).")
    var noFollowLinks = false

    @Option(help: ArgumentHelp("Drop detected spines below this confidence (0...1).", valueName: "x"))
    var minConfidence: Double = 0

    @Option(help: ArgumentHelp(
        "How spines are found: fused (turns photos taken sideways or upside down upright, then finds the spines), classic (the photo as taken), or learned (the learned spine model alone).",
        discussion: "fused and learned use ShelfScan's own spine model on the ONNX Runtime that scripts/setup.sh fetches; without it, fused works as classic."))
    var detector: DetectorChoice = .fused

    @Option(help: ArgumentHelp("Match every reading against this catalogue CSV.", valueName: "file.csv"),
            completion: .file(extensions: ["csv"]))
    var catalog: String?

    @OptionGroup var library: LibraryOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var enrichment: EnrichOptions

    func validate() throws {
        guard (jobs ?? 1) >= 1 else { throw ValidationError("Please pass --jobs 1 or more.") }
        guard concurrency >= 1 else { throw ValidationError("Please pass --concurrency 1 or more.") }
        guard (0...1).contains(minConfidence) else { throw ValidationError("Please pass --min-confidence between 0 and 1.") }
        if reader == .tesseract || reader == .ppocr || reader == .none {
            guard endpoint == nil, model == nil else {
                throw ValidationError("--endpoint and --model only apply to --reader openai or gemini.")
            }
        }
        if reader != .tesseract && language != "eng" {
            throw ValidationError("--lang applies to --reader tesseract; PP-OCR reads Latin scripts, accents included, without it.")
        }
        guard language.split(separator: "+", omittingEmptySubsequences: false).allSatisfy({ code in
            !code.isEmpty && code.allSatisfy { $0.isLetter || $0 == "_" }
        }) else { throw ValidationError("Please pass --lang as Tesseract codes joined by +, e.g. eng or spa+cat.") }
    }

    func run() async throws {
        var configuration = ScanConfiguration()
        configuration.jobs = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        configuration.fileResults = !dryRun
        configuration.rescan = rescan
        configuration.photoLease = claimLease
        configuration.minConfidence = minConfidence
        configuration.detector = detector
        configuration.cropsDirectory = crops
        var overlayFile: String?
        if let overlay {
            if overlay.lowercased().hasSuffix(".png") && paths.count == 1 && PhotoSource.isPhotoPath(paths[0]) {
                overlayFile = overlay
            } else {
                configuration.overlayDirectory = overlay
            }
        }
        configuration.overlayFile = overlayFile

        let json = output.json
        do {
            var scanner = try await makeScanner(configuration)
            scanner.enricher = try enrichment.makeEnricher(notify: EnrichOptions.stderrNotice)
            if scanner.textCue == nil && !output.quiet {
                // Detection still runs, but finds more boxes on walls and cabinet sides without it: say so once.
                EnrichOptions.stderrNotice("Finding spines without the text cue: the PP-OCR models are not in the model cache (scripts/setup.sh fetches them).")
            }
            let source = PhotoSource(paths: paths, excluding: scanner.library.map(Self.libraryFiles) ?? [], followLinks: !noFollowLinks)
            let display = ProgressDisplay(mode: ProgressDisplay.mode(json: json, quiet: output.quiet))
            let printer = ResultPrinter(json: json, readerName: reader.rawValue)
            let summary = await BatchScanner(scanner: scanner).run(source) { event in
                await display.handle(event)
                if case .finished(_, let outcome) = event { printer.print(outcome) }
            }
            await display.finish()
            printer.printLeftOut(summary.leftOut)
            if !json && !output.quiet { printer.printSummary(summary) }
            if let enricher = scanner.enricher, !json, !output.quiet { EnrichOptions.printSummary(enricher) }
            if summary.failed > 0 { throw ExitCode.failure }
        } catch let error as ExitCode {
            throw error
        } catch {
            ResultPrinter(json: json, readerName: reader.rawValue).printFatal(error)
            throw ExitCode.failure
        }
    }

    /// The library's own files, never to be scanned when the library sits inside a scanned folder.
    static func libraryFiles(_ store: any LibraryStoring) -> [String] {
        let database = store.path.map { [$0, $0 + "-wal", $0 + "-shm", $0 + "-journal"] } ?? []
        return database + [store.cropsDirectory.path]
    }

    /// Opens what the scan needs; each failure here is one clear line before any photo is read.
    private func makeScanner(_ configuration: ScanConfiguration) async throws -> PhotoScanner {
        try await Self.openScanner(configuration, reader: Self.readerChoice(reader, language: language, endpoint: endpoint, model: model, concurrency: concurrency),
                                   catalog: catalog, library: dryRun ? nil : library.resolvedPath())
    }

    /// The pipeline first, the library last: a setup error (a missing language pack, no model cache) leaves no
    /// empty library behind. `serve` opens its scanner through this too.
    static func openScanner(_ configuration: ScanConfiguration, reader: ReaderChoice, catalog: String?,
                            library location: String?) async throws -> PhotoScanner {
        var scanner = try PhotoScanner.open(configuration: configuration, reader: reader, catalogPath: catalog,
                                            readingCacheDirectory: location.flatMap(LibraryOpener.readingCache))
        if let location { scanner.library = try await LibraryOpener.open(location) }
        return scanner
    }
}

extension ScanCommand {
    /// The reader a `--reader` choice and its options name; `serve` opens its scanner through this too.
    static func readerChoice(_ kind: ReaderKind, language: String, endpoint: String?, model: String?, concurrency: Int) -> ReaderChoice {
        switch kind {
        case .none: .none
        case .tesseract: .tesseract(language: language)
        case .ppocr: .ppocr(modelsDirectory: nil)
        case .openai: .openAI(endpoint: endpoint, model: model, concurrency: concurrency)
        case .gemini: .gemini(endpoint: endpoint, model: model, concurrency: concurrency)
        }
    }
}

extension DetectorChoice: ExpressibleByArgument {}
