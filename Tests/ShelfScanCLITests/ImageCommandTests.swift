import Foundation
import ShelfScanTestSupport
import Testing
import ShelfImage
@testable import ShelfScanCLI

/// `shelfscan image info|convert` run as a real subprocess: exit status, stderr lines and JSON shape are
/// the contract scripts rely on.
struct ImageCommandTests {
    struct Run { var status: Int32; var stdout: String; var stderr: String; var signalled: Bool }

    static func run(_ args: [String]) throws -> Run {
        let r = try ShelfscanProcess.run(args)
        return Run(status: r.status, stdout: r.stdout, stderr: r.stderr, signalled: r.signalled)
    }

    static func tempDir() throws -> URL { try ScratchDirectory.make("cli") }

    static func photo(width: Int = 64, height: Int = 48) -> RGBImage {
        var px = [UInt8](repeating: 0, count: width * height * 3)
        for i in 0..<(width * height) { px[3 * i] = UInt8(i % 256); px[3 * i + 1] = UInt8((i / width) * 4 % 256); px[3 * i + 2] = 90 }
        return RGBImage(width: width, height: height, pixels: px)
    }

    @Test func badFilesGiveOneStderrLineAndNonZeroExit() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let jpeg = try Self.photo().jpegData()
        let files: [(String, [UInt8])] = [
            ("empty.jpg", []), ("text.png", Array("not an image".utf8)), ("cut.jpg", Array(jpeg[0..<(jpeg.count / 2)])),
            ("flipped-magic.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0B] + [UInt8](repeating: 7, count: 40)),
        ]
        var paths = files.map { dir.appendingPathComponent($0.0).path }
        for (path, (_, bytes)) in zip(paths, files) { #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes))) }
        paths.append(dir.appendingPathComponent("missing.jpg").path)
        try Self.expectOneLineFailures(paths, convertingInto: dir)
    }

    /// `image info` and `image convert` on each bad file: a non-zero exit, one stderr line naming the
    /// file, no signal, and no output file left behind.
    static func expectOneLineFailures(_ paths: [String], convertingInto dir: URL) throws {
        for path in paths {
            for args in [["image", "info", path], ["image", "convert", path, dir.appendingPathComponent("out.png").path]] {
                let r = try Self.run(args)
                #expect(!r.signalled)
                #expect(r.status != 0, "\(args)")
                let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: true)
                #expect(lines.count == 1, "\(args): \(r.stderr)")
                #expect(r.stderr.contains((path as NSString).lastPathComponent))
            }
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.png").path))
    }

    @Test func infoJSONShape() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("photo.jpg").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(try Self.photo().jpegData())))
        let r = try Self.run(["image", "info", path, "--json"])
        #expect(r.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(object["success"] as? Bool == true)
        let data = try #require(object["data"] as? [String: Any])
        #expect(data["format"] as? String == "jpeg")
        #expect(data["width"] as? Int == 64 && data["height"] as? Int == 48)
        #expect(data["orientation"] as? Int == 1)
        #expect(data["uprightWidth"] as? Int == 64 && data["uprightHeight"] as? Int == 48)
        #expect((object["meta"] as? [String: Any])?["timestamp"] is String)

        let bad = try Self.run(["image", "info", dir.appendingPathComponent("nope.png").path, "--json"])
        #expect(bad.status != 0)
        let envelope = try #require(try JSONSerialization.jsonObject(with: Data(bad.stdout.utf8)) as? [String: Any])
        #expect(envelope["success"] as? Bool == false)
        #expect((envelope["error"] as? [String: Any])?["code"] as? String == "UNREADABLE_PATH")
    }

    @Test func convertShrinksAndPicksFormatByExtension() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.png").path
        #expect(FileManager.default.createFile(atPath: input, contents: Data(try Self.photo(width: 200, height: 100).pngData())))
        let jpgOut = dir.appendingPathComponent("out.JPG").path
        let r = try Self.run(["image", "convert", input, jpgOut, "--max-side", "50", "--quality", "80"])
        #expect(r.status == 0, "\(r.stderr)")
        let info = try ImageDecoder.info(fileAt: jpgOut)
        #expect(info.format == .jpeg && info.width == 50 && info.height == 25)
        let pngOut = dir.appendingPathComponent("out.png").path
        #expect(try Self.run(["image", "convert", jpgOut, pngOut]).status == 0)
        #expect(try ImageDecoder.info(fileAt: pngOut).format == .png)
        // A destination that cannot be written: one line, non-zero, nothing left behind.
        let nowhere = dir.appendingPathComponent("no-such-dir/out.png").path
        let failed = try Self.run(["image", "convert", input, nowhere])
        #expect(failed.status != 0 && !failed.signalled)
        #expect(failed.stderr.split(separator: "\n").count == 1 && failed.stderr.contains("out.png"))
        // An unknown extension is refused before anything is read.
        #expect(try Self.run(["image", "convert", input, dir.appendingPathComponent("out.gif").path]).status != 0)
    }

    @Test func commandsParse() throws {
        let parsed = try Shelfscan.parseAsRoot(["image", "convert", "a.jpg", "b.png", "--max-side", "800"])
        let convert = try #require(parsed as? ImageCommand.Convert)
        #expect(convert.maxSide == 800 && convert.quality == 90)
        #expect(throws: (any Error).self) { try Shelfscan.parseAsRoot(["image", "convert", "a.jpg", "b.png", "--quality", "0"]) }
    }
}
