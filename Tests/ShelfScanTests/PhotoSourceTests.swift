import Foundation
import ShelfScanTestSupport
import Testing
@testable import ShelfScan
import SpineDetection

struct PhotoSourceTests {
    static func tree(_ files: [String]) throws -> URL {
        let root = try ScratchDirectory.make("photosource")
        for file in files {
            let url = root.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: url)
        }
        return root
    }

    @Test func walksFoldersRecursivelyInSortedOrderAndCountsOtherFiles() throws {
        // Given a folder with photos in any case, nested folders, other files and a hidden file
        let root = try Self.tree(["b.JPG", "a.jpeg", "sub/c.png", "sub/deeper/d.Png", "notes.txt", "sub/raw.cr2", ".hidden.jpg",
                                  "phone/e.HEIC", "phone/f.heif", "web/g.WebP"])
        defer { try? FileManager.default.removeItem(at: root) }
        // When it is expanded
        let source = PhotoSource(paths: [root.path])
        // Then every photo is listed once, sorted, and the others are left out with their reason
        #expect(source.photos.map { String($0.dropFirst(root.path.count + 1)) }
            == ["a.jpeg", "b.JPG", "phone/e.HEIC", "phone/f.heif", "sub/c.png", "sub/deeper/d.Png", "web/g.WebP"])
        #expect(source.leftOut.map { [String($0.path.dropFirst(root.path.count + 1)), $0.reason.rawValue] }
            == [[".hidden.jpg", "hidden"], ["notes.txt", "not-a-photo"], ["sub/raw.cr2", "not-a-photo"]])
        #expect(source.missing.isEmpty)
    }

    /// The tree a photo manager or a synced folder makes: photos, links to photos and to a folder elsewhere,
    /// a link back up (a cycle), a link to nothing, a hidden photo, a text file and a pipe named like a photo.
    static func linkedTree() throws -> (root: URL, scanned: URL) {
        let root = try Self.tree(["scanned/a.jpg", "scanned/notes.txt", "scanned/.hidden.jpg", "elsewhere/b.png", "elsewhere/deep/c.webp"])
        let scanned = root.appendingPathComponent("scanned")
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: scanned.appendingPathComponent("a-again.jpg").path, withDestinationPath: "a.jpg")
        try fm.createSymbolicLink(atPath: scanned.appendingPathComponent("b.png").path, withDestinationPath: "../elsewhere/b.png")
        try fm.createSymbolicLink(atPath: scanned.appendingPathComponent("linked").path, withDestinationPath: "../elsewhere")
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("elsewhere/up").path, withDestinationPath: "../scanned")
        try fm.createSymbolicLink(atPath: scanned.appendingPathComponent("gone.jpg").path, withDestinationPath: "nowhere.jpg")
        try #require(mkfifo(scanned.appendingPathComponent("pipe.jpg").path, 0o644) == 0)
        return (root, scanned)
    }

    @Test func linksToPhotosAndFoldersAreFollowedAndEveryPhotoIsListedOnce() throws {
        let (root, scanned) = try Self.linkedTree()
        defer { try? FileManager.default.removeItem(at: root) }
        let source = PhotoSource(paths: [scanned.path])
        let relative = { (path: String) in String(path.dropFirst(scanned.path.count + 1)) }
        // a.jpg and its link are one file, listed by the name that is not a link; so is b.png, reached through
        // its link and inside the linked folder; the cycle back up through elsewhere/up ends because scanned/
        // was entered already.
        #expect(source.photos.map(relative) == ["a.jpg", "linked/b.png", "linked/deep/c.webp"])
        #expect(source.leftOut.map { [relative($0.path), $0.reason.rawValue] }
            == [[".hidden.jpg", "hidden"], ["gone.jpg", "broken-link"], ["notes.txt", "not-a-photo"], ["pipe.jpg", "unreadable"]])
        #expect(source.missing.isEmpty)
    }

    @Test func withoutFollowingLinksEveryLinkIsLeftOutAndCounted() throws {
        let (root, scanned) = try Self.linkedTree()
        defer { try? FileManager.default.removeItem(at: root) }
        let source = PhotoSource(paths: [scanned.path], followLinks: false)
        let relative = { (path: String) in String(path.dropFirst(scanned.path.count + 1)) }
        #expect(source.photos.map(relative) == ["a.jpg"])
        #expect(source.leftOut.map { [relative($0.path), $0.reason.rawValue] }
            == [[".hidden.jpg", "hidden"], ["a-again.jpg", "link-not-followed"], ["b.png", "link-not-followed"],
                ["gone.jpg", "link-not-followed"], ["linked", "link-not-followed"], ["notes.txt", "not-a-photo"],
                ["pipe.jpg", "unreadable"]])
    }

    @Test func aLinkCycleAloneEnds() throws {
        let root = try Self.tree(["loop/a.jpg"])
        defer { try? FileManager.default.removeItem(at: root) }
        let loop = root.appendingPathComponent("loop")
        try FileManager.default.createSymbolicLink(atPath: loop.appendingPathComponent("self").path, withDestinationPath: ".")
        try FileManager.default.createSymbolicLink(atPath: loop.appendingPathComponent("x.jpg").path, withDestinationPath: "y.jpg")
        try FileManager.default.createSymbolicLink(atPath: loop.appendingPathComponent("y.jpg").path, withDestinationPath: "x.jpg")
        let source = PhotoSource(paths: [loop.path])
        #expect(source.photos == [loop.appendingPathComponent("a.jpg").path])
        #expect(source.leftOut.map(\.reason) == [.brokenLink, .brokenLink])
    }

    @Test(.enabled(if: getuid() != 0, "root reads every file whatever its permissions"))
    func aPhotoWithoutReadPermissionIsLeftOutAsUnreadable() throws {
        let root = try Self.tree(["a.jpg", "locked.jpg"])
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: root.appendingPathComponent("locked.jpg").path)
        let source = PhotoSource(paths: [root.path])
        #expect(source.photos == [root.appendingPathComponent("a.jpg").path])
        #expect(source.leftOut == [LeftOutFile(path: root.appendingPathComponent("locked.jpg").path, reason: .unreadable)])
    }

    @Test func namedFilesAreKeptWhateverTheirExtensionAndListedOnce() throws {
        let root = try Self.tree(["one.jpg", "scan.bin"])
        defer { try? FileManager.default.removeItem(at: root) }
        let one = root.appendingPathComponent("one.jpg").path
        let source = PhotoSource(paths: [one, root.appendingPathComponent("scan.bin").path, root.path, "\(root.path)/missing.jpg"])
        // A file named explicitly is scanned (the decoder judges its bytes); the folder adds nothing new.
        #expect(source.photos == [one, root.appendingPathComponent("scan.bin").path])
        #expect(source.missing == ["\(root.path)/missing.jpg"])
        // Only the files named as files count as named: the pixel limit fails them rather than leaving them out.
        #expect(source.named == [one, root.appendingPathComponent("scan.bin").path])
    }

    @Test(arguments: [(12_000, 1280, 8), (4624, 1280, 2), (3000, 1280, 2), (2000, 1280, 1), (640, 1280, 1), (40_000, 1280, 8)])
    func detectionScaleLeavesEnoughPixels(longSide: Int, target: Int, expected: Int) {
        #expect(DetectionInput.scaleDenominator(longSide: longSide, target: target) == expected)
    }
}

extension PhotoSourceTests {
    @Test func theLibrarysCropsFolderIsNeverScanned() throws {
        let root = try Self.tree(["shelf.jpg", "library.crops/abc-r0-p0.jpg", "library.crops/abc-r0-p1.jpg"])
        defer { try? FileManager.default.removeItem(at: root) }
        let source = PhotoSource(paths: [root.path], excluding: [root.appendingPathComponent("library.crops").path])
        #expect(source.photos == [root.appendingPathComponent("shelf.jpg").path])
    }
}

extension PhotoSourceTests {
    @Test func pathCheckNamesWhyANamedPathCannotBeRead() throws {
        let (root, scanned) = try Self.linkedTree()
        defer { try? FileManager.default.removeItem(at: root) }
        let at = { (name: String) in scanned.appendingPathComponent(name).path }
        try FileManager.default.createSymbolicLink(atPath: at("round.jpg"), withDestinationPath: "round.jpg")
        #expect(PathCheck.problem(at("a.jpg")) == nil)
        #expect(PathCheck.problem(at("a-again.jpg")) == nil)
        #expect(PathCheck.problem(at("linked"), folderAllowed: true) == nil)
        #expect(PathCheck.problem(at("linked")) == "\(at("linked")) is a folder; name the file inside it.")
        #expect(PathCheck.problem(at("gone.jpg")) == "\(at("gone.jpg")) is a link to nowhere.jpg, which does not exist.")
        #expect(PathCheck.problem(at("round.jpg")) == "\(at("round.jpg")) is a link in a cycle of links, which leads to no file.")
        #expect(PathCheck.problem(at("pipe.jpg")) == "\(at("pipe.jpg")) is not a plain file (a pipe, a socket or a device).")
        #expect(PathCheck.problem(at("nope.jpg")) == "No such file or folder: \(at("nope.jpg")).")
    }
}
