import Foundation
import ShelfImage
import ShelfScanTestSupport
import Testing

/// Photos as phones save them, through the real `shelfscan` binary: `image info`, `image convert` and
/// `scan` on HEIC and WebP made by the Debian encoders (heif-enc, cwebp; scripts/setup.sh installs them)
/// from a shelf drawn in code, and damaged copies of them.
@Suite(.serialized)
struct HEIFWebPCommandTests {
    /// Runs an encoder tool; the files it makes are the inputs, so a failure stops the test.
    static func encode(_ tool: String, _ args: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [tool] + args
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        try #require(p.terminationStatus == 0, "\(tool) \(args) failed: install it with scripts/setup.sh")
    }

    /// One shelf photo as JPEG (the source), upper-case .HEIC and .webp; returns the folder and spines drawn.
    static func phoneFolder() throws -> (URL, Int) {
        let dir = try ShelfscanProcess.temporaryDirectory("heif-webp")
        let fixture = ShelfFixture.make(width: 640, height: 360, spineCount: 6, seed: 7)
        let source = dir.appendingPathComponent("source.png")
        try Data(fixture.image.pngData()).write(to: source)
        try encode("heif-enc", ["-q", "90", source.path, "-o", dir.appendingPathComponent("phone.HEIC").path])
        try encode("cwebp", ["-quiet", "-q", "90", source.path, "-o", dir.appendingPathComponent("web.webp").path])
        try FileManager.default.removeItem(at: source)
        return (dir, fixture.spines.count)
    }

    @Test func infoAndConvertReadHEICAndWebP() throws {
        let (dir, _) = try Self.phoneFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, format) in [("phone.HEIC", "heif"), ("web.webp", "webp")] {
            let path = dir.appendingPathComponent(name).path
            let info = try ShelfscanProcess.run(["image", "info", path, "--json"])
            #expect(info.status == 0, "\(info.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any])
            let data = try #require(object["data"] as? [String: Any])
            #expect(data["format"] as? String == format)
            #expect(data["width"] as? Int == 640 && data["height"] as? Int == 360)

            let out = dir.appendingPathComponent("\(name).png").path
            let convert = try ShelfscanProcess.run(["image", "convert", path, out, "--max-side", "320"])
            #expect(convert.status == 0, "\(convert.stderr)")
            let png = try ImageDecoder.decode(fileAt: out)
            #expect(png.width == 320 && png.height == 180)
        }
    }

    @Test func damagedHEICAndWebPGiveOneLineAndNonZeroExit() throws {
        let (dir, _) = try Self.phoneFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var paths: [String] = []
        for name in ["phone.HEIC", "web.webp"] {
            let bytes = [UInt8](try Data(contentsOf: dir.appendingPathComponent(name)))
            for (label, damaged) in [("cut", Array(bytes[0..<(bytes.count * 2 / 3)])), ("header", Array(bytes[0..<40]))] {
                let path = dir.appendingPathComponent("\(label)-\(name)").path
                try Data(damaged).write(to: URL(fileURLWithPath: path))
                paths.append(path)
            }
        }
        var mp4 = [UInt8](try Data(contentsOf: dir.appendingPathComponent("phone.HEIC")))
        mp4.replaceSubrange(8..<12, with: Array("isom".utf8))
        let brand = dir.appendingPathComponent("brand.heic").path
        try Data(mp4).write(to: URL(fileURLWithPath: brand))
        paths.append(brand)
        try ImageCommandTests.expectOneLineFailures(paths, convertingInto: dir)
    }

    /// A folder of phone photos is scanned, not counted as "other files", and finds what the JPEG would.
    @Test func scanPicksUpHEICAndWebPInFolders() throws {
        let (dir, drawn) = try Self.phoneFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try ShelfscanProcess.run(["scan", dir.path, "--reader", "none", "--dry-run", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let books = try #require((object["data"] as? [String: Any])?["detectedBooks"] as? [Any])
            #expect(abs(books.count - drawn) <= 1, "found \(books.count) of \(drawn) spines")
        }
        let summary = try ShelfscanProcess.run(["scan", dir.path, "--reader", "none", "--dry-run"])
        #expect(summary.stderr.contains("2 scanned, 0 skipped, 0 failed"), "\(summary.stderr)")
        #expect(!summary.stderr.contains("Left out"), "\(summary.stderr)")
    }
}
