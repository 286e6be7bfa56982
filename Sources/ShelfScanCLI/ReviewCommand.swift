import ArgumentParser
import BookModel
import Foundation
import LibraryCore

/// `shelfscan review`: the interactive session by default, and scriptable subcommands for each decision.
struct ReviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract: "Review pending spines: verify, edit, merge or reject what was read.",
        discussion: """
            With no subcommand, starts the interactive session where the last one stopped.
              shelfscan review
              shelfscan review list --json
              shelfscan review verify 12 13 14
              shelfscan review edit 15 --title "Kindred" --author "Octavia E. Butler"
            """,
        subcommands: [ReviewSessionCommand.self, ReviewList.self, ReviewShow.self, ReviewVerify.self, ReviewEdit.self,
                      ReviewReject.self, ReviewMerge.self, ReviewUndo.self],
        defaultSubcommand: ReviewSessionCommand.self
    )
}

/// What verifying files: shared by the interactive session and `review verify`.
struct VerifyOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Reading status for the books (default toRead for new ones; an edit keeps a book's status unless given).", valueName: "status"))
    var status: ReadingStatus?

    @Flag(name: .long, help: "File verified books as wishlist entries (not owned) instead of owned copies.")
    var wishlist = false

    var defaults: ReviewDefaults {
        ReviewDefaults(readingStatus: wishlist ? .wishlist : status ?? .toRead, owned: !wishlist)
    }
}

extension ReadingStatus: ExpressibleByArgument {
    public init?(argument: String) {
        guard let s = ReadingStatus.from(string: argument) else { return nil }
        self = s
    }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

struct ReviewList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the Works waiting for review, in queue order.")
    @OptionGroup var library: LibraryOptions
    @OptionGroup var output: OutputOptions
    @Option(name: .long, help: "Show at most this many.") var limit: Int?

    func run() async throws {
        let out = CommandOutput(options: output)
        try await out.reportingErrors {
            let store = try await library.openStore()
            let list = try await store.pendingSummaries(limit: limit)
            if output.json { return try out.json(PendingList(pending: try await store.pendingCount(), works: list)) }
            if !output.quiet { out.line("\(try await store.pendingCount()) pending") }
            for s in list {
                let place = s.row.map { " shelf \($0 + 1) spine \((s.position ?? 0) + 1)" } ?? ""
                out.line(String(format: "%6lld  %4@  %@ — %@%@", s.id, percent(s.readingConfidence) as NSString,
                                s.title as NSString, authorList(s.authors) as NSString, place as NSString))
            }
        }
    }

    struct PendingList: Encodable, Sendable { var pending: Int; var works: [WorkSummary] }
}

struct ReviewShow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one Work with its reading, crop and likely duplicates.")
    @OptionGroup var library: LibraryOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The Work's ID (from `review list`).") var id: Int64

    func run() async throws {
        try await Self.show(id: id, library: library, output: output)
    }

    /// Shared by `review show` and `library show`: one Work in full, wherever it is in its life.
    static func show(id: Int64, library: LibraryOptions, output: OutputOptions) async throws {
        let out = CommandOutput(options: output)
        try await out.reportingErrors {
            let store = try await library.openStore()
            guard let work = try await store.work(id: id) else { throw LibraryError.notFound(id) }
            let detail = WorkDetail(work, cropPath: await store.cropURL(for: work)?.path, duplicates: try await store.duplicates(of: work))
            if output.json { try out.json(detail) } else { detail.text.forEach(out.line) }
        }
    }
}

/// Runs one decision per ID; reports each, and fails (after trying all) if any failed.
private func decideEach(_ ids: [Int64], library: LibraryOptions, output: OutputOptions, defaults: ReviewDefaults = ReviewDefaults(),
                        _ action: (Int64) -> ReviewAction) async throws {
    let out = CommandOutput(options: output)
    try await out.reportingErrors {
        let store = try await library.openStore()
        var receipts: [DecisionJSON] = []
        var failures = 0
        for id in ids {
            do {
                let r = try await store.review(ReviewDecision(workID: id, action: action(id), session: "cli"), defaults: defaults)
                receipts.append(DecisionJSON(journalId: r.journalID, workId: r.workID, resultingWorkId: r.resultingWorkID, summary: r.summary))
                if !output.json && !output.quiet { out.line("#\(id): \(r.summary)") }
            } catch {
                failures += 1
                if output.json { out.fail(error) } else { out.fail(error) }
            }
        }
        if output.json && failures == 0 { try out.json(["decisions": receipts]) }
        if failures > 0 { throw ExitCode.failure }
    }
}

struct DecisionJSON: Encodable, Sendable {
    var journalId: Int64
    var workId: Int64
    var resultingWorkId: Int64?
    var summary: String
}

struct ReviewVerify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "verify", abstract: "Accept readings as they are; the books join the library.")
    @OptionGroup var library: LibraryOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var verify: VerifyOptions
    @Argument(help: "Work IDs.") var ids: [Int64]
    func validate() throws { if ids.isEmpty { throw ValidationError("Please give at least one Work ID (see `shelfscan review list`).") } }
    func run() async throws { try await decideEach(ids, library: library, output: output, defaults: verify.defaults) { _ in .verify } }
}

struct ReviewReject: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "reject", abstract: "Remove Works from the queue (not books, or not wanted).")
    @OptionGroup var library: LibraryOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "Work IDs.") var ids: [Int64]
    func validate() throws { if ids.isEmpty { throw ValidationError("Please give at least one Work ID (see `shelfscan review list`).") } }
    func run() async throws { try await decideEach(ids, library: library, output: output) { _ in .reject } }
}

struct ReviewMerge: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "merge", abstract: "Merge a Work into one already in the library.")
    @OptionGroup var library: LibraryOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The Work to merge away.") var id: Int64
    @Option(name: .long, help: ArgumentHelp("The Work to keep.", valueName: "work-id")) var into: Int64
    func run() async throws { try await decideEach([id], library: library, output: output) { _ in .merge(into: into) } }
}

struct ReviewEdit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "edit", abstract: "Correct a reading; the book joins the library as edited.")
    @OptionGroup var library: LibraryOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var verify: VerifyOptions
    @Argument(help: "The Work's ID.") var id: Int64
    @Option(name: .long, help: "The title.") var title: String?
    @Option(name: .long, help: "An author; repeat for several.") var author: [String] = []
    @Option(name: .long, help: "ISBN-10 or ISBN-13; an empty string removes it.") var isbn: String?
    @Option(name: .long, help: "First publication year.") var year: Int?
    @Option(name: .long, help: ArgumentHelp("Edition format: \(EditionFormat.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "format"))
    var format: String?

    func validate() throws {
        if let format, EditionFormat(rawValue: format) == nil && EditionFormat.allCases.first(where: { $0.rawValue.lowercased() == format.lowercased() }) == nil {
            throw ValidationError("Please pass one of \(EditionFormat.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")) as --format.")
        }
    }

    func run() async throws {
        let edit = WorkEdit(title: title, authors: author.isEmpty ? nil : author, isbn: isbn, firstPublicationYear: year,
                            readingStatus: verify.wishlist ? .wishlist : verify.status,
                            format: format.flatMap { f in EditionFormat.allCases.first { $0.rawValue.lowercased() == f.lowercased() } })
        try await decideEach([id], library: library, output: output, defaults: verify.defaults) { _ in .edit(edit) }
    }
}

struct ReviewUndo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "undo", abstract: "Undo the last review decision (repeat to go further back).")
    @OptionGroup var library: LibraryOptions
    @OptionGroup var output: OutputOptions
    @Option(name: .long, help: "Only undo decisions made by this session name (\"cli\" for these commands, \"review\" for the interactive one).")
    var session: String?

    func run() async throws {
        let out = CommandOutput(options: output)
        try await out.reportingErrors {
            let r = try await library.openStore().undoLast(session: session)
            if output.json { try out.json(UndoJSON(journalId: r.journalID, summary: r.summary, restoredWorkIds: r.restoredWorkIDs)) }
            else if !output.quiet { out.line(r.summary) }
        }
    }

    struct UndoJSON: Encodable, Sendable { var journalId: Int64; var summary: String; var restoredWorkIds: [Int64] }
}
