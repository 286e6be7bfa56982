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
        // Then every photo is listed once, sorted, and the others are only counted
        #expect(source.photos.map { String($0.dropFirst(root.path.count + 1)) }
            == ["a.jpeg", "b.JPG", "phone/e.HEIC", "phone/f.heif", "sub/c.png", "sub/deeper/d.Png", "web/g.WebP"])
        #expect(source.skippedNonImages == 2)
        #expect(source.missing.isEmpty)
    }

    @Test func namedFilesAreKeptWhateverTheirExtensionAndListedOnce() throws {
        let root = try Self.tree(["one.jpg", "scan.bin"])
        defer { try? FileManager.default.removeItem(at: root) }
        let one = root.appendingPathComponent("one.jpg").path
        let source = PhotoSource(paths: [one, root.appendingPathComponent("scan.bin").path, root.path, "\(root.path)/missing.jpg"])
        // A file named explicitly is scanned (the decoder judges its bytes); the folder adds nothing new.
        #expect(source.photos == [one, root.appendingPathComponent("scan.bin").path])
        #expect(source.missing == ["\(root.path)/missing.jpg"])
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
