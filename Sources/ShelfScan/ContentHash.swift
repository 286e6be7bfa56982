import Crypto
import Foundation

/// A photo is known by the SHA-256 of its bytes, not by its path: renaming or moving a photo does not
/// scan it twice, and editing it does.
public enum ContentHash {
    public static func sha256Hex(_ bytes: [UInt8]) -> String {
        let hexDigits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(64)
        for byte in SHA256.hash(data: bytes) {
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
