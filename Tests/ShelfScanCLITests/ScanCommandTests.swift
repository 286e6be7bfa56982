import BookModel
import Foundation
import PPOCR
import Library
import LibraryCore
import ShelfImage
import ShelfScanTestSupport
import Testing

/// `shelfscan scan` run as a real subprocess on photos drawn in code: what a user or a script sees.
@Suite(.serialized)
struct ScanCommandTests {
    /// Writes `count` distinct shelf photos into a new folder; returns the folder and the spine counts drawn.
    static func photoFolder(count: Int, firstSeed: UInt64 = 1, width: Int = 640) throws -> (URL, [Int]) {
        let dir = try ShelfscanProcess.temporaryDirectory("scan-photos")
        var drawn: [Int] = []
        for i in 0..<count {
            let fixture = ShelfFixture.make(width: width, height: width * 9 / 16, spineCount: 5 + i % 4, seed: firstSeed + UInt64(i))
            let name = String(format: "shelf-%03d.jpg", i)
            try Data(fixture.image.jpegData(quality: 90)).write(to: dir.appendingPathComponent(name))
            drawn.append(fixture.spines.count)
        }
        return (dir, drawn)
    }

    /// N from the summary line "… Spines found: N, …".
    static func spinesFound(_ stderr: String) -> Int? {
        guard let range = stderr.range(of: "Spines found: ") else { return nil }
        return Int(stderr[range.upperBound...].prefix { $0.isNumber })
    }

    static func decodeLines(_ stdout: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test func dryRunJSONIsTheSeed004EnvelopeWithOneEntryPerSpine() throws {
        let (dir, drawn) = try Self.photoFolder(count: 1)
        defer { try? FileManager.default.removeItem(at: dir) }
        let photo = dir.appendingPathComponent("shelf-000.jpg").path
        let run = try ShelfscanProcess.run(["scan", photo, "--reader", "none", "--dry-run", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try Self.decodeLines(run.stdout)
        try #require(lines.count == 1)
        let envelope = lines[0]
        #expect(envelope["success"] as? Bool == true)
        let meta = try #require(envelope["meta"] as? [String: Any])
        #expect(meta["timestamp"] is String)
        let data = try #require(envelope["data"] as? [String: Any])
        #expect((data["jobId"] as? String)?.count == 64)
        let books = try #require(data["detectedBooks"] as? [[String: Any]])
        #expect(books.count == drawn[0])
        for book in books {
            let work = try #require(book["work"] as? [String: Any])
            #expect(work["reviewStatus"] as? String == "needsReview")
            #expect(work["originalImagePath"] as? String == photo)
            // Nothing was read (--reader none): the title is empty, never the display placeholder, and the
            // reason stands beside it for scripts.
            #expect(work["title"] as? String == "")
            #expect(book["unreadReason"] as? String == "not read")
            #expect(work["subjectTags"] is [Any])
            let box = try #require(work["boundingBox"] as? [String: Double])
            #expect(Set(box.keys) == ["x", "y", "width", "height"])
            #expect(box.values.allSatisfy { (0...1).contains($0) })
            #expect(book["edition"] is [String: Any])
            let confidence = try #require(book["confidence"] as? Double)
            #expect((0...1).contains(confidence))
            let polygon = try #require(book["polygon"] as? [[Double]])
            #expect(polygon.count == 4 && polygon.allSatisfy { $0.count == 2 })
        }
        // Left to right, as the spines stand on the shelf.
        let xs = books.compactMap { (($0["work"] as? [String: Any])?["boundingBox"] as? [String: Double])?["x"] }
        #expect(xs == xs.sorted())
    }

    @Test func aFolderWithCorruptAndNonImageFilesFilesTheGoodOnesAndExitsOne() async throws {
        let (dir, _) = try Self.photoFolder(count: 2)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("not a photo".utf8).write(to: dir.appendingPathComponent("broken.jpg"))
        let good = try Data(contentsOf: dir.appendingPathComponent("shelf-000.jpg"))
        try good.prefix(good.count / 3).write(to: dir.appendingPathComponent("cut.JPG"))
        try Data("notes".utf8).write(to: dir.appendingPathComponent("notes.txt"))
        // The library lives inside the scanned folder: its own crops must not be taken for photos.
        let library = dir.appendingPathComponent("lib/library.sqlite").path

        let run = try ShelfscanProcess.run(["scan", dir.path, "--reader", "none", "--library", library])
        #expect(run.status == 1)
        #expect(!run.signalled)
        #expect(run.stderr.contains("broken.jpg: failed"))
        #expect(run.stderr.contains("cut.JPG: failed"))
        #expect(run.stderr.contains("2 scanned, 0 skipped, 2 failed. Left out 1 file: 1 not a photo."))
        // Every spine found in the two good photos is pending review, and nothing else.
        let found = try #require(Self.spinesFound(run.stderr))
        #expect(found > 0)
        let store = try LibraryStore(path: library)
        #expect(try await store.pendingCount() == found)
        #expect(try await store.stats().photos == 2)

        // Run again: the good photos are skipped by content, the bad ones fail again, nothing is duplicated.
        let again = try ShelfscanProcess.run(["scan", dir.path, "--reader", "none", "--library", library])
        #expect(again.status == 1)
        #expect(again.stderr.contains("0 scanned, 2 skipped, 2 failed"))
        #expect(try await store.pendingCount() == found)
    }

    @Test func usageErrorsExitTwoBeforeAnyPhotoIsRead() throws {
        for args in [["scan"], ["scan", "x.jpg", "--jobs", "0"], ["scan", "x.jpg", "--reader", "ocr"],
                     ["scan", "x.jpg", "--min-confidence", "2"], ["scan", "x.jpg", "--endpoint", "http://localhost:1"],
                     ["scan", "x.jpg", "--lang", "eng+"], ["scan", "x.jpg", "--lang", "../eng"]] {
            let run = try ShelfscanProcess.run(args)
            #expect(run.status == 2, "\(args): \(run.stderr)")
            #expect(run.stdout.isEmpty)
        }
    }

    /// A language pack that is not installed is a setup problem: one line naming it and how to get it,
    /// before any photo is read or anything filed.
    @Test func aMissingLanguagePackIsOneClearLine() throws {
        let (dir, _) = try Self.photoFolder(count: 1)
        defer { try? FileManager.default.removeItem(at: dir) }
        let library = dir.appendingPathComponent("lib.sqlite").path
        let run = try ShelfscanProcess.run(["scan", dir.path, "--reader", "tesseract", "--lang", "qqq", "--library", library])
        #expect(run.status == 1)
        let lines = run.stderr.split(separator: "\n").filter { !$0.isEmpty }
        #expect(lines.count == 1, "\(run.stderr)")
        #expect(lines.first?.contains("'qqq' not found") == true)
        #expect(lines.first?.contains("tesseract-ocr-qqq") == true)
        #expect(!FileManager.default.fileExists(atPath: library))
        // --lang means nothing to the default PP-OCR reader: a usage error, not a silently ignored flag.
        let wrongReader = try ShelfscanProcess.run(["scan", dir.path, "--lang", "spa", "--library", library])
        #expect(wrongReader.status == 2)
        #expect(wrongReader.stderr.contains("--reader tesseract"))
    }

    /// The default reader's files missing (never set up, or the cache wiped): one line naming the folder
    /// and the set-up command, exit 1, before any photo is read or anything filed.
    @Test func missingPPOCRFilesAreOneClearLine() throws {
        let (dir, _) = try Self.photoFolder(count: 1)
        defer { try? FileManager.default.removeItem(at: dir) }
        let library = dir.appendingPathComponent("lib.sqlite").path
        let empty = dir.appendingPathComponent("no-models").path
        let run = try ShelfscanProcess.run(["scan", dir.path, "--library", library], environment: ["SHELFSCAN_MODELS_DIR": empty])
        #expect(run.status == 1)
        let lines = run.stderr.split(separator: "\n").filter { !$0.isEmpty }
        #expect(lines.count == 1, "\(run.stderr)")
        #expect(lines.first?.contains(empty) == true)
        #expect(lines.first?.contains("scripts/setup.sh") == true)
        #expect(!FileManager.default.fileExists(atPath: library))

        // The runtime in place but the detector model damaged: the same, naming the damaged file.
        let models = try PPOCRModels.inDirectory(PPOCRModels.defaultDirectory())
        try #require(FileManager.default.fileExists(atPath: models.runtimeLibrary), "scripts/setup.sh fetches the models")
        let damaged = dir.appendingPathComponent("damaged-models")
        let copy = try PPOCRModels.inDirectory(damaged)
        for (from, to) in [(models.runtimeLibrary, copy.runtimeLibrary), (models.recognizer, copy.recognizer), (models.dictionary, copy.dictionary)] {
            try FileManager.default.createDirectory(atPath: (to as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: to, withDestinationPath: from)
        }
        try FileManager.default.createDirectory(atPath: (copy.detector as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(repeating: 0x5A, count: 10_000).write(to: URL(fileURLWithPath: copy.detector))
        let corrupt = try ShelfscanProcess.run(["scan", dir.path, "--library", library], environment: ["SHELFSCAN_MODELS_DIR": damaged.path])
        #expect(corrupt.status == 1)
        let corruptLines = corrupt.stderr.split(separator: "\n").filter { !$0.isEmpty }
        #expect(corruptLines.count == 1, "\(corrupt.stderr)")
        #expect(corruptLines.first?.contains(copy.detector) == true)
        #expect(!FileManager.default.fileExists(atPath: library))
    }

    @Test func missingPathFailsTheBatchButNotTheOthers() throws {
        let (dir, _) = try Self.photoFolder(count: 1)
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try ShelfscanProcess.run(["scan", dir.path, dir.appendingPathComponent("nope").path,
                                            "--reader", "none", "--dry-run", "--json"])
        #expect(run.status == 1)
        let lines = try Self.decodeLines(run.stdout)
        #expect(lines.count == 2)
        #expect(lines.filter { $0["success"] as? Bool == false }.count == 1)
        let error = try #require(lines.first { $0["success"] as? Bool == false }?["error"] as? [String: Any])
        #expect((error["message"] as? String)?.contains("nope") == true)
    }

    /// The resume guarantee: killed with SIGKILL mid-batch and run again, every photo is filed exactly
    /// once — the same Works, per photo, as one uninterrupted run.
    @Test func killedMidBatchAndRerunFilesEveryPhotoExactlyOnce() async throws {
        let (dir, _) = try Self.photoFolder(count: 30, firstSeed: 100, width: 800)
        let libraries = try ShelfscanProcess.temporaryDirectory("scan-libraries")
        defer { try? FileManager.default.removeItem(at: dir); try? FileManager.default.removeItem(at: libraries) }
        let interrupted = libraries.appendingPathComponent("interrupted/library.sqlite").path
        let reference = libraries.appendingPathComponent("reference/library.sqlite").path
        let photos = dir.path

        // Start, wait for the first photo to be filed, then kill -9.
        let (process, stderr) = try ShelfscanProcess.start(["scan", photos, "--reader", "none", "--jobs", "1", "--library", interrupted])
        var seen = ""
        while !seen.contains(" spines, ") {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = buffer.withUnsafeMutableBytes { read(stderr.fileDescriptor, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            seen += String(decoding: buffer[0..<n], as: UTF8.self)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        let partial = try await LibraryStore(path: interrupted).stats().photos
        #expect(partial >= 1)
        #expect(partial < 30, "the batch finished before the kill; the test proved nothing")

        let resumed = try ShelfscanProcess.run(["scan", photos, "--reader", "none", "--jobs", "2", "--library", interrupted])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("\(30 - partial) scanned, \(partial) skipped, 0 failed"))
        let whole = try ShelfscanProcess.run(["scan", photos, "--reader", "none", "--jobs", "2", "--library", reference])
        #expect(whole.status == 0)

        func worksPerPhoto(_ path: String) async throws -> [String: Int] {
            let store = try LibraryStore(path: path)
            return Dictionary(grouping: try await store.pendingSummaries(), by: { $0.photoContentHash ?? "" }).mapValues(\.count)
        }
        let a = try await worksPerPhoto(interrupted), b = try await worksPerPhoto(reference)
        #expect(try await LibraryStore(path: interrupted).stats().photos == 30)
        #expect(!a.isEmpty)
        #expect(a == b)
    }
}
