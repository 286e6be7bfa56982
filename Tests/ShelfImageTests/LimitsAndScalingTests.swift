import Foundation
import Testing
@testable import ShelfImage

struct LimitsAndScalingTests {
    @Test func pixelLimitComesFromTheHeader() throws {
        let jpeg = TestImages.fixture("baseline-444.jpg") // 16x12 = 192 px
        let png = TestImages.fixture("rgb.png")
        for data in [jpeg, png] {
            #expect(throws: ShelfImageError.self) { try ImageDecoder.decode(data, options: DecodeOptions(maxPixels: 191)) }
            do {
                _ = try ImageDecoder.decode(data, options: DecodeOptions(maxPixels: 191))
            } catch {
                #expect(error.code == .tooManyPixels)
                #expect(error.message.contains("16x12"))
            }
            #expect(try ImageDecoder.decode(data, options: DecodeOptions(maxPixels: 192)).width == 16)
        }
    }

    /// A 60-byte JPEG header claiming 60000x60000: rejected from the header alone (the data has no
    /// scan at all, so any attempt to decode would fail differently).
    @Test func fakeHugeHeaderFailsWithoutDecoding() throws {
        var d: [UInt8] = [0xFF, 0xD8]
        d += [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)           // DQT
        d += [0xFF, 0xC0, 0x00, 0x0B, 0x08, 0xEA, 0x60, 0xEA, 0x60, 0x01, 0x01, 0x11, 0x00] // SOF0 60000x60000 gray
        d += [0xFF, 0xC4, 0x00, 0x14, 0x00, 0x01] + [UInt8](repeating: 0, count: 15) + [0x00] // DHT: one 1-bit code
        d += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00]                // SOS
        do {
            _ = try ImageDecoder.decode(d)
            Issue.record("a 3.6 GP header decoded")
        } catch {
            #expect(error.code == .tooManyPixels)
        }
        #expect(try ImageDecoder.info(d).width == 60000)
    }

    @Test(arguments: [1, 2, 4, 8])
    func dctScaledSizes(_ scale: Int) throws {
        let card = TestImages.card(width: 101, height: 75, noise: 3)
        let jpeg = try card.jpegData(quality: 92)
        let full = try ImageDecoder.decode(jpeg)
        let reduced = try ImageDecoder.decode(jpeg, options: DecodeOptions(scaleDenominator: scale))
        let w = (101 + scale - 1) / scale, h = (75 + scale - 1) / scale
        #expect(reduced.width == w && reduced.height == h)
        // The DCT-scaled decode looks like an area-averaged full decode.
        #expect(TestImages.difference(reduced, full.downscaled(width: w, height: h)).mean < 8)

        let png = try card.pngData()
        let pngReduced = try ImageDecoder.decode(png, options: DecodeOptions(scaleDenominator: scale))
        #expect(pngReduced.width == w && pngReduced.height == h)
        #expect(TestImages.difference(pngReduced, card.downscaled(width: w, height: h)).max == 0)
    }

    @Test func scaledDecodeThenOrientation() throws {
        let jpeg = TestImages.withExif(try TestImages.card(width: 64, height: 32).jpegData(), orientation: 6, bigEndian: true)
        let quarter = try ImageDecoder.decode(jpeg, options: DecodeOptions(scaleDenominator: 4))
        #expect(quarter.width == 8 && quarter.height == 16)
    }

    @Test func invalidScaleIsAnArgumentError() {
        do {
            _ = try ImageDecoder.decode(TestImages.fixture("rgb.png"), options: DecodeOptions(scaleDenominator: 3))
            Issue.record("scale 1/3 accepted")
        } catch {
            #expect(error.code == .invalidArgument)
        }
    }
}

struct FileErrorTests {
    @Test func errorsNameTheFileOnOneLine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("shelfimage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let empty = dir.appendingPathComponent("empty.jpg").path
        let text = dir.appendingPathComponent("notes.png").path
        let cut = dir.appendingPathComponent("cut.jpg").path
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        _ = FileManager.default.createFile(atPath: text, contents: Data("just text".utf8))
        let jpeg = try TestImages.card(width: 64, height: 64, noise: 30).jpegData()
        _ = FileManager.default.createFile(atPath: cut, contents: Data(jpeg[0..<(jpeg.count / 2)]))

        let cases: [(String, ShelfImageError.Code)] = [
            (empty, .emptyFile), (text, .unsupportedFormat), (cut, .truncated),
            (dir.appendingPathComponent("missing.jpg").path, .unreadablePath), (dir.path, .unreadablePath),
        ]
        for (path, code) in cases {
            do {
                _ = try ImageDecoder.decode(fileAt: path)
                Issue.record("\(path) decoded")
            } catch {
                #expect(error.code == code, "\(path)")
                #expect(error.message.contains(path))
                #expect(!error.description.contains("\n"))
            }
        }
        do {
            _ = try ImageDecoder.decode(fileAt: cut)
        } catch {
            #expect(error.cause?.contains("libjpeg") == true)
        }
        // The header is intact, so plain info succeeds; verifying the data catches the truncation.
        #expect(try ImageDecoder.info(fileAt: cut).width == 64)
        #expect(throws: ShelfImageError.self) { try ImageDecoder.info(fileAt: cut, verifyingData: true) }
    }
}
