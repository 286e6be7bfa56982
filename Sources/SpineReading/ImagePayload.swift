import Foundation
import ShelfImage

/// A crop as the bytes a vision endpoint receives.
struct ImagePayload: Sendable {
    var mimeType: String
    var data: Data

    var base64: String { data.base64EncodedString() }
    var dataURL: String { "data:\(mimeType);base64,\(base64)" }

    /// Encodes `image` for upload.
    ///
    /// Temporary: an uncompressed PNG until `RGBImage.jpegData(quality:)` lands in ShelfImage; PNG is
    /// accepted by every endpoint this reader speaks to, it is only larger.
    static func encode(_ image: RGBImage, quality: Int) -> ImagePayload {
        ImagePayload(mimeType: "image/png", data: StoredPNG.encode(image))
    }
}

/// A PNG with deflate "stored" blocks: valid, lossless, no zlib needed.
enum StoredPNG {
    static func encode(_ image: RGBImage) -> Data {
        var out = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var ihdr = Data()
        ihdr.appendBE(UInt32(image.width))
        ihdr.appendBE(UInt32(image.height))
        ihdr.append(contentsOf: [8, 2, 0, 0, 0])  // 8-bit RGB, deflate, no filter, no interlace
        chunk("IHDR", ihdr, into: &out)

        let rowBytes = image.width * 3
        var raw = [UInt8]()
        raw.reserveCapacity((rowBytes + 1) * image.height)
        for y in 0..<image.height {
            raw.append(0)  // filter: none
            raw.append(contentsOf: image.pixels[(y * rowBytes)..<((y + 1) * rowBytes)])
        }
        var z = Data([0x78, 0x01])
        var offset = 0
        repeat {
            let n = min(65_535, raw.count - offset)
            let final: UInt8 = offset + n == raw.count ? 1 : 0
            z.append(final)
            z.append(UInt8(n & 0xFF)); z.append(UInt8(n >> 8))
            z.append(UInt8(~n & 0xFF)); z.append(UInt8((~n >> 8) & 0xFF))
            z.append(contentsOf: raw[offset..<(offset + n)])
            offset += n
        } while offset < raw.count
        z.appendBE(adler32(raw))
        chunk("IDAT", z, into: &out)
        chunk("IEND", Data(), into: &out)
        return out
    }

    private static func chunk(_ type: String, _ body: Data, into out: inout Data) {
        out.appendBE(UInt32(body.count))
        let typed = Data(type.utf8) + body
        out.append(typed)
        out.appendBE(crc32(typed))
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ data: Data) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in data { c = crcTable[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return (b << 16) | a
    }
}

extension Data {
    fileprivate mutating func appendBE(_ v: UInt32) {
        append(contentsOf: [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)])
    }
}
