import ArgumentParser
import BookModel
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

    func run() throws {
        let out = CommandOutput()
        try out.reportingErrors {
            let store = try library.openStore()
            let terminal = Terminal()
            let env = ProcessInfo.processInfo.environment
            let color = terminal.isInteractive && (env["NO_COLOR"] ?? "").isEmpty
            let cropMode = CropRenderer.mode(environment: env, colorAllowed: color)
            var runner = try ReviewRunner(store: store, session: ReviewSession(sessionName: session), defaults: verify.defaults)
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
                terminal.write("\u{1B}[H\u{1B}[2J" + screen.lines(runner.session).joined(separator: "\r\n"))
                guard let key = terminal.readKey() else { runner.send(.interrupt); break }
                runner.send(key)
            }
            terminal.restore()
            let pending = (try? store.pendingCount()) ?? 0
            print("Decided \(runner.session.decided) this session; \(pending) still pending. `shelfscan review` picks up here.")
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
