import BookModel
import Foundation
import Library
import LibraryCore
import ShelfScanTestSupport
import Testing
@testable import ShelfScanCLI

/// The real `shelfscan review` binary driven through a pseudo-terminal (python3's pty module), the way a
/// person uses it: single keys in raw mode, 80x24, the screen read back after each key.
@Suite(.serialized) struct ReviewTerminalTests {
    static let python: String? = ["/usr/bin/python3", "/usr/local/bin/python3", "/root/.pyenv/shims/python3"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs the binary on a pty of 24x80; for each step waits (10 s at most) until every `expect` text is
    /// on screen, then types `send`. Prints the exit status and the final screen text.
    static let driver = #"""
    import json, os, pty, re, select, struct, sys, time, fcntl, termios
    binary, library, steps, extra_env = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), json.loads(sys.argv[4])
    env = dict(os.environ); env.update(extra_env)
    for k in [k for k, v in extra_env.items() if v is None]: env.pop(k, None)
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        os.execve(binary, [binary, "review", "--library", library], env)
    def strip(s):
        s = re.sub(r"\x1b_G.*?\x1b\\", "", s, flags=re.S)
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", s)
    raw = ""
    def pump(timeout):
        global raw
        r, _, _ = select.select([fd], [], [], timeout)
        if not r: return False
        try: chunk = os.read(fd, 65536)
        except OSError: return None
        if not chunk: return None
        raw += chunk.decode("utf-8", "replace"); return True
    for i, step in enumerate(steps):
        deadline = time.time() + 10
        while not all(e in strip(raw) for e in step.get("expect", [])):
            if time.time() > deadline or pump(0.2) is None:
                print(f"STEP {i} never showed {step['expect']!r}; screen:\n{strip(raw)[-2500:]}"); sys.exit(2)
        if step.get("color") and "\x1b[38;2;" not in raw:
            print(f"STEP {i}: no 24-bit colour on screen"); sys.exit(3)
        if step.get("nocolor") and "\x1b[38;2;" in raw:
            print(f"STEP {i}: colour despite NO_COLOR"); sys.exit(3)
        raw = ""
        os.write(fd, step["send"].encode())
    deadline = time.time() + 10
    while time.time() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done: break
        pump(0.1)
    else:
        print("the session did not exit"); os.kill(pid, 9); sys.exit(4)
    while pump(0.1): pass
    print("EXIT", os.waitstatus_to_exitcode(status)); print(strip(raw))
    """#

    func drive(_ binary: URL, library: String, steps: [[String: Any]], env: [String: Any]) throws -> (status: Int32, output: String) {
        let dir = try ReviewFixture.tempDir()
        let script = dir.appendingPathComponent("drive.py")
        try Data(Self.driver.utf8).write(to: script)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.python!)
        p.arguments = [script.path, binary.path, library,
                       String(decoding: try JSONSerialization.data(withJSONObject: steps), as: UTF8.self),
                       String(decoding: try JSONSerialization.data(withJSONObject: env), as: UTF8.self)]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = ShelfscanProcess.readAll(out.fileHandleForReading)
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test(.enabled(if: python != nil && ShelfscanProcess.binary != nil, "needs python3 and the built shelfscan binary"))
    func verifyEditRejectUndoQuitAndResumeThroughAPseudoTerminal() async throws {
        let binary = try #require(ShelfscanProcess.binary)
        let (path, _, ids) = try await ReviewFixture.make(at: try ReviewFixture.tempDir())
        let plain: [String: Any] = ["NO_COLOR": "1", "TERM": "xterm-256color", "SHELFSCAN_LIBRARY": NSNull()]
        // First session: verify, edit (an invalid then a valid value), reject, undo, skip, quit
        let first = try drive(binary, library: path, steps: [
            ["expect": ["1 of 4 pending", "The Dispossessed", "Enter=Verify"], "nocolor": true, "send": "v"],
            ["expect": ["Verified", "1 of 3 pending", "(spine not read)", "Enter=Edit"], "send": "e"],
            ["expect": ["Edit (Enter accepts"], "send": "\r"],
            ["expect": ["title: must not be empty"], "send": "Ancillary Justice\r"],
            ["expect": ["Authors: "], "send": "Ann Leckie\r"],
            ["expect": ["ISBN: "], "send": "123\r"],
            ["expect": ["10 or 13 digits"], "send": "\u{7F}\u{7F}\u{7F}\r"],
            ["expect": ["Year: "], "send": "2013\r"],
            ["expect": ["Edited “Ancillary Justice”", "1 of 2 pending", "Kindred"], "send": "r"],
            ["expect": ["Rejected “Kindred”", "Noise"], "send": "u"],
            ["expect": ["Undid: rejected “Kindred”", "1 of 2 pending"], "send": "s"],
            ["expect": ["Noise", "2 of 2 pending"], "send": "q"],
        ], env: plain)
        #expect(first.status == 0, "\(first.output)")
        #expect(first.output.contains("EXIT 0") && first.output.contains("Decided 2 in ") && first.output.contains("per minute); 2 left."), "\(first.output)")

        // Second session, in colour: it resumes on Noise, and Ctrl-C leaves cleanly
        let second = try drive(binary, library: path, steps: [
            ["expect": ["2 of 2 pending", "Noise"], "color": true, "send": "\u{03}"],
        ], env: ["TERM": "xterm-256color", "NO_COLOR": NSNull(), "SHELFSCAN_LIBRARY": NSNull()])
        #expect(second.output.contains("EXIT 0") && second.output.contains("Decided 0; 2 left."), "\(second.output)")

        // What the keys did is in the library
        let store = try LibraryStore(path: path)
        #expect(try await store.work(id: ids[0])?.reviewStatus == .verified)
        let edited = try #require(try await store.work(id: ids[1]))
        #expect(edited.reviewStatus == .userEdited && edited.title == "Ancillary Justice" && edited.firstPublicationYear == 2013)
        #expect(edited.authors.map(\.name) == ["Ann Leckie"] && edited.editions.first?.isbn == nil)
        #expect(try await store.pendingSummaries().map(\.id) == [ids[2], ids[3]])
        #expect(try await store.journal().map(\.kind) == ["reject", "edit", "verify"])
    }
}

/// The scriptable commands as subprocesses: what scripts see (exit codes, JSON envelopes, one-line errors).
@Suite struct ReviewScriptingTests {
    func run(_ args: [String]) throws -> ImageCommandTests.Run { try ImageCommandTests.run(args) }

    @Test(.enabled(if: ShelfscanProcess.binary != nil))
    func listShowVerifyEditRejectMergeUndo() async throws {
        let (path, _, ids) = try await ReviewFixture.make(at: try ReviewFixture.tempDir())
        let list = try run(["review", "list", "--json", "--library", path])
        #expect(list.status == 0)
        let top = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as! [String: Any]
        let data = top["data"] as! [String: Any]
        #expect(top["success"] as? Bool == true && data["pending"] as? Int == 4 && (data["works"] as! [Any]).count == 4)

        let show = try run(["review", "show", String(ids[0]), "--library", path])
        #expect(show.stdout.contains("The Dispossessed") && show.stdout.contains("crop:") && show.stdout.contains(".jpg"))

        let verify = try run(["review", "verify", String(ids[0]), "--library", path])
        #expect(verify.status == 0 && verify.stdout.contains("verified “The Dispossessed”"))
        let bad = try run(["review", "edit", String(ids[1]), "--title", "", "--author", "X", "--library", path])
        #expect(bad.status != 0 && bad.stderr.hasPrefix("error: ") && bad.stderr.contains("title: must not be empty"))
        #expect(bad.stderr.split(separator: "\n").count == 1)
        let edit = try run(["review", "edit", String(ids[1]), "--title", "Ancillary Justice", "--author", "Ann Leckie",
                            "--isbn", "9780316246620", "--library", path])
        #expect(edit.status == 0, "\(edit.stderr)")
        let reject = try run(["review", "reject", String(ids[2]), "--json", "--library", path])
        #expect(reject.status == 0 && reject.stdout.contains("\"decisions\""))
        let merge = try run(["review", "merge", String(ids[3]), "--into", String(ids[0]), "--library", path])
        #expect(merge.status == 0 && merge.stdout.contains("merged “Noise” into “The Dispossessed”"))
        let undo = try run(["review", "undo", "--library", path])
        #expect(undo.status == 0 && undo.stdout.contains("undid: merged"))
        let missing = try run(["review", "verify", "999", "--json", "--library", path])
        let err = try JSONSerialization.jsonObject(with: Data(missing.stdout.utf8)) as! [String: Any]
        #expect(missing.status != 0 && err["success"] as? Bool == false && (err["error"] as? [String: Any])?["code"] as? String == "NOT_FOUND")

        let stats = try run(["library", "stats", "--json", "--library", path])
        let s = (try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as! [String: Any])["data"] as! [String: Any]
        #expect(s["pending"] as? Int == 1 && s["verified"] as? Int == 2 && s["userEdited"] as? Int == 1)
    }

    @Test(.enabled(if: ShelfscanProcess.binary != nil))
    func libraryExportAndImportRoundTrip() async throws {
        let dir = try ReviewFixture.tempDir()
        let (path, _, _) = try await ReviewFixture.make(at: dir)
        let csvPath = dir.appendingPathComponent("out.csv").path, jsonPath = dir.appendingPathComponent("out.json").path
        #expect(try run(["library", "export", "--format", "csv", "--output", csvPath, "--library", path]).status == 0)
        #expect(try run(["library", "export", "--format", "json", "-o", jsonPath, "--library", path]).status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: jsonPath))) as! [String: Any]
        #expect(json["success"] as? Bool == true && ((json["data"] as? [String: Any])?["works"] as? [Any])?.count == 1)
        let fresh = dir.appendingPathComponent("fresh.sqlite").path
        let imported = try run(["library", "import", csvPath, "--library", fresh])
        #expect(imported.status == 0 && imported.stdout.contains("1 imported, 0 merged"))
        let again = try run(["library", "import", jsonPath, "--library", fresh])
        #expect(again.stdout.contains("0 imported, 1 merged"))
        let list = try run(["library", "list", "--library", fresh])
        #expect(list.stdout.contains("Dune — Frank Herbert"))
        let broken = dir.appendingPathComponent("broken.csv")
        try Data("Title,Author,Exclusive Shelf\nGood,Someone,read\n,Nobody,read\n\"Open,quote,read\n".utf8).write(to: broken)
        let partial = try run(["library", "import", broken.path, "--library", fresh])
        #expect(partial.status == 0 && partial.stdout.contains("1 imported") && partial.stdout.contains("skipped line 3: title"))
        #expect(partial.stdout.contains("skipped line 4: a quoted field is never closed"))
        let nonsense = try run(["library", "import", dir.appendingPathComponent("nope.csv").path, "--library", fresh])
        #expect(nonsense.status != 0 && nonsense.stderr.hasPrefix("error: Import failed: No such file or folder: "), "\(nonsense.stderr)")
    }

    /// An export reached through a link imports like the file itself; a link to nothing, a folder or a pipe is one clear line.
    @Test(.enabled(if: ShelfscanProcess.binary != nil))
    func libraryImportFollowsLinksAndNamesWhatIsWrongWithAPath() throws {
        let dir = try ReviewFixture.tempDir()
        let fresh = dir.appendingPathComponent("fresh.sqlite").path
        let csv = dir.appendingPathComponent("books.csv")
        try Data("Title,Author\nDune,Frank Herbert\n".utf8).write(to: csv)
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: dir.appendingPathComponent("linked.csv").path, withDestinationPath: "books.csv")
        try fm.createSymbolicLink(atPath: dir.appendingPathComponent("gone.csv").path, withDestinationPath: "nowhere.csv")
        try fm.createDirectory(at: dir.appendingPathComponent("exports"), withIntermediateDirectories: true)
        try #require(mkfifo(dir.appendingPathComponent("pipe.csv").path, 0o644) == 0)

        let linked = try run(["library", "import", dir.appendingPathComponent("linked.csv").path, "--library", fresh])
        #expect(linked.status == 0 && linked.stdout.contains("1 imported, 0 merged"), "\(linked.stderr)")
        for (name, problem) in [("gone.csv", "gone.csv is a link to nowhere.csv, which does not exist."),
                                ("exports", "exports is a folder; name the file inside it."),
                                ("pipe.csv", "pipe.csv is not a plain file (a pipe, a socket or a device).")] {
            let result = try run(["library", "import", dir.appendingPathComponent(name).path, "--library", fresh])
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("error: Import failed: ") && result.stderr.hasSuffix(problem + "\n"), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
    }
}
