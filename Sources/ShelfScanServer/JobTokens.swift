import Crypto
import Foundation

/// A job's token: handed to the client once with the job, stored only as its SHA-256, so the job files on disk
/// open nothing.
enum JobToken {
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%016llx", generator.next() as UInt64) }.joined()
    }

    /// Hex SHA-256 of the token. Every request to a job's routes hashes the token it presents, so the hex is
    /// written from a table rather than by `String(format:)` 32 times.
    static func hash(_ token: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in SHA256.hash(data: Data(token.utf8)) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}

/// Compares without stopping at the first difference, so response time says nothing about a token.
func constantTimeEqual(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8), y = Array(b.utf8)
    guard x.count == y.count else { return false }
    var diff: UInt8 = 0
    for i in x.indices { diff |= x[i] ^ y[i] }
    return diff == 0
}
