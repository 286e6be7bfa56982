import ArgumentParser
import BookModel
import Foundation
import LibraryCore
import ShelfScan

/// `shelfscan library`: what is in the library, and moving it in and out.
struct LibraryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library",
        abstract: "List, show, count, export and import the books in your library.",
        discussion: """
              shelfscan library stats
              shelfscan library export --format csv --output books.csv
              shelfscan library import goodreads_library_export.csv
              shelfscan library corrections --json
            """,
        subcommands: [LibraryList.self, LibraryShow.self, LibraryStatsCommand.self, LibraryExportCommand.self, LibraryImportCommand.self,
                      LibraryCorrectionsCommand.self, LibraryEnrichCommand.self, LibraryMigrateCommand.self]
    )
}

struct LibraryList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List reviewed books by title.")
    @OptionGroup var library: LibraryOptions
    @OptionGroup var output: OutputOptions
    @Option(name: .long, help: "Show at most this many.") var limit: Int?

    func run() async throws {
        let out = CommandOutput(options: output)
        try await out.reportingErrors {
            let list = try await library.openStore().librarySummaries(limit: limit)
            if output.json { return try out.json(["works": list]) }
            for s in list {
                out.line(String(format: "%6lld  %@ — %@", s.id, s.title as NSString, authorList(s.authors) as NSString))
            }
            if !output.quiet { out.note("\(list.count) book(s)") }
        }
    }
}

struct LibraryShow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one book in full.")
    @OptionGroup var library: LibraryOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The Work's ID.") var id: Int64

    func run() async throws {
        try await ReviewShow.show(id: id, library: library, output: output)
    }
}

struct LibraryStatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stats", abstract: "Count books, authors, photos and what waits for review.")
    @OptionGroup var library: LibraryOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let out = CommandOutput(options: output)
        try await out.reportingErrors {
            let store = try await library.openStore()
            let s = try await store.stats()
            if output.json { return try out.json(s) }
            out.line("library:   \(library.resolvedPath())")
            out.line("works:     \(s.works) (\(s.verified) verified, \(s.userEdited) edited, \(s.pending) pending review)")
            out.line("copies:    \(s.owned) owned, \(s.wishlist) on the wishlist")
            for status in ReadingStatus.allCases where (s.byReadingStatus[status.rawValue] ?? 0) > 0 {
                out.line("  \(status.displayName): \(s.byReadingStatus[status.rawValue]!)")
            }
            out.line("authors:   \(s.authors) · editions: \(s.editions) · photos: \(s.photos) · decisions: \(s.decisions)")
        }
    }
}

struct LibraryExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "export", abstract: "Export reviewed books as JSON or Goodreads CSV.")
    enum Format: String, ExpressibleByArgument, CaseIterable { case json, csv }
    @OptionGroup var library: LibraryOptions
    @Option(name: .long, help: "json or csv.") var format: Format = .json
    @Option(name: [.short, .long], help: "Write here instead of standard output.", completion: .file()) var output: String?

    func run() async throws {
        let out = CommandOutput()
        try await out.reportingErrors {
            let store = try await library.openStore()
            let text: String
            switch format {
            case .csv: text = try await store.exportCSV()
            case .json:
                let envelope = SuccessResponse(data: try await store.exportLibrary(), meta: .now(since: out.started))
                text = String(decoding: try ISO8601.makeEncoder(pretty: true).encode(envelope), as: UTF8.self) + "\n"
            }
            if let output {
                try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
                out.note("wrote \(output)")
            } else {
                FileHandle.standardOutput.write(Data(text.utf8))
            }
        }
    }
}

struct LibraryImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a Goodreads, LibraryThing or StoryGraph CSV export (or a shelfscan JSON export).",
        discussion: "Books already in the library are merged, not duplicated. A malformed row is reported with its line number and skipped.")
    @OptionGroup var library: LibraryOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The export file.", completion: .file(extensions: ["csv", "json"])) var file: String

    func run() async throws {
        let out = CommandOutput(options: output)
        try await out.reportingErrors {
            if let problem = PathCheck.problem(file) { throw LibraryError.importFailed(problem) }
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            let store = try await library.openStore()
            let isJSON = file.lowercased().hasSuffix(".json") || data.first(where: { !" \n\r\t".utf8.contains($0) }) == UInt8(ascii: "{")
            let report: ImportReport
            if isJSON {
                report = try await store.importJSON(data)
            } else {
                report = try await store.importCSV([UInt8](data))
            }
            if output.json { return try out.json(report) }
            out.line("\(file): \(report.imported) imported, \(report.merged) merged into books already there, \(report.skipped.count) skipped")
            for problem in report.skipped { out.line("  skipped \(problem)") }
        }
    }
}
