import ArgumentParser
import BookModel
import Foundation
import LibraryCore
import ShelfImage
import ShelfScan

/// `shelfscan find`: "where is my book?" The search and the place in words come from `Library`'s
/// `BookFinder` and the drawing from `SpineHighlight`, the same ones `GET /find` uses.
struct FindCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find",
        abstract: "Find a book by title or author words, and where it stands on your shelves.",
        discussion: """
            Every word must start a word of the title or an author's name. Pending books are found too.
              shelfscan find dispossessed
              shelfscan find "le guin" --highlight where.jpg
            """
    )

    @OptionGroup var library: LibraryOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: ArgumentHelp("Words of the title or of an author's name.", valueName: "text"))
    var text: [String]

    @Option(name: .long, help: ArgumentHelp(
        "Write the best match's photo here (at most \(SpineHighlight.defaultMaxSide) px) with its spine outlined.",
        valueName: "file.jpg|file.png"), completion: .file(extensions: ["jpg", "jpeg", "png"]))
    var highlight: String?

    @Option(name: .long, help: "Show at most this many books.")
    var limit: Int = 20

    func validate() throws {
        guard !TextNormalization.tokens(text.joined(separator: " ")).isEmpty else {
            throw ArgumentParser.ValidationError("Please give a word of the title or author to find.")
        }
        guard limit > 0 else { throw ArgumentParser.ValidationError("Please pass a --limit of at least 1.") }
        if let highlight, SpineHighlight.Format(fileName: highlight) == nil {
            throw ArgumentParser.ValidationError("Please name the --highlight file .jpg, .jpeg or .png.")
        }
    }

    func run() async throws {
        let out = CommandOutput(options: output)
        try await out.reportingErrors {
            let query = text.joined(separator: " ")
            let found = try await library.openStore().find(query, limit: limit)
            if let highlight { try Self.writeHighlight(found, to: highlight, out: out) }
            if output.json { return try out.json(FoundBooks(query: query, books: found.map(FoundBookDTO.init))) }
            if found.isEmpty { out.note("No book's title or author matches \"\(query)\".") }
            for book in found {
                let status = book.work.reviewStatus == .needsReview ? "  (pending review)" : ""
                out.line("\(book.work.title) — \(authorList(book.work.authors.map(\.name)))\(status)")
                if let place = book.place {
                    out.line("  \(place.words)" + (place.photoPath.map { ": \($0)" } ?? ""))
                } else {
                    out.line("  not filed from a photo")
                }
            }
        }
    }

    /// Draws the best match that stands on a photo; a miss is an error, since the file asked for is not written.
    static func writeHighlight(_ found: [FoundBook], to path: String, out: CommandOutput) throws {
        guard let book = found.first(where: { $0.place != nil }), let place = book.place else {
            throw FindError.nothingToHighlight
        }
        let image = try SpineHighlight.image(place)
        let bytes = try SpineHighlight.encode(image, as: SpineHighlight.Format(fileName: path) ?? .jpeg)
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw FindError.cannotWrite(path, (error as NSError).localizedDescription)
        }
        out.note("wrote \(path): \(book.work.title), \(place.words)")
    }
}

enum FindError: Error, CustomStringConvertible {
    case nothingToHighlight
    case cannotWrite(String, String)

    var description: String {
        switch self {
        case .nothingToHighlight: "No match stands on a scanned photo, so there is nothing to highlight."
        case .cannotWrite(let path, let reason): "Cannot write \(path): \(reason). Check that its folder exists and is writable."
        }
    }
}

/// The `--json` data: what matched and where it stands, numbers and names only.
struct FoundBooks: Encodable, Sendable {
    var query: String
    var books: [FoundBookDTO]
}

struct FoundBookDTO: Encodable, Sendable {
    var workId: Int64
    var title: String
    var authors: [String]
    var reviewStatus: ReviewStatus
    var revision: Int
    /// nil for a book not filed from a photo.
    var place: ShelfPlace?

    init(_ book: FoundBook) {
        workId = book.work.id ?? 0; title = book.work.title; authors = book.work.authors.map(\.name)
        reviewStatus = book.work.reviewStatus; revision = book.work.revision; place = book.place
    }
}
