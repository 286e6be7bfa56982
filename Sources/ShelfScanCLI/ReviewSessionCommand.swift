import ArgumentParser
import BookModel
import Catalog
import Enrichment
import Foundation
import LibraryCore
import ShelfImage

/// The interactive review: one pending Work at a time, single keys, resumable, every decision saved as it
/// is made (so Ctrl-C, a closed terminal or a crash loses nothing).
struct ReviewSessionCommand: AsyncParsableCommand {
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

    @Option(name: .long, help: ArgumentHelp(
        "Let / also search OpenLibrary or Google Books (a comma list asks each) when you press Enter.",
        discussion: "Their answers are cached as `scan --enrich` caches them; taking one fills in its IDs, ISBN, year and subjects.",
        valueName: "providers"))
    var enrich: String?

    @Option(name: .long, help: ArgumentHelp("How to draw the spine and the shelf: auto (ask the terminal), kitty, sixel, iterm, blocks (coloured half blocks) or text.", valueName: "kind"))
    var images: ImageChoice = .auto

    enum ImageChoice: String, ExpressibleByArgument, CaseIterable {
        case auto, kitty, sixel, iterm, blocks, text
    }

    func validate() throws {
        if let enrich, BookProvider.chain(enrich) == nil {
            throw ValidationError("Please pass --enrich openlibrary, googlebooks, or both as a comma list (openlibrary,googlebooks).")
        }
    }

    func run() async throws {
        let out = CommandOutput()
        try await out.reportingErrors {
            let store = try await library.openStore()
            let terminal = Terminal()
            let env = ProcessInfo.processInfo.environment
            let color = terminal.isInteractive && (env["NO_COLOR"] ?? "").isEmpty
            let catalogIndex = try catalog.map(Self.catalogIndex)
            var runner = try await ReviewRunner(store: store, session: ReviewSession(sessionName: session), defaults: verify.defaults,
                                                catalogLookup: catalogIndex.map(Self.catalogLookup))
            if let catalogIndex { runner.searchProviders.append(CatalogSearch(index: catalogIndex)) }
            // The circuit's notice would scribble over the screen; a paused provider is said in the search instead.
            if let enrich, let enricher = try EnrichOptions.enricher(providers: enrich, cacheDays: 30, notify: { _ in }) {
                runner.searchProviders.append(ProviderSearch(enricher: enricher))
            }
            runner.editor = { form in Self.runEditor(form, terminal: terminal, environment: env) }
            runner.opener = { path in Self.openInViewer(path, environment: env) }
            terminal.enterRawMode()
            defer { terminal.restore() }
            var mode = images == .auto ? CropRenderer.mode(environment: env, colorAllowed: color)
                : CropRenderer.Mode(rawValue: images.rawValue) ?? .halfBlocks
            if images == .auto, mode == .halfBlocks, terminal.isInteractive, terminal.probeSixel() { mode = .sixel }
            let pictures = ReviewPictures(mode: mode, cellPixels: terminal.cellPixels)
            let started = Date()
            var frames = FrameWriter()
            await runner.start()
            while !runner.quit {
                let (columns, rows) = terminal.size
                var cut: Double?
                if case let .splitting(at) = runner.session.mode { cut = at }
                pictures.update(runner.session.item, columns: columns, rows: rows, flipped: runner.session.flipped, cut: cut)
                let screen = ReviewScreen(columns: columns, rows: rows, style: Style(color: color), spine: pictures.spine,
                                          context: pictures.context, contextNote: pictures.contextNote)
                let (lines, overlays) = screen.render(runner.session)
                if terminal.isInteractive {
                    terminal.write(frames.frame(lines: lines, overlays: overlays, columns: columns, rows: rows))
                } else {
                    // A pipe or a log: plain screens one after another, trailing blank lines dropped.
                    var lines = lines
                    while lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
                    terminal.write(lines.joined(separator: "\n") + "\n\n")
                }
                guard let key = terminal.readKey() else { await runner.send(.interrupt); break }
                await runner.send(key)
            }
            terminal.restore()
            let pending = (try? await store.pendingCount()) ?? 0
            print(Self.summary(decided: runner.session.decided, seconds: Date().timeIntervalSince(started), left: pending))
        }
    }

    /// The session's last line: how many were decided, how fast, and how many are left.
    static func summary(decided: Int, seconds: TimeInterval, left: Int) -> String {
        let minutes = max(seconds, 1) / 60
        let rate = decided == 0 ? "" : String(format: " in %@ (%.1f per minute)", duration(seconds), Double(decided) / minutes)
        return "Decided \(decided)\(rate); \(left) left. `shelfscan review` picks up here."
    }

    static func duration(_ seconds: TimeInterval) -> String {
        let s = Int(seconds.rounded())
        return s < 60 ? "\(s) s" : s < 3600 ? "\(s / 60) min \(s % 60) s" : "\(s / 3600) h \(s / 60 % 60) min"
    }

    /// Opens `path` with `xdg-open` (the desktop's default viewer), detached so the session goes on.
    static func openInViewer(_ path: String, environment: [String: String]) -> String {
        let dirs = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard let opener = dirs.map({ "\($0)/xdg-open" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return "No desktop viewer (xdg-open) here; the file is \(path)"
        }
        guard FileManager.default.fileExists(atPath: path) else { return "Not found: \(path)" }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: opener)
        p.arguments = [path]
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { return "xdg-open failed: \(error.localizedDescription)" }
        return "Opened \((path as NSString).lastPathComponent) in the viewer."
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
        catalogLookup(try catalogIndex(csvAt: path))
    }

    static func catalogIndex(csvAt path: String) throws -> CatalogIndex {
        let (book, _) = try Catalog.load(csvAt: path)
        return CatalogIndex(book)
    }

    static func catalogLookup(_ index: CatalogIndex) -> @Sendable (Work) -> [CatalogCandidate] {
        return { work in
            let query = work.spine?.rawText ?? ([work.hasUnreadTitle ? "" : work.title] + work.authors.map(\.name)).joined(separator: " ")
            guard !query.trimmingCharacters(in: .whitespaces).isEmpty else { return [] }
            return index.match(query, top: 3).map {
                CatalogCandidate(title: $0.entry.title, authors: $0.entry.authors, isbn: $0.entry.isbn.isEmpty ? nil : $0.entry.isbn, score: $0.score)
            }
        }
    }
}
