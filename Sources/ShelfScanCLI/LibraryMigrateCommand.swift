import ArgumentParser
import Foundation
import LibraryCore
import ShelfScan

/// `shelfscan library migrate --from PATH_OR_URL --to PATH_OR_URL`: a whole library onto another engine.
struct LibraryMigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Copy a whole library into an empty one, SQLite or PostgreSQL, and show counts and checksums of both.",
        discussion: """
              shelfscan library migrate --from library.sqlite --to postgres://shelfscan@db.example:5432/library
            The server's password comes from PGPASSWORD or `postgres_password` in the config file, never the URL.
            """)
    @Option(name: .long, help: ArgumentHelp("The library to copy: a SQLite path or a postgres:// URL.", valueName: "path-or-url"))
    var from: String
    @Option(name: .long, help: ArgumentHelp("An empty library to copy into: a SQLite path or a postgres:// URL.", valueName: "path-or-url"))
    var to: String
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let out = CommandOutput(options: output)
        try await out.reportingErrors {
            let report = try await LibraryMigration.copy(from: try LibraryOpener.open(from), to: try LibraryOpener.open(to))
            if output.json {
                return try out.json(["from": ["location": report.from.location, "checksum": report.from.checksum],
                                     "to": ["location": report.to.location, "checksum": report.to.checksum]])
            }
            for side in [("from", report.from), ("to", report.to)] {
                let counts = LibraryDump.tables.map(\.name).appending("crops").map { "\($0) \(side.1.counts[$0] ?? 0)" }
                out.line("\(side.0) \(side.1.location): \(counts.joined(separator: ", "))")
                out.line("  checksum \(side.1.checksum)")
            }
            guard report.identical else { throw LibraryError.importFailed("the copy differs from the original; the target may be incomplete") }
            if !output.quiet { out.note("copied: counts and checksums match") }
        }
    }
}

private extension Array {
    func appending(_ e: Element) -> [Element] { self + [e] }
}
