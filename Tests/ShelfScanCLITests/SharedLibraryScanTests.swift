import Foundation
import Library
import LibraryCore
import LibraryPostgres
import ShelfScan
import ShelfScanTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Several `shelfscan scan` processes on one folder and one PostgreSQL library (a server from scripts/test).
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["SHELFSCAN_TEST_POSTGRES_URL"] != nil,
                             "needs SHELFSCAN_TEST_POSTGRES_URL (scripts/test starts a server)"))
struct SharedLibraryScanTests {
    static var server: String { ProcessInfo.processInfo.environment["SHELFSCAN_TEST_POSTGRES_URL"]! }
    static var password: String? { ProcessInfo.processInfo.environment["PGPASSWORD"] }

    static func freshLibrary() async throws -> String {
        try await PostgresLibraryStore.createDatabase(named: "shelfscan_cli_\(UUID().uuidString.prefix(8).lowercased())",
                                                      besides: server, password: password)
    }

    /// Two workers on one folder, one killed with -9 mid-batch: the survivor finishes the dead one's photo once
    /// its claim runs out, and every photo is filed exactly once, as one uninterrupted run files it.
    @Test func twoWorkersOneKilledFileEveryPhotoExactlyOnce() async throws {
        let (dir, _) = try ScanCommandTests.photoFolder(count: 16, firstSeed: 300, width: 800)
        defer { try? FileManager.default.removeItem(at: dir) }
        let shared = try await Self.freshLibrary()
        let reference = try await Self.freshLibrary()
        let args = ["scan", dir.path, "--reader", "none", "--jobs", "1", "--claim-lease", "3", "--library", shared]

        // Two workers at once; the first is killed -9 once it has filed a photo.
        let (victim, victimErr) = try ShelfscanProcess.start(args)
        let survivor = try ShelfscanProcess.start(args).0
        var seen = ""
        while !seen.contains(" spines, ") {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = buffer.withUnsafeMutableBytes { read(victimErr.fileDescriptor, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            seen += String(decoding: buffer[0..<n], as: UTF8.self)
        }
        kill(victim.processIdentifier, SIGKILL)
        victim.waitUntilExit()
        #expect(victim.terminationReason == .uncaughtSignal)
        survivor.waitUntilExit()
        #expect(survivor.terminationStatus == 0)

        let whole = try ShelfscanProcess.run(["scan", dir.path, "--reader", "none", "--jobs", "2", "--library", reference])
        #expect(whole.status == 0, "\(whole.stderr)")
        func worksPerPhoto(_ url: String) async throws -> [String: Int] {
            let store = try await PostgresLibraryStore(url: url, password: Self.password)
            return Dictionary(grouping: try await store.pendingSummaries(limit: nil), by: { $0.photoContentHash ?? "" }).mapValues(\.count)
        }
        let store = try await PostgresLibraryStore(url: shared, password: Self.password)
        #expect(try await store.stats().photos == 16)
        let a = try await worksPerPhoto(shared), b = try await worksPerPhoto(reference)
        #expect(a.count == 16 && a == b, "every photo filed once, with the same Works as one uninterrupted run")
    }

    /// A photo another worker holds is waited for, never scanned twice: filed there while this worker waits, it
    /// is skipped here; let go there (that worker died, its lease ran out), it is scanned here. The pause between
    /// asks is a gate that moves the other worker, so neither branch sits out a real lease.
    @Test func aPhotoHeldByAnotherWorkerIsSkippedOnceFiledThereAndScannedOnceLetGo() async throws {
        let (dir, _) = try ScanCommandTests.photoFolder(count: 2, firstSeed: 500)
        defer { try? FileManager.default.removeItem(at: dir) }
        let library = try await Self.freshLibrary()
        let other = try await PostgresLibraryStore(url: library, password: Self.password)
        let photos = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted().map { dir.appendingPathComponent($0).path }
        let hashes = try photos.map { ContentHash.sha256Hex([UInt8](try Data(contentsOf: URL(fileURLWithPath: $0)))) }
        for hash in hashes { #expect(try await other.claimPhoto(contentHash: hash, worker: "other", lease: 3600)) }
        actor Pauses { var count = 0; func add() { count += 1 } }
        let pauses = Pauses()
        var scanner = await PhotoScanner(library: try PostgresLibraryStore(url: library, password: Self.password))

        // The other worker files the first photo during the first pause: skipped here, nothing filed twice
        scanner.claimPause = {
            await pauses.add()
            _ = try await other.file(PhotoFiling(contentHash: hashes[0], originalImagePath: photos[0], imageWidth: 640, imageHeight: 360, spines: []))
        }
        let skipped = await scanner.scan(photoAt: photos[0])
        guard case .skipped = skipped else { Issue.record("not skipped: \(skipped)"); return }
        #expect(await pauses.count == 1)
        // The other worker lets the second photo go during the first pause: scanned and filed here
        scanner.claimPause = {
            await pauses.add()
            try await other.releasePhoto(contentHash: hashes[1], worker: "other")
        }
        let scanned = await scanner.scan(photoAt: photos[1])
        guard case .scanned(let scan) = scanned else { Issue.record("not scanned: \(scanned)"); return }
        #expect(await pauses.count == 2 && !scan.filedWorkIDs.isEmpty)
        #expect(try await other.stats().photos == 2)
    }

    @Test func unreachableServerOrWrongPasswordIsOneLineAndNothingFiled() async throws {
        let (dir, _) = try ScanCommandTests.photoFolder(count: 1)
        defer { try? FileManager.default.removeItem(at: dir) }
        let down = try ShelfscanProcess.run(["scan", dir.path, "--reader", "none", "--library", "postgres://shelfscan@127.0.0.1:1/nothing"])
        #expect(down.status != 0)
        #expect(down.stderrLines.count == 1 && down.stderr.contains("postgres://shelfscan@127.0.0.1:1/nothing"), "\(down.stderr)")
        let library = try await Self.freshLibrary()
        let wrong = try ShelfscanProcess.run(["library", "stats", "--library", library], environment: ["PGPASSWORD": "not-it"])
        #expect(wrong.status != 0)
        #expect(wrong.stderrLines.count == 1 && wrong.stderr.contains("password") && !wrong.stderr.contains("not-it"), "\(wrong.stderr)")
    }

    /// The password written once in config.json opens the server's library, as PGPASSWORD does: the same file and
    /// rules as the readers' keys.
    @Test func thePasswordCanComeFromTheConfigFile() async throws {
        let library = try await Self.freshLibrary()
        let home = try ShelfscanProcess.temporaryDirectory("config")
        defer { try? FileManager.default.removeItem(at: home) }
        let file = home.appendingPathComponent("shelfscan/config.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let config = try JSONSerialization.data(withJSONObject: ["postgres_password": Self.password ?? ""])
        try config.write(to: file)
        let stats = try ShelfscanProcess.run(["library", "stats", "--library", library],
                                             environment: ["PGPASSWORD": "", "XDG_CONFIG_HOME": home.path])
        #expect(stats.status == 0, "\(stats.stderr)")
        try Data(#"{"postgres_password": "not-it"}"#.utf8).write(to: file)
        let wrong = try ShelfscanProcess.run(["library", "stats", "--library", library],
                                             environment: ["PGPASSWORD": "", "XDG_CONFIG_HOME": home.path])
        #expect(wrong.status != 0 && wrong.stderr.contains("password"), "\(wrong.stderr)")
    }

    /// SQLite → PostgreSQL → SQLite: the same counts and content checksum on all three.
    @Test func migrateSQLiteToPostgresAndBackKeepsEverything() async throws {
        let (dir, _) = try ScanCommandTests.photoFolder(count: 3, firstSeed: 400)
        let work = try ShelfscanProcess.temporaryDirectory("migrate")
        defer { try? FileManager.default.removeItem(at: dir); try? FileManager.default.removeItem(at: work) }
        let original = work.appendingPathComponent("a/library.sqlite").path
        let back = work.appendingPathComponent("b/library.sqlite").path
        #expect(try ShelfscanProcess.run(["scan", dir.path, "--reader", "none", "--library", original]).status == 0)
        let store = try LibraryStore(path: original)
        let first = try #require(try await store.pendingSummaries().first)
        _ = try await store.review(ReviewDecision(workID: first.id, action: .edit(WorkEdit(title: "Dune", authors: ["Frank Herbert"]))))
        let server = try await Self.freshLibrary()

        let there = try ShelfscanProcess.run(["library", "migrate", "--from", original, "--to", server])
        let home = try ShelfscanProcess.run(["library", "migrate", "--from", server, "--to", back])
        #expect(there.status == 0 && home.status == 0, "\(there.stderr)\(home.stderr)")
        func checksums(_ out: String) -> [String] {
            out.split(separator: "\n").filter { $0.contains("checksum") }.map { String($0.split(separator: " ").last!) }
        }
        let sums = checksums(there.stdout) + checksums(home.stdout)
        #expect(sums.count == 4 && Set(sums).count == 1, "\(there.stdout)\(home.stdout)")
        let a = try LibraryStore(path: original), b = try LibraryStore(path: back)
        #expect(try await a.stats() == b.stats())
        let edited = try #require(try await b.work(id: first.id))
        #expect(edited.title == "Dune" && edited.authors.map(\.name) == ["Frank Herbert"] && edited.reviewStatus == .userEdited)
        #expect(try await b.cropURL(for: edited).map { try Data(contentsOf: $0) } == a.cropURL(for: try #require(try a.work(id: first.id))).map { try Data(contentsOf: $0) })
        // A second migrate into a library that is no longer empty is refused, nothing written.
        let again = try ShelfscanProcess.run(["library", "migrate", "--from", original, "--to", server])
        #expect(again.status != 0 && again.stderr.contains("not empty"))
    }
}
