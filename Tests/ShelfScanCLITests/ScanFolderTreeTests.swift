import Foundation
import ShelfScanTestSupport
import Testing

/// `shelfscan scan` on a folder tree as photo managers and synced folders leave them: links to photos and to
/// folders, a link cycle, a broken link, a hidden photo, a text file and a photo over the pixel limit.
@Suite(.serialized)
struct ScanFolderTreeTests {
    /// The scanned folder (two photos of its own) and a folder beside it (one photo) that it links to.
    static func tree() throws -> (scanned: URL, elsewhere: URL) {
        let (scanned, _) = try ScanCommandTests.photoFolder(count: 2)
        let (elsewhere, _) = try ScanCommandTests.photoFolder(count: 1, firstSeed: 7)
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: scanned.appendingPathComponent("again.jpg").path, withDestinationPath: "shelf-000.jpg")
        try fm.createSymbolicLink(at: scanned.appendingPathComponent("linked"), withDestinationURL: elsewhere)
        try fm.createSymbolicLink(at: elsewhere.appendingPathComponent("back"), withDestinationURL: scanned)
        try fm.createSymbolicLink(atPath: scanned.appendingPathComponent("gone.jpg").path, withDestinationPath: "nowhere.jpg")
        try fm.copyItem(at: scanned.appendingPathComponent("shelf-001.jpg"), to: scanned.appendingPathComponent(".hidden.jpg"))
        try Data("notes".utf8).write(to: scanned.appendingPathComponent("notes.txt"))
        // A real JPEG whose frame header says 20000x20000: 400 MP, over the scan's 150 MP limit.
        var huge = [UInt8](try Data(contentsOf: scanned.appendingPathComponent("shelf-000.jpg")))
        let sof = try #require(huge.indices.first { huge[$0] == 0xFF && huge[$0 + 1] == 0xC0 })
        huge.replaceSubrange(sof + 5..<sof + 9, with: [0x4E, 0x20, 0x4E, 0x20])
        try Data(huge).write(to: scanned.appendingPathComponent("huge.jpg"))
        return (scanned, elsewhere)
    }

    @Test func everyReachablePhotoIsScannedOnceAndEachFileLeftOutIsCountedByReason() throws {
        let (scanned, elsewhere) = try Self.tree()
        defer { for dir in [scanned, elsewhere] { try? FileManager.default.removeItem(at: dir) } }

        let run = try ShelfscanProcess.run(["scan", scanned.path, "--reader", "none", "--dry-run", "--jobs", "1"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("Photos: 3 scanned, 0 skipped, 0 failed. Left out 4 files: 1 not a photo, 1 hidden, 1 broken link, 1 over the pixel limit."),
                "\(run.stderr)")
        #expect(run.stderr.contains("huge.jpg: left out, over the pixel limit"), "\(run.stderr)")

        let json = try ShelfscanProcess.run(["scan", scanned.path, "--reader", "none", "--dry-run", "--jobs", "1", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let lines = try ScanCommandTests.decodeLines(json.stdout)
        let relative = { (path: String) in String(path.dropFirst(scanned.path.count + 1)) }
        // In path order; the link to shelf-000.jpg and the cycle back from elsewhere/ add nothing.
        let scannedPaths = lines.compactMap { ($0["meta"] as? [String: Any])?["requestId"] as? String }.map(relative)
        #expect(scannedPaths.prefix(3) == ["linked/shelf-000.jpg", "shelf-000.jpg", "shelf-001.jpg"])
        let leftOut = try #require((lines.last?["data"] as? [String: Any])?["leftOut"] as? [[String: String]])
        #expect(leftOut.map { [relative($0["path"] ?? ""), $0["reason"] ?? ""] }
            == [[".hidden.jpg", "hidden"], ["gone.jpg", "broken-link"], ["huge.jpg", "over-pixel-limit"], ["notes.txt", "not-a-photo"]])
    }

    @Test func aPhotoNamedOnItsOwnOverThePixelLimitFailsTheScan() throws {
        let (scanned, elsewhere) = try Self.tree()
        defer { for dir in [scanned, elsewhere] { try? FileManager.default.removeItem(at: dir) } }
        let huge = scanned.appendingPathComponent("huge.jpg").path

        // Named alone: asked for by name, so the limit is a failure with the decoder's one line, not a left-out file
        let alone = try ShelfscanProcess.run(["scan", huge, "--reader", "none", "--dry-run"])
        #expect(alone.status != 0, "\(alone.stderr)")
        #expect(alone.stderr.contains("\(huge): failed: Cannot decode image data: 20000x20000 is 400 MP, over the 150 MP limit."),
                "\(alone.stderr)")
        #expect(!alone.stderr.contains("left out"), "\(alone.stderr)")

        // Named beside a folder that holds it too: the named file fails (named first, it is listed once, as named),
        // the folder's other photos are scanned
        let both = try ShelfscanProcess.run(["scan", huge, scanned.path, "--reader", "none", "--dry-run", "--jobs", "1"])
        #expect(both.status != 0, "\(both.stderr)")
        #expect(both.stderr.contains("Photos: 3 scanned, 0 skipped, 1 failed."), "\(both.stderr)")
        #expect(!both.stderr.contains("over the pixel limit"), "\(both.stderr)")
    }

    @Test func noFollowLinksLeavesEveryLinkOutAndSaysSo() throws {
        let (scanned, elsewhere) = try Self.tree()
        defer { for dir in [scanned, elsewhere] { try? FileManager.default.removeItem(at: dir) } }

        let run = try ShelfscanProcess.run(["scan", scanned.path, "--reader", "none", "--dry-run", "--jobs", "1", "--no-follow-links"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("Photos: 2 scanned, 0 skipped, 0 failed. Left out 6 files: 1 not a photo, 1 hidden, 3 links not followed, 1 over the pixel limit."),
                "\(run.stderr)")
    }
}
