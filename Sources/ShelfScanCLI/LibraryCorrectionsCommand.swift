import ArgumentParser
import Foundation
import LibraryCore

/// `shelfscan library corrections`: the titles and authors reviewers corrected, beside what the reader read,
/// so how often the reader splits a spine wrongly can be measured and the corrections learned from.
struct LibraryCorrectionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "corrections",
        abstract: "List the books whose title or authors a reviewer corrected, beside what was read from the spine.",
        discussion: "Undone edits are left out. With --json, each correction's raw reading, read and corrected title and authors.")
    @OptionGroup var library: LibraryOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let out = CommandOutput(options: output)
        try await out.reportingErrors {
            let found = try await library.openStore().splitCorrections()
            if output.json { return try out.json(found) }
            for c in found.corrections {
                out.line(String(format: "%6lld  %@", c.workId, c.rawText.map { "“\($0)”" } ?? "(no text read)"))
                out.line("        read:      \(c.read.title) — \(authorList(c.read.authors))")
                out.line("        corrected: \(c.corrected.title) — \(authorList(c.corrected.authors))")
            }
            out.line("\(found.corrections.count) book(s) corrected; of \(found.editDecisions) edit(s), "
                     + "\(found.titleChanges) changed the title and \(found.authorChanges) the authors")
        }
    }
}
