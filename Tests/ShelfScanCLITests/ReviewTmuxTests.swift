import BookModel
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Library
import LibraryCore
import ShelfScanTestSupport
import Testing
@testable import ShelfScanCLI

/// A real terminal: tmux on its own socket, running the `shelfscan` binary at a given size. Keys go in
/// with `send-keys` as a person's keyboard sends them, and the screen is read back with `capture-pane`.
struct TmuxTerminal {
    static let tmux: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) }
    let socket = "shelfscan-test-\(UUID().uuidString.prefix(8))"
    let columns: Int
    let rows: Int

    struct Timeout: Error, CustomStringConvertible { var description: String }

    /// Runs one tmux client through the shell, its output in a file. Not `Process`: Foundation tells that a
    /// child ended by a descriptor the child holds, and the tmux server the first client starts inherits
    /// that descriptor and keeps it, so waiting for the client would never end.
    @discardableResult
    func tmux(_ args: [String]) throws -> String {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket)-\(UUID().uuidString.prefix(6)).out")
        defer { try? FileManager.default.removeItem(at: out) }
        let command = ([Self.tmux!, "-L", socket] + args).map(Self.quote).joined(separator: " ") + " </dev/null >\(Self.quote(out.path)) 2>&1"
        _ = system(command)
        return (try? String(contentsOf: out, encoding: .utf8)) ?? ""
    }

    /// Starts `arguments` in a fresh session; when the program ends its last words stay on screen.
    init(_ binary: URL, _ arguments: [String], columns: Int, rows: Int, environment: [String: String] = [:]) throws {
        self.columns = columns
        self.rows = rows
        let env = (["LANG": "C.UTF-8", "TERM": "tmux-256color"].merging(environment) { $1 })
            .map { "\($0.key)=\(Self.quote($0.value))" }.sorted().joined(separator: " ")
        let command = "env -u NO_COLOR -u SHELFSCAN_LIBRARY \(env) \(Self.quote(binary.path)) \(arguments.map(Self.quote).joined(separator: " ")); echo \"EXIT $?\"; sleep 60"
        try tmux(["new-session", "-d", "-s", "review", "-x", String(columns), "-y", String(rows), command])
    }

    static func quote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// Keys by tmux's names ("C-u", "M-b", "Left", "Home", "Enter").
    func keys(_ names: String...) throws { try tmux(["send-keys", "-t", "review"] + names) }

    /// Text typed as is (UTF-8 included).
    func type(_ text: String) throws { try tmux(["send-keys", "-t", "review", "-l", text]) }

    func screen(escapes: Bool = false) throws -> String {
        try tmux(["capture-pane", "-p", "-t", "review"] + (escapes ? ["-e"] : []))
    }

    /// Waits (10 s at most) until every text is on screen, and returns the screen.
    @discardableResult
    func waitFor(_ texts: String..., timeout: TimeInterval = 10) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let s = try screen()
            if texts.allSatisfy(s.contains) { return s }
            if Date() > deadline { throw Timeout(description: "never showed \(texts); screen:\n\(s)") }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    func close() { _ = try? tmux(["kill-server"]) }
}

/// The interactive review in tmux at 120x40 and 80x24, its screen read back.
@Suite(.serialized, .enabled(if: TmuxTerminal.tmux != nil && ShelfscanProcess.binary != nil, "needs tmux (scripts/setup.sh) and the built shelfscan"))
struct ReviewTmuxTests {
    static let sizes = [(120, 40), (80, 24)]

    func start(_ path: String, _ size: (Int, Int), _ extra: [String] = []) throws -> TmuxTerminal {
        try TmuxTerminal(ShelfscanProcess.binary!, ["review", "--library", path, "--images", "blocks"] + extra, columns: size.0, rows: size.1)
    }

    @Test(arguments: sizes)
    func theSpineIsDrawnWiderThanTallAboveTheShelfStrip(columns: Int, rows: Int) async throws {
        let (path, _, _) = try await ReviewFixture.make(at: try ReviewFixture.tempDir(), withPhoto: true)
        let t = try start(path, (columns, rows))
        defer { t.close() }
        try t.waitFor("1 of 4 pending", "The Dispossessed")
        var lines = try t.screen().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        #expect(lines.count == rows && lines.allSatisfy { CellWidth.of($0) <= columns })
        // Rows of half blocks under the header: the spine first, then the shelf strip, each a block of equal widths.
        let blockWidth = { (line: String) in line.prefix { $0 == "▀" }.count }
        let spineWidth = blockWidth(lines[1])
        let spineRows = lines.dropFirst().prefix { blockWidth($0) == spineWidth }.count
        #expect(spineWidth > 2 * spineRows, "the 24x120 standing crop is drawn lying: \(spineWidth) columns x \(spineRows) rows")
        let (expectedSpine, expectedShelf) = ReviewScreen.pictureRows(rows: rows)
        #expect(spineRows == expectedSpine)
        let shelfRows = lines.dropFirst(1 + expectedSpine).prefix { blockWidth($0) > 0 }.count
        #expect(shelfRows > 0 && shelfRows <= expectedShelf, "the shelf strip is drawn under the spine")
        // The current box is outlined in yellow on the strip.
        #expect(try t.screen(escapes: true).contains("255;214;0"))
    }

    @Test(arguments: sizes)
    func aTitleRetypedWithCtrlUAndAccentedText(columns: Int, rows: Int) async throws {
        let (path, _, ids) = try await ReviewFixture.make(at: try ReviewFixture.tempDir())
        let t = try start(path, (columns, rows))
        defer { t.close() }
        try t.waitFor("The Dispossessed", "Enter=Verify")
        try t.keys("e")
        try t.waitFor("Edit (Enter accepts")
        try t.keys("C-u")                                   // the reader's text goes; nothing is appended to it
        try t.type("Ergötzliche Musik")
        try t.waitFor("Ergötzliche Musik")
        try t.keys("Enter")
        try t.waitFor("Authors: ")
        try t.keys("C-x")                                   // type the author fresh: Götz, then Kurt before it
        try t.type("Götz")
        try t.keys("Home")
        try t.type("Kurt ")
        try t.keys("End", "Enter", "Enter", "Enter")
        let screen = try t.waitFor("Edited “Ergötzliche Musik”")
        #expect(!screen.contains("DispossessedErg"))
        try t.keys("q")
        try t.waitFor("EXIT 0", "Decided 1 in ", "3 left.")
        let work = try #require(try await LibraryStore(path: path).work(id: ids[0]))
        #expect(work.title == "Ergötzliche Musik" && work.authors.map(\.name) == ["Kurt Götz"] && work.reviewStatus == .userEdited)
    }

    @Test(arguments: sizes)
    func searchFindsAKnownBookAndANumberTakesIt(columns: Int, rows: Int) async throws {
        let (path, _, ids) = try await ReviewFixture.make(at: try ReviewFixture.tempDir())
        let t = try start(path, (columns, rows))
        defer { t.close() }
        try t.waitFor("The Dispossessed")
        try t.keys("s")                                     // on to the unread spine
        try t.waitFor("2 of 4 pending", "(spine not read)")
        try t.keys("/")
        try t.type("herb du")
        try t.waitFor("1. Dune — Frank Herbert", "in your library")
        try t.keys("Enter")
        try t.waitFor("Take which? 1-1")
        try t.keys("1")
        try t.waitFor("Merged “Unread spine” into “Dune”")
        let store = try LibraryStore(path: path)
        #expect(try await store.work(id: ids[1]) == nil)
        #expect(try await store.pendingCount() == 3)
    }

    @Test(arguments: sizes)
    func bulkVerifyOfThePhotoAndItsUndo(columns: Int, rows: Int) async throws {
        let (path, _, ids) = try await ReviewFixture.make(at: try ReviewFixture.tempDir())
        let t = try start(path, (columns, rows))
        defer { t.close() }
        try t.waitFor("1 of 4 pending")
        try t.keys("b")
        try t.waitFor("verify the 3 read at 80% or better on this photo", "reject the 1 boxes where nothing was read")
        try t.keys("p")
        try t.waitFor("Verified 3 of this photo read at 80% or better", "1 of 1 pending")
        let store = try LibraryStore(path: path)
        for id in [ids[0], ids[2], ids[3]] { #expect(try await store.work(id: id)?.reviewStatus == .verified) }
        try t.keys("u")
        try t.waitFor("Undid: verified 3 of this photo", "of 4 pending")
        #expect(try await store.pendingCount() == 4)
        try t.keys("b")
        try t.waitFor("Bulk decisions")
        try t.keys("r")
        try t.waitFor("Rejected 1 unread boxes of this photo")
        #expect(try await store.work(id: ids[1]) == nil)
        #expect(try await store.pendingCount() == 3)
    }

    @Test(arguments: sizes)
    func splitAndJoinWithUndo(columns: Int, rows: Int) async throws {
        let (path, _, ids) = try await ReviewFixture.make(at: try ReviewFixture.tempDir(), withPhoto: true)
        let t = try start(path, (columns, rows))
        defer { t.close() }
        try t.waitFor("1 of 4 pending")
        try t.keys("|")
        try t.waitFor("Split at 50%")
        try t.keys("Right")
        try t.waitFor("Split at 55%")
        try t.keys("Enter")
        try t.waitFor("Split “The Dispossessed” into 2 boxes", "of 5 pending")
        let store = try LibraryStore(path: path)
        #expect(try await store.work(id: ids[0]) == nil)
        #expect(try await store.pendingCount() == 5)
        try t.keys("u")
        try t.waitFor("Undid: split", "1 of 4 pending", "The Dispossessed")
        #expect(try await store.work(id: ids[0])?.title == "The Dispossessed")
        #expect(try await store.pendingCount() == 4)
        try t.keys("j")                                     // The Dispossessed and the unread spine beside it
        try t.waitFor("Joined 2 boxes into one", "of 3 pending")
        #expect(try await store.work(id: ids[0]) == nil)
        #expect(try await store.work(id: ids[1]) == nil)
        try t.keys("u")
        try t.waitFor("Undid: joined", "1 of 4 pending")
        #expect(try await store.pendingSummaries().map(\.id) == ids)
    }
}
