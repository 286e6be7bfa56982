import ArgumentParser
import BookModel
import Catalog
import Foundation
import Library
import ShelfImage

/// The interactive review: one pending Work at a time, single keys, resumable, every decision saved as it
/// is made (so Ctrl-C, a closed terminal or a crash loses nothing).
struct ReviewSessionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start",
        abstract: "Review interactively, one spine at a time (the default).")

    @OptionGroup var library: LibraryOptions
    @OptionGroup var verify: VerifyOptions
    @Option(name: .long, help: "Name of this session: where it stops is remembered under this name, and U undoes its decisions.")
    var session = "review"

    @Option(name: .long, help: ArgumentHelp("A catalogue CSV (Goodreads export or any CSV with a title column) whose entries are offered for each spine.", valueName: "file.csv"),
            completion: .file(extensions: ["csv"]))
    var catalog: String?

    func run() throws {
        let out = CommandOutput()
        try out.reportingErrors {
            let store = try library.openStore()
            let terminal = Terminal()
            let env = ProcessInfo.processInfo.environment
            let color = terminal.isInteractive && (env["NO_COLOR"] ?? "").isEmpty
            let cropMode = CropRenderer.mode(environment: env, colorAllowed: color)
            var runner = try ReviewRunner(store: store, session: ReviewSession(sessionName: session), defaults: verify.defaults,
                                          catalogLookup: try catalog.map(Self.catalogLookup))
            runner.editor = { form in Self.runEditor(form, terminal: terminal, environment: env) }
            terminal.enterRawMode()
            defer { terminal.restore() }
            runner.start()
            var cache: (id: Int64?, columns: Int, rows: Int, lines: [String]) = (nil, 0, 0, [])
            while !runner.quit {
                let (columns, rows) = terminal.size
                let cropColumns = min(22, max(8, columns / 4)), cropRows = max(4, rows - 5)
                let id = runner.session.item?.work.id
                if cache.id != id || cache.columns != cropColumns || cache.rows != cropRows {
                    cache = (id, cropColumns, cropRows, Self.crop(runner.session.item, columns: cropColumns, rows: cropRows, mode: cropMode))
                }
                let screen = ReviewScreen(columns: columns, rows: rows, style: Style(color: color), crop: cache.lines)
                if terminal.isInteractive {
                    terminal.write("\u{1B}[H\u{1B}[2J" + screen.lines(runner.session).joined(separator: "\r\n"))
                } else {
                    // A pipe or a log: plain screens one after another, trailing blank lines dropped.
                    var lines = screen.lines(runner.session)
                    while lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
                    terminal.write(lines.joined(separator: "\n") + "\n\n")
                }
                guard let key = terminal.readKey() else { runner.send(.interrupt); break }
                runner.send(key)
            }
            terminal.restore()
            let pending = (try? store.pendingCount()) ?? 0
            print("Decided \(runner.session.decided) this session; \(pending) still pending. `shelfscan review` picks up here.")
        }
    }

    /// Hands the terminal to $VISUAL (else $EDITOR) on the YAML form, then takes it back.
    static func runEditor(_ form: String, terminal: Terminal, environment: [String: String]) -> String? {
        guard let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap({ $0 }).first(where: { !$0.isEmpty }) else { return nil }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("shelfscan-edit-\(UUID().uuidString).yaml")
        defer { try? FileManager.default.removeItem(at: file) }
        guard (try? Data(form.utf8).write(to: file)) != nil else { return nil }
        terminal.restore()
        defer { terminal.enterRawMode() }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        // Through the shell, so an editor given with arguments ("code --wait") works as it does in git.
        p.arguments = ["-c", "\(editor) \"$1\"", "shelfscan-editor", file.path]
        guard (try? p.run()) != nil else { return nil }
        p.waitUntilExit()
        guard p.terminationStatus == 0, let data = try? Data(contentsOf: file) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The three closest catalogue entries to what the spine said (the raw reading, else title and authors).
    static func catalogLookup(csvAt path: String) throws -> @Sendable (Work) -> [CatalogCandidate] {
        let (book, _) = try Catalog.load(csvAt: path)
        let index = CatalogIndex(book)
        return { work in
            let query = work.spine?.rawText ?? ([work.hasUnreadTitle ? "" : work.title] + work.authors.map(\.name)).joined(separator: " ")
            guard !query.trimmingCharacters(in: .whitespaces).isEmpty else { return [] }
            return index.match(query, top: 3).map {
                CatalogCandidate(title: $0.entry.title, authors: $0.entry.authors, isbn: $0.entry.isbn.isEmpty ? nil : $0.entry.isbn, score: $0.score)
            }
        }
    }

    /// The crop drawn for the terminal, or a one-line reason it cannot be.
    static func crop(_ item: ReviewItem?, columns: Int, rows: Int, mode: CropRenderer.Mode) -> [String] {
        guard let item else { return [] }
        guard let url = item.cropURL else { return ["(no crop)"] }
        do {
            let image = try ImageDecoder.decode(fileAt: url.path)
            return CropRenderer.render(image, columns: columns, rows: rows, mode: mode)
        } catch {
            return [clip("(crop unreadable)", columns)]
        }
    }
}
