import Foundation

/// Width and height from a PNG or JPEG header, the way a vision service checks that an image part is an
/// image before paying for inference. Nil for anything else, truncated files included.
public enum ImageHeader {
    public static func size(of data: Data) -> (width: Int, height: Int)? {
        let b = [UInt8](data)
        if b.count >= 33, b[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], b[12..<16] == [0x49, 0x48, 0x44, 0x52] {
            let w = Int(b[16]) << 24 | Int(b[17]) << 16 | Int(b[18]) << 8 | Int(b[19])
            let h = Int(b[20]) << 24 | Int(b[21]) << 16 | Int(b[22]) << 8 | Int(b[23])
            // The end chunk must be there too, or the file was cut short.
            guard w > 0, h > 0, b.suffix(8).starts(with: [0x49, 0x45, 0x4E, 0x44]) else { return nil }
            return (w, h)
        }
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        guard b.suffix(2) == [0xFF, 0xD9] else { return nil }  // no end-of-image marker: truncated
        var i = 2
        while i + 9 < b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            let isSOF = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            if isSOF {
                let h = Int(b[i + 5]) << 8 | Int(b[i + 6])
                let w = Int(b[i + 7]) << 8 | Int(b[i + 8])
                return w > 0 && h > 0 ? (w, h) : nil
            }
            guard length >= 2 else { return nil }
            i += 2 + length
        }
        return nil
    }
}
