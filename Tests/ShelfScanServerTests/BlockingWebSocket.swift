import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A WebSocket client (RFC 6455) on blocking POSIX sockets, run on a thread of its own.
///
/// Why not the library's async client: the whole test run shares one process, and its cooperative pool
/// has one thread per core. Other suites block those threads for seconds at a time (a `shelfscan` child
/// run to completion, OCR, decoding), and an async client's reads, close handshake and deadline all
/// waited behind them: on a two-core machine it once got no message within its 20 s, although the server
/// had sent them. Here the kernel holds what the server sent until this thread reads it, and the only
/// time limit is the socket's own receive timeout, a guard against a wedged server rather than a measure.
struct BlockingWebSocket {
    /// What one conversation saw, in order.
    struct Transcript: Sendable {
        /// The upgrade's HTTP status (101 when the socket opened) and headers (names lowercased).
        var status = 0
        var headers: [String: String] = [:]
        var texts: [String] = []
        /// The body of an answer that refused the upgrade (a problem), read by its Content-Length.
        var body = ""
        /// The server's close frame: its code (nil if it sent none before the connection ended).
        var closeCode: Int?
        /// True when the server ended the TCP connection after the close handshake.
        var endedByServer = false
        var failure: String?
    }

    /// Connects, sends `send` once open, and reads until the server's close frame (answered with the same
    /// code) and the end of the connection: the server decides when the conversation is over.
    static func converse(port: Int, path: String, headers: [(String, String)] = [], send: [String] = [],
                         receiveTimeout: Int = 120) async -> Transcript {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                var socket = BlockingWebSocket(port: port, receiveTimeout: receiveTimeout)
                let transcript = socket.run(path: path, headers: headers, send: send)
                socket.closeSocket()
                continuation.resume(returning: transcript)
            }
            thread.name = "test-websocket"
            thread.start()
        }
    }

    private let fd: Int32
    private var buffer: [UInt8] = []
    private var connected = false

    private init(port: Int, receiveTimeout: Int) {
        fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var timeout = timeval(tv_sec: receiveTimeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    private func closeSocket() { Glibc.close(fd) }

    private mutating func run(path: String, headers: [(String, String)], send: [String]) -> Transcript {
        var transcript = Transcript()
        guard connected else { transcript.failure = "connect: \(String(cString: strerror(errno)))"; return transcript }
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        guard write(Array((request + "\r\n").utf8)) else { transcript.failure = "upgrade request not sent"; return transcript }

        // The upgrade answer: a status line and headers, up to the blank line.
        guard let head = readHead() else { transcript.failure = "no upgrade answer"; return transcript }
        let lines = head.components(separatedBy: "\r\n")
        transcript.status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            transcript.headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        guard transcript.status == 101 else {
            if let length = transcript.headers["content-length"].flatMap(Int.init), let bytes = take(length) {
                transcript.body = String(decoding: bytes, as: UTF8.self)
            }
            return transcript
        }

        for text in send { guard write(frame(opcode: 0x1, Array(text.utf8))) else { transcript.failure = "send failed"; return transcript } }
        var message: [UInt8] = []
        var closing = false
        while let (fin, opcode, payload) = readFrame() {
            switch opcode {
            case 0x1, 0x0:
                message += payload
                guard fin else { continue }
                let text = String(decoding: message, as: UTF8.self)
                message = []
                transcript.texts.append(text)
            case 0x9:
                _ = write(frame(opcode: 0xA, payload))
            case 0x8:
                transcript.closeCode = payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : 1005
                if !closing { _ = write(frame(opcode: 0x8, Array(payload.prefix(2)))) }
                closing = true
            default:
                continue
            }
        }
        // The loop ends when the connection does: by the server (a read of 0 bytes) or by the timeout.
        transcript.endedByServer = lastReadWasEnd
        if !lastReadWasEnd { transcript.failure = "no end of connection within \(timeoutDescription)" }
        return transcript
    }

    private var lastReadWasEnd = false
    private var timeoutDescription: String {
        var timeout = timeval()
        var size = socklen_t(MemoryLayout<timeval>.size)
        getsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, &size)
        return "\(timeout.tv_sec) s"
    }

    /// A client frame: FIN set, masked with a random key (RFC 6455 §5.3).
    private func frame(opcode: UInt8, _ payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [0x80 | opcode]
        switch payload.count {
        case ..<126: bytes.append(0x80 | UInt8(payload.count))
        case ..<65_536: bytes += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: bytes.append(0x80 | 127); bytes += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        bytes += mask
        bytes += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        return bytes
    }

    private func write(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    /// Reads more bytes into the buffer; false at the end of the connection, an error or the timeout.
    private mutating func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n > 0 { buffer += chunk[0..<n]; return true }
            lastReadWasEnd = n == 0
            return false
        }
    }

    private mutating func take(_ count: Int) -> [UInt8]? {
        while buffer.count < count { guard fill() else { return nil } }
        defer { buffer.removeFirst(count) }
        return Array(buffer[0..<count])
    }

    private mutating func readHead() -> String? {
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            if let range = buffer.firstRange(of: end) {
                let head = String(decoding: buffer[..<range.lowerBound], as: UTF8.self)
                buffer.removeFirst(range.upperBound)
                return head
            }
            guard fill() else { return nil }
        }
    }

    /// One server frame (servers never mask); nil when the connection ended.
    private mutating func readFrame() -> (fin: Bool, opcode: UInt8, payload: [UInt8])? {
        guard let head = take(2) else { return nil }
        var length = Int(head[1] & 0x7F)
        if length == 126 {
            guard let more = take(2) else { return nil }
            length = Int(more[0]) << 8 | Int(more[1])
        } else if length == 127 {
            guard let more = take(8) else { return nil }
            length = more.reduce(0) { $0 << 8 | Int($1) }
        }
        guard let payload = take(length) else { return nil }
        return (head[0] & 0x80 != 0, head[0] & 0x0F, payload)
    }
}
