import Testing
@testable import ShelfImage

/// EXIF orientation 1-8, in both TIFF byte orders, against the pixel maps the EXIF spec defines.
struct OrientationTests {
    static let stored = TestImages.card(width: 24, height: 16)

    /// Where upright pixel (x, y) comes from in the stored image, straight from the EXIF definitions.
    static func sourceOf(_ x: Int, _ y: Int, orientation: Int, w: Int, h: Int) -> (Int, Int) {
        switch orientation {
        case 2: return (w - 1 - x, y)
        case 3: return (w - 1 - x, h - 1 - y)
        case 4: return (x, h - 1 - y)
        case 5: return (y, x)
        case 6: return (y, h - 1 - x)
        case 7: return (w - 1 - y, h - 1 - x)
        case 8: return (w - 1 - y, x)
        default: return (x, y)
        }
    }

    @Test(arguments: 1...8, [false, true])
    func decodeAppliesOrientation(_ orientation: Int, bigEndian: Bool) throws {
        let png = try Self.stored.pngData()
        let plain = try ImageDecoder.decode(png)
        #expect(plain == Self.stored)
        let jpeg = try Self.stored.jpegData(quality: 95)
        let base = try ImageDecoder.decode(jpeg)
        let tagged = TestImages.withExif(jpeg, orientation: orientation, bigEndian: bigEndian)

        let info = try ImageDecoder.info(tagged)
        #expect(info.orientation == orientation)
        #expect(info.width == 24 && info.height == 16)
        #expect(info.uprightWidth == (orientation >= 5 ? 16 : 24))

        let upright = try ImageDecoder.decode(tagged)
        #expect(upright.width == info.uprightWidth && upright.height == info.uprightHeight)
        var mismatches = 0
        for y in 0..<upright.height {
            for x in 0..<upright.width {
                let (sx, sy) = Self.sourceOf(x, y, orientation: orientation, w: 24, h: 16)
                for c in 0..<3 where upright.pixels[(y * upright.width + x) * 3 + c] != base.pixels[(sy * 24 + sx) * 3 + c] {
                    mismatches += 1
                }
            }
        }
        #expect(mismatches == 0)

        let asStored = try ImageDecoder.decode(tagged, options: DecodeOptions(applyOrientation: false))
        #expect(asStored == base)
    }

    @Test(arguments: 1...8)
    func pngExifChunkIsHonoured(_ orientation: Int) throws {
        // eXIf goes before IDAT: split our own PNG after IHDR (8 + 25 bytes) and insert the chunk.
        let png = try Self.stored.pngData()
        let tiff = TestImages.tiffBlock(orientation: orientation, bigEndian: orientation % 2 == 0)
        let chunk = pngChunk("eXIf", tiff)
        let tagged = Array(png[0..<33]) + chunk + Array(png[33...])
        #expect(try ImageDecoder.info(tagged).orientation == orientation)
        let upright = try ImageDecoder.decode(tagged)
        #expect(upright == Self.stored.oriented(exif: orientation))
    }

    /// Warping the stored image with the mapped quad gives the crop the upright image would give.
    @Test(arguments: 1...8)
    func quadsMapFromUprightToStored(_ orientation: Int) {
        let stored = TestImages.card(width: 48, height: 32, noise: 30)
        let upright = stored.oriented(exif: orientation)
        let info = ImageInfo(format: .jpeg, width: 48, height: 32, orientation: orientation)
        #expect(info.uprightWidth == upright.width && info.uprightHeight == upright.height)
        // A tilted quad well inside the upright image.
        let q = Quad(topLeft: Point(x: 6.3, y: 4.1), topRight: Point(x: 14.7, y: 5.2),
                     bottomRight: Point(x: 12.9, y: 26.8), bottomLeft: Point(x: 4.6, y: 25.5))
        let fromUpright = upright.warped(q, width: 9, height: 21)
        let fromStored = stored.warped(info.storedQuad(fromUpright: q), width: 9, height: 21)
        // Mirrored bilinear weights round independently: at most one level apart.
        #expect(TestImages.difference(fromUpright, fromStored).max <= 1)
        // Integer corners map exactly: an axis-aligned crop is identical.
        let box = Quad(topLeft: Point(x: 2, y: 3), topRight: Point(x: 12, y: 3), bottomRight: Point(x: 12, y: 20), bottomLeft: Point(x: 2, y: 20))
        #expect(upright.warped(box, width: 10, height: 17) == stored.warped(info.storedQuad(fromUpright: box), width: 10, height: 17))
    }

    @Test func rotationsAreOrientations() {
        let img = Self.stored
        #expect(img.rotated(.clockwise90).rotated(.counterClockwise90) == img)
        #expect(img.rotated(.half).rotated(.half) == img)
        #expect(img.rotated(.clockwise90).rotated(.clockwise90) == img.rotated(.half))
        let cw = img.rotated(.clockwise90)
        #expect(cw.width == 16 && cw.height == 24)
        // Clockwise: the stored bottom-left pixel becomes the top-left one.
        #expect(Array(cw.pixels[0..<3]) == Array(img.pixels[(15 * 24) * 3..<(15 * 24) * 3 + 3]))
    }

    @Test func damagedExifMeansOrientationOne() throws {
        let jpeg = try Self.stored.jpegData()
        var tagged = TestImages.withExif(jpeg, orientation: 6, bigEndian: false)
        // Point IFD0 far outside the block.
        tagged[6 + 6 + 4] = 0xFF; tagged[6 + 6 + 5] = 0xFF; tagged[6 + 6 + 6] = 0xFF; tagged[6 + 6 + 7] = 0x7F
        #expect(try ImageDecoder.info(tagged).orientation == 1)
        let outOfRange = TestImages.withExif(jpeg, orientation: 9, bigEndian: true)
        #expect(try ImageDecoder.info(outOfRange).orientation == 1)
    }

    func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let t = Array(type.utf8)
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in t + data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
        }
        crc ^= 0xFFFF_FFFF
        let n = data.count
        return [UInt8(n >> 24), UInt8((n >> 16) & 0xFF), UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)] + t + data
            + [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)]
    }
}
