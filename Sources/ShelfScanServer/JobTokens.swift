import Crypto
import Foundation

/// A job's token: handed to the client once with the job, stored only as its SHA-256, so the job files on disk
/// open nothing.
enum JobToken {
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%016llx", generator.next() as UInt64) }.joined()
    }

    /// Hex SHA-256 of the token, as `job.json` keeps it.
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

/// A token's SHA-256 as four words. Every request to a job's routes hashes the token it presents and compares
/// it with this: as plain words that costs no allocation, where hashing to hex and comparing byte arrays cost
/// three per request.
struct TokenDigest: Sendable, Equatable {
    private var words: (UInt64, UInt64, UInt64, UInt64)

    /// The digest of a presented token.
    init(of token: Substring) {
        var token = token
        var hasher = SHA256()
        token.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        words = hasher.finalize().withUnsafeBytes(Self.words)
    }

    /// The digest `JobToken.hash` wrote as hex; nil when `hex` is not 64 hex digits.
    init?(hex: String) {
        let utf8 = Array(hex.utf8)
        guard utf8.count == 64 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 32)
        for i in 0..<32 {
            guard let high = Hex.value(utf8[2 * i]), let low = Hex.value(utf8[2 * i + 1]) else { return nil }
            bytes[i] = high << 4 | low
        }
        words = bytes.withUnsafeBytes(Self.words)
    }

    private static func words(_ bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64, UInt64, UInt64) {
        (bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self), bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
         bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self), bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
    }

    /// Every word is compared whatever the first difference, so response time says nothing about a token.
    static func == (a: TokenDigest, b: TokenDigest) -> Bool {
        ((a.words.0 ^ b.words.0) | (a.words.1 ^ b.words.1) | (a.words.2 ^ b.words.2) | (a.words.3 ^ b.words.3)) == 0
    }
}

enum Hex {
    /// The value of one hex digit in either case; nil for any other byte.
    static func value(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// A UUID in its 8-4-4-4-12 form, either case. Foundation's `UUID(uuidString:)` parses with `sscanf`
    /// on Linux, which cost bench-serve about 1% of its CPU per job route (the token check and the handler
    /// each read the job's ID).
    static func uuid(_ text: some StringProtocol) -> UUID? {
        let utf8 = text.utf8
        guard utf8.count == 36 else { return nil }
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed = withUnsafeMutableBytes(of: &bytes) { out in
            var byte = 0, high: UInt8?
            for (position, c) in utf8.enumerated() {
                if position == 8 || position == 13 || position == 18 || position == 23 {
                    guard c == UInt8(ascii: "-") else { return false }
                    continue
                }
                guard let digit = value(c) else { return false }
                if let first = high {
                    out[byte] = first << 4 | digit
                    byte += 1
                    high = nil
                } else {
                    high = digit
                }
            }
            return true
        }
        return parsed ? UUID(uuid: bytes) : nil
    }
}

/// Every job the server knows, with its token's digest and its status as JSON: the state `JobManager` last
/// saved, which the token check and the status and results routes read without coming to the actor. Every
/// request to a job's routes queued on the actor twice (token, then job) cost bench-serve about an eighth of its
/// throughput against the server before job tokens; a read here is a dictionary lookup under a lock. Only
/// `JobManager` writes it, so a reader never sees a state the actor has not saved.
final class JobDirectory: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [UUID: Entry] = [:]

    private struct Entry {
        var job: ScanJob
        var token: TokenDigest?
        /// `JobStatusDTO` encoded when the state was saved: a state is polled far more often than it changes,
        /// and mapping and encoding it again for every poll (two dates formatted, a JSON encoder) was about a
        /// tenth of a status request's CPU in bench-serve.
        var status: Result<Data, any Error>
    }

    subscript(id: UUID) -> ScanJob? { lock.withLock { entries[id]?.job } }

    /// The job's status as the `data` of its envelope; nil for a job this server does not know.
    func encodedStatus(_ id: UUID) throws -> Data? { try lock.withLock { entries[id]?.status }?.get() }

    func put(_ job: ScanJob) {
        let status = Result { try JSONResponse.encoder.encode(JobStatusDTO(job)) }
        lock.withLock {
            let token = entries[job.id]?.token ?? TokenDigest(hex: job.tokenHash)
            entries[job.id] = Entry(job: job, token: token, status: status)
        }
    }

    /// Whether `token` is the job's; false for a job this server does not know (or no job). The token is
    /// hashed either way, so the time taken does not say whether a job exists.
    func tokenMatches(_ id: UUID?, _ token: Substring) -> Bool {
        let presented = TokenDigest(of: token)
        guard let id, let stored = lock.withLock({ entries[id]?.token }) else { return false }
        return presented == stored
    }
}

/// Compares without stopping at the first difference, so response time says nothing about a token.
func constantTimeEqual<A: StringProtocol, B: StringProtocol>(_ a: A, _ b: B) -> Bool {
    guard a.utf8.count == b.utf8.count else { return false }
    var diff: UInt8 = 0
    for (x, y) in zip(a.utf8, b.utf8) { diff |= x ^ y }
    return diff == 0
}
