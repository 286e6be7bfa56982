import ArgumentParser
import Foundation
import Logging
import ShelfScan
import ShelfScanServer

/// `shelfscan serve`: the scan-and-review HTTP service. Thin, like `scan`: flags become a
/// `ServerConfiguration` and a `PhotoScanner` opened exactly as `scan` opens one.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve BooksTrack's scan APIs (v3 multipart + SSE, v1 raw body + WebSocket) and the review queue over HTTP.",
        discussion: """
            Jobs, their uploads and everything scanned go to the library (--library); an accepted job survives a \
            restart. GET /openapi.json describes every route.

            A job's own routes (its status, progress, results and cancel) want the token returned with that job. \
            When SHELFSCAN_SERVER_TOKEN is set, every route also takes Authorization: Bearer <token>, and the \
            routes that are not a job's own want it. The token is never taken from the command line.

            Without SHELFSCAN_SERVER_TOKEN the library's routes are open, so serve listens only on this machine \
            (127.0.0.1, ::1, localhost) unless you pass --allow-open-network.
            """
    )

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port to listen on (0: any free port, printed at start).") var port = 8080
    @Flag(help: "Listen on an address other machines can reach without SHELFSCAN_SERVER_TOKEN: anyone on the network may then review and change the library.")
    var allowOpenNetwork = false

    @Option(help: "How spines are read: the embedded OCR engine, a vision-LLM endpoint, or not at all.")
    var reader: ScanCommand.ReaderKind = ScanCommand.defaultReader
    @Option(name: .customLong("lang"), help: ArgumentHelp("Tesseract language(s), +-joined.", valueName: "codes"))
    var language: String = "eng"
    @Option(help: ArgumentHelp("Base URL of the vision endpoint.", valueName: "url")) var endpoint: String?
    @Option(help: "Model name at the endpoint.") var model: String?
    @Option(help: "Endpoint requests in flight across all jobs.") var concurrency: Int = 4
    @Option(help: ArgumentHelp("Match every reading against this catalogue CSV.", valueName: "file.csv")) var catalog: String?

    @Option(help: "Photos one v3 request may carry.") var maxPhotos = 5
    @Option(help: "Megabytes one request body may carry.") var maxUploadMb = 50
    @Option(help: "Megabytes one photo may have.") var maxPhotoMb = 20
    @Option(help: "Megapixels one photo may have (checked from its header before it is stored).") var maxMegapixels = 100
    @Option(help: "Scan submissions per minute per client (0: no limit).") var rateLimit = 30
    @Option(help: "Jobs scanned at the same time.") var concurrentJobs = 2
    @Option(help: "Seconds between SSE ping events and WebSocket pings.") var pingSeconds: Double = 30

    @OptionGroup var library: LibraryOptions
    @OptionGroup var enrichment: EnrichOptions

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("Please pass --port between 0 and 65535.") }
        guard maxPhotos >= 1 else { throw ValidationError("Please pass --max-photos 1 or more.") }
        guard maxUploadMb >= 1, maxPhotoMb >= 1 else { throw ValidationError("Please pass --max-upload-mb and --max-photo-mb of 1 or more.") }
        guard pingSeconds >= 0.05 else { throw ValidationError("Please pass --ping-seconds of 0.05 or more.") }
        guard maxMegapixels >= 1 else { throw ValidationError("Please pass --max-megapixels 1 or more.") }
        guard rateLimit >= 0 else { throw ValidationError("Please pass --rate-limit 0 (off) or more.") }
        guard concurrentJobs >= 1, concurrency >= 1 else { throw ValidationError("Please pass --concurrent-jobs and --concurrency of 1 or more.") }
        if reader == .tesseract || reader == .ppocr || reader == .none {
            guard endpoint == nil, model == nil else { throw ValidationError("--endpoint and --model only apply to --reader openai or gemini.") }
        }
    }

    func run() async throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return handler
        }
        var scanConfiguration = ScanConfiguration()
        scanConfiguration.fileResults = true
        scanConfiguration.maxPixels = maxMegapixels * 1_000_000
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.maxPhotos = maxPhotos
        configuration.maxRequestBytes = maxUploadMb << 20
        configuration.maxPhotoBytes = maxPhotoMb << 20
        configuration.maxPixels = scanConfiguration.maxPixels
        configuration.submissionsPerMinute = rateLimit
        configuration.concurrentJobs = concurrentJobs
        configuration.token = ProcessInfo.processInfo.environment["SHELFSCAN_SERVER_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        configuration.pingInterval = .milliseconds(Int(pingSeconds * 1000))
        if configuration.token == nil, !allowOpenNetwork, !ServerConfiguration.isLoopback(host) {
            FileHandle.standardError.write(Data(("Error: other machines can reach --host \(host), and without SHELFSCAN_SERVER_TOKEN they could "
                + "read and change your library. Set SHELFSCAN_SERVER_TOKEN, or pass --allow-open-network to serve it open.\n").utf8))
            throw ExitCode(2)
        }

        var scanner: PhotoScanner
        do {
            scanner = try await ScanCommand.openScanner(
                scanConfiguration,
                reader: ScanCommand.readerChoice(reader, language: language, endpoint: endpoint, model: model, concurrency: concurrency),
                catalog: catalog,
                library: library.resolvedPath())
            // As `scan --enrich`: the same providers, cache and circuit; a paused provider is one log line.
            let logger = Logger(label: "shelfscan.serve")
            scanner.enricher = try enrichment.makeEnricher { line in logger.warning("\(line)") }
        } catch {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            throw ExitCode.failure
        }
        let host = self.host
        let authNote = configuration.token == nil
            ? "no server token: jobs want their own token, the rest is open; set SHELFSCAN_SERVER_TOKEN to require one" : "token required"
        let server = ShelfScanServer(configuration: configuration, scanner: scanner, version: Shelfscan.version)
        try await server.run { port in
            FileHandle.standardError.write(Data("shelfscan serve: listening on http://\(host):\(port) (\(authNote))\n".utf8))
        }
    }
}
