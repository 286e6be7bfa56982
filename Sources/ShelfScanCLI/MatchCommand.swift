import ArgumentParser
import Catalog
import Foundation

/// `shelfscan match`: snap raw spine readings to a known book list, to check a catalogue before a scan or to
/// batch-match OCR lines (`-` reads one reading per line from stdin).
struct MatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Match spine readings against a catalogue CSV.",
        discussion: """
            The catalogue is a Goodreads export or any CSV with a title column (author, isbn, tag, series optional).
            Scores are calibrated probabilities; a match scoring at least \(String(format: "%.3f", CatalogIndex.acceptThreshold)) \
            is what `scan --catalog` accepts (about 95% precision on real spines).
              shelfscan match --catalog books.csv "CIEN AÑOS DE SOLEDAD García Márquez N Gar"
              cut -f2 readings.tsv | shelfscan match --catalog books.csv --json -
            """
    )

    @Option(name: .long, help: ArgumentHelp("Catalogue CSV file.", valueName: "file.csv"),
            completion: .file(extensions: ["csv"]))
    var catalog: String

    @Option(name: .long, help: "How many candidates to print per reading.")
    var top: Int = 5

    @Flag(name: .long, help: "One JSON object per reading: {\"query\", \"matches\": [{title, author, isbn, tag, score}]}.")
    var json = false

    @Argument(help: ArgumentHelp("Readings to match; `-` reads one per line from standard input.", valueName: "text"))
    var text: [String] = []

    func validate() throws {
        guard top > 0 else { throw ValidationError("Please pass a --top of at least 1.") }
        guard !text.isEmpty else { throw ValidationError("Please give a reading to match, or - to read them from standard input.") }
    }

    func run() throws {
        // CatalogError reads as one line ("Cannot read catalogue x.csv: no such file"); ArgumentParser prints it
        // as "Error: ..." and exits non-zero.
        let (book, skipped) = try Catalog.load(csvAt: catalog)
        if !skipped.isEmpty {
            let shown = skipped.prefix(3).map(\.description).joined(separator: "; ")
            FileHandle.standardError.write(Data("note: skipped \(skipped.count) catalogue row(s): \(shown)\n".utf8))
        }
        guard !book.entries.isEmpty else { throw CatalogError.badHeader("\(catalog) has no usable rows") }
        let index = CatalogIndex(book)

        func answer(_ query: String) {
            let matches = index.match(query, top: top)
            if json {
                print(Self.jsonLine(query: query, matches: matches))
            } else {
                print(query)
                if matches.isEmpty { print("  (no candidates)") }
                for m in matches {
                    let mark = m.score >= CatalogIndex.acceptThreshold ? "✓" : " "
                    let details = [m.entry.authors.joined(separator: "; "), m.entry.tag, m.entry.isbn].filter { !$0.isEmpty }
                    print(String(format: "  %@ %.3f  ", mark, m.score) + m.entry.title +
                          (details.isEmpty ? "" : " — " + details.joined(separator: " · ")))
                }
            }
        }

        if text == ["-"] {
            while let line = readLine() {
                let query = line.trimmingCharacters(in: .whitespacesAndNewlines)
                if !query.isEmpty || json { answer(query) }
            }
        } else {
            for query in text { answer(query) }
        }
    }
}

extension MatchCommand {
    /// One `--json` output line: `{"matches":[{"author","isbn","score","tag","title"}...],"query":...}`.
    static func jsonLine(query: String, matches: [CatalogMatch]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let line = MatchLine(query: query, matches: matches.map(MatchLine.Match.init))
        // Encoding strings and finite doubles cannot fail.
        return (try? encoder.encode(line)).map { String(decoding: $0, as: UTF8.self) } ?? #"{"matches":[],"query":""}"#
    }
}

/// The `--json` line format.
private struct MatchLine: Encodable {
    struct Match: Encodable {
        var title: String
        var author: String
        var isbn: String
        var tag: String
        var score: Double

        init(_ m: CatalogMatch) {
            title = m.entry.title
            author = m.entry.authors.joined(separator: "; ")
            isbn = m.entry.isbn
            tag = m.entry.tag
            score = (m.score * 10_000).rounded() / 10_000
        }
    }

    var query: String
    var matches: [Match]
}
