import Foundation
@testable import ShelfImage

/// Fixture files and in-code image builders shared by the ShelfImage tests.
enum TestImages {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func fixture(_ name: String) -> [UInt8] {
        (try? [UInt8](Data(contentsOf: fixtures.appendingPathComponent(name)))) ?? []
    }

    static func fixturePath(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    /// Reads the binary PPM (P6, maxval 255) that make_fixtures.py writes as the reference decode.
    static func ppm(_ name: String) -> RGBImage? {
        let d = fixture(name)
        var fields: [Int] = []
        var i = 2
        guard d.count > 2, d[0] == UInt8(ascii: "P"), d[1] == UInt8(ascii: "6") else { return nil }
        while fields.count < 3 && i < d.count {
            while i < d.count, d[i] == 0x20 || d[i] == 0x0A { i += 1 }
            var v = 0
            while i < d.count, (0x30...0x39).contains(d[i]) { v = v * 10 + Int(d[i] - 0x30); i += 1 }
            fields.append(v)
        }
        i += 1
        guard fields.count == 3, d.count - i == fields[0] * fields[1] * 3 else { return nil }
        return RGBImage(width: fields[0], height: fields[1], pixels: Array(d[i...]))
    }

    /// An asymmetric test card: coloured quadrants, a gradient, a dark corner block, deterministic noise.
    static func card(width: Int, height: Int, noise: Int = 0) -> RGBImage {
        var px = [UInt8](repeating: 0, count: width * height * 3)
        var seed: UInt32 = 12345
        for y in 0..<height {
            for x in 0..<width {
                var r = 0, g = 0, b = 0
                switch (x < width / 2, y < height / 2) {
                case (true, true): (r, g, b) = (220, 40, 40)
                case (false, true): (r, g, b) = (40, 180, 60)
                case (true, false): (r, g, b) = (40, 60, 200)
                case (false, false): (r, g, b) = (240, 220, 60)
                }
                if x < width / 5 && y < height / 5 { (r, g, b) = (10, 10, 10) }
                r = (r + x * 30 / max(1, width)) & 0xFF
                if noise > 0 {
                    seed = seed &* 1_664_525 &+ 1_013_904_223
                    let n = Int(seed >> 24) % (2 * noise + 1) - noise
                    r = min(255, max(0, r + n)); g = min(255, max(0, g + n)); b = min(255, max(0, b + n))
                }
                let o = (y * width + x) * 3
                px[o] = UInt8(r); px[o + 1] = UInt8(g); px[o + 2] = UInt8(b)
            }
        }
        return RGBImage(width: width, height: height, pixels: px)
    }

    /// Puts an APP1 Exif segment carrying `orientation` right after SOI.
    static func withExif(_ jpeg: [UInt8], orientation: Int, bigEndian: Bool) -> [UInt8] {
        let tiff = tiffBlock(orientation: orientation, bigEndian: bigEndian)
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + jpeg[2...]
    }

    static func tiffBlock(orientation: Int, bigEndian: Bool) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16) }
        let order: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        return order + u16(42) + u32(8) + u16(1) + u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0) + u32(0)
    }

    /// Largest per-channel difference and mean absolute difference of two same-size images.
    static func difference(_ a: RGBImage, _ b: RGBImage) -> (max: Int, mean: Double) {
        precondition(a.width == b.width && a.height == b.height)
        var m = 0, sum = 0
        for i in 0..<a.pixels.count {
            let d = abs(Int(a.pixels[i]) - Int(b.pixels[i]))
            m = max(m, d)
            sum += d
        }
        return (m, a.pixels.isEmpty ? 0 : Double(sum) / Double(a.pixels.count))
    }
}
