import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One parsed HTTP/1.1 request.
public struct HTTPRequestRecord: Sendable {
    public var method: String
    /// The path without the query.
    public var path: String
    public var query: [String: String]
    /// Header names lowercased.
    public var headers: [String: String]
    public var body: Data
}

/// What a handler wants done with a request.
public enum HTTPServerAction: Sendable {
    case respond(status: Int, headers: [String: String], body: Data)
    /// Close the connection without a byte of reply, as a crashed proxy would.
    case drop
}

/// A small HTTP/1.1 server on POSIX sockets, bound to 127.0.0.1 on a port the kernel picks. One thread
/// per connection, so slow replies do not hold up others; one request per connection (`Connection: close`),
/// which keeps "drop the connection" unambiguous. A class because it owns sockets and threads.
public final class LoopbackHTTPServer: @unchecked Sendable {
    public typealias Handler = @Sendable (HTTPRequestRecord) -> HTTPServerAction

    public let port: Int
    private let listener: Int32
    private let handler: Handler
    private let lock = NSLock()
    private var open: Set<Int32> = []
    private var stopped = false
    /// Largest request body accepted; larger ones get 413, as real services do.
    public static let maxBody = 64 << 20

    public init(handler: @escaping Handler) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError("socket() failed: errno \(errno)") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 256) == 0 else {
            close(fd)
            throw ServerError("bind/listen on 127.0.0.1 failed: errno \(errno)")
        }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        port = Int(UInt16(bigEndian: addr.sin_port))
        listener = fd
        self.handler = handler
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "LoopbackHTTPServer.accept"
        thread.start()
    }

    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Closes the listener and every open connection; idempotent. Call it (`defer { server.stop() }`):
    /// the accept thread keeps the server alive until then.
    public func stop() {
        let fds: Set<Int32>? = lock.withLock {
            if stopped { return nil }
            stopped = true
            return open
        }
        guard let fds else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for fd in fds { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop() {
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                return  // listener closed
            }
            let accepted = lock.withLock { () -> Bool in
                if stopped { return false }
                open.insert(fd)
                return true
            }
            guard accepted else { close(fd); return }
            let thread = Thread { [self] in
                serve(fd)
                lock.withLock { _ = open.remove(fd) }
                close(fd)
            }
            thread.start()
        }
    }

    private func serve(_ fd: Int32) {
        guard let request = readRequest(fd) else { return }
        switch request {
        case .failure(let status):
            write(fd, status: status.status, headers: ["Content-Type": "application/json"], body: Data(#"{"error":{"message":"bad request"}}"#.utf8))
        case .success(let record):
            switch handler(record) {
            case .drop: return
            case .respond(let status, let headers, let body): write(fd, status: status, headers: headers, body: body)
            }
        }
    }

    // MARK: Wire format

    private func readRequest(_ fd: Int32) -> Result<HTTPRequestRecord, StatusError>? {
        var buffer = Data()
        var headerEnd: Range<Data.Index>?
        while headerEnd == nil {
            guard let chunk = receive(fd) else { return nil }
            buffer.append(chunk)
            headerEnd = buffer.range(of: Data("\r\n\r\n".utf8))
            if headerEnd == nil && buffer.count > 64 << 10 { return .failure(StatusError(431)) }
        }
        let head = String(decoding: buffer[..<headerEnd!.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return .failure(StatusError(400)) }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(buffer[headerEnd!.upperBound...])
        if headers["expect"]?.lowercased() == "100-continue" {
            sendAll(fd, Data("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
        if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            guard let decoded = readChunked(fd, initial: body) else { return nil }
            body = decoded
        } else {
            let length = Int(headers["content-length"] ?? "0") ?? -1
            guard length >= 0 else { return .failure(StatusError(400)) }
            guard length <= Self.maxBody else { return .failure(StatusError(413)) }
            while body.count < length {
                guard let chunk = receive(fd) else { return nil }
                body.append(chunk)
            }
            body = body.prefix(length)
        }
        let target = String(requestLine[1])
        var path = target
        var query: [String: String] = [:]
        if let q = target.firstIndex(of: "?") {
            path = String(target[..<q])
            for pair in target[target.index(after: q)...].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
                query[kv[0]] = kv.count > 1 ? kv[1] : ""
            }
        }
        return .success(HTTPRequestRecord(method: String(requestLine[0]), path: path, query: query, headers: headers, body: body))
    }

    private func readChunked(_ fd: Int32, initial: Data) -> Data? {
        var raw = initial
        var out = Data()
        var cursor = raw.startIndex
        while true {
            while raw[cursor...].range(of: Data("\r\n".utf8)) == nil {
                guard let more = receive(fd) else { return nil }
                raw.append(more)
            }
            let lineEnd = raw[cursor...].range(of: Data("\r\n".utf8))!
            let sizeText = String(decoding: raw[cursor..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { return nil }
            cursor = lineEnd.upperBound
            while raw.endIndex - cursor < size + 2 {
                guard let more = receive(fd) else { return nil }
                raw.append(more)
            }
            if size == 0 { return out }
            out.append(raw[cursor..<(cursor + size)])
            cursor += size + 2
            if out.count > Self.maxBody { return nil }
        }
    }

    private func receive(_ fd: Int32) -> Data? {
        var bytes = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = recv(fd, &bytes, bytes.count, 0)
            if n > 0 { return Data(bytes[0..<n]) }
            if n < 0 && errno == EINTR { continue }
            return nil
        }
    }

    private func write(_ fd: Int32, status: Int, headers: [String: String], body: Data) {
        var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for (k, v) in headers { head += "\(k): \(v)\r\n" }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        sendAll(fd, Data(head.utf8) + body)
    }

    /// MSG_NOSIGNAL: a client that gave up (timeout) must not kill the test process with SIGPIPE.
    private func sendAll(_ fd: Int32, _ data: Data) {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                offset += n
            }
        }
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 413: "Payload Too Large"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }

    struct StatusError: Error {
        var status: Int
        init(_ status: Int) { self.status = status }
    }
}

public struct ServerError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
