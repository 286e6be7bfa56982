import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import ShelfImage
import ShelfScanServer
import ShelfScanTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The real `shelfscan serve` as a subprocess on 127.0.0.1, port 0 (the port is read from its first line),
/// with its own library in a scratch folder. Tests talk to it over real sockets only.
final class ServerProcess: @unchecked Sendable {
    let process: Process
    let port: Int
    let library: String
    /// The server token it was started with (nil: none).
    let token: String?
    private let lines: LineCollector

    var base: String { "http://127.0.0.1:\(port)" }
    var log: [String] { lines.snapshot() }

    /// Starts the server and waits until it listens. `extra` are more `serve` flags; `environment` adds variables.
    /// Unless `environment` says otherwise the server has a server token of its own, which `Client` sends, so a
    /// test reaches every job as the library's owner does; `SHELFSCAN_SERVER_TOKEN: ""` starts one without.
    static func start(library: String? = nil, _ extra: [String] = [], environment: [String: String] = [:]) throws -> ServerProcess {
        let library = try library ?? ShelfscanProcess.temporaryDirectory("serve").appendingPathComponent("library.sqlite").path
        var env = environment
        if env["SHELFSCAN_SERVER_TOKEN"] == nil { env["SHELFSCAN_SERVER_TOKEN"] = "harness-\(UUID().uuidString)" }
        let token = env["SHELFSCAN_SERVER_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        let (process, stderr) = try ShelfscanProcess.start(
            ["serve", "--host", "127.0.0.1", "--port", "0", "--reader", "none", "--library", library] + extra, environment: env)
        let lines = LineCollector(stderr)
        // Woken by each line and by the end of its output (a server that could not start); the deadline only
        // ends a wait for a server that hangs before listening. The port is the digits right after the address:
        // without a server token the line goes on to say so.
        let address = "listening on http://127.0.0.1:"
        if let line = lines.wait(deadline: Date().addingTimeInterval(60), until: { $0.contains { $0.contains(address) } })
            .first(where: { $0.contains(address) }),
           let at = line.range(of: address), let port = Int(line[at.upperBound...].prefix { $0.isNumber }) {
            return ServerProcess(process: process, port: port, library: library, token: token, lines: lines)
        }
        process.terminate()
        throw HarnessError("shelfscan serve did not start: \(lines.snapshot().joined(separator: "\n"))")
    }

    private init(process: Process, port: Int, library: String, token: String?, lines: LineCollector) {
        self.process = process; self.port = port; self.library = library; self.token = token; self.lines = lines
    }

    /// The log once `count` of its lines satisfy `matching`: the server writes a request's line after answering it,
    /// so a test that just got its answer may be ahead of the line. Waits for the line itself, not for a time;
    /// the deadline only ends a wait for a line that never comes.
    func log(atLeast count: Int, matching: @escaping (String) -> Bool) -> [String] {
        lines.wait(deadline: Date().addingTimeInterval(60)) { $0.filter(matching).count >= count }
    }

    /// SIGTERM, then wait.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    /// SIGKILL: no shutdown code runs, as in a crash or a power cut of the process.
    func kill9() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Reads a child's stderr on its own thread, keeping every line.
final class LineCollector: @unchecked Sendable {
    private let lock = NSCondition()
    private var lines: [String] = []
    private var partial = Data()
    /// The child closed its end: no line will come.
    private var ended = false

    init(_ handle: FileHandle) {
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 16_384)
            let fd = handle.fileDescriptor
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return self.end() }
                self.append(buffer[0..<n])
            }
        }
        thread.start()
    }

    private func append(_ bytes: ArraySlice<UInt8>) {
        lock.lock(); defer { lock.unlock() }
        partial.append(contentsOf: bytes)
        while let newline = partial.firstIndex(of: 0x0A) {
            lines.append(String(decoding: partial[partial.startIndex..<newline], as: UTF8.self))
            partial = Data(partial[(newline + 1)...])
        }
        lock.broadcast()
    }

    private func end() {
        lock.lock(); defer { lock.unlock() }
        ended = true
        lock.broadcast()
    }

    /// The lines once `ready` says so of them, or as they are when the child's output ends or at `deadline`.
    func wait(deadline: Date, until ready: ([String]) -> Bool) -> [String] {
        lock.lock(); defer { lock.unlock() }
        while !ready(lines), !ended, lock.wait(until: deadline) {}
        return lines
    }

    func snapshot() -> [String] {
        lock.lock(); defer { lock.unlock() }
        return lines
    }
}

/// A response read whole: status, headers, body, and the body as JSON.
struct Reply: Sendable {
    var status: Int
    var headers: [(String, String)]
    var body: Data

    func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    var data: [String: Any] { json["data"] as? [String: Any] ?? [:] }
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// An HTTP client for the tests (AsyncHTTPClient over real sockets). It sends the server's token on every
/// request that does not carry an `Authorization` of its own, unless made with `serverToken: false`.
struct Client: Sendable {
    let http: HTTPClient
    let base: String
    let token: String?

    init(_ server: ServerProcess, serverToken: Bool = true) {
        http = HTTPClient(eventLoopGroupProvider: .singleton)
        base = server.base
        token = serverToken ? server.token : nil
    }

    private func authorize(_ headers: inout HTTPHeaders) {
        if let token, !headers.contains(name: "Authorization") { headers.add(name: "Authorization", value: "Bearer \(token)") }
    }

    func shutdown() async throws { try await http.shutdown() }

    func send(_ method: String, _ path: String, headers: [(String, String)] = [], body: Data? = nil) async throws -> Reply {
        var request = HTTPClientRequest(url: base + path)
        request.method = .init(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        authorize(&request.headers)
        if let body { request.body = .bytes(ByteBuffer(bytes: [UInt8](body))) }
        let response = try await http.execute(request, timeout: .seconds(60))
        let bytes = try await response.body.collect(upTo: 64 << 20)
        return Reply(status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) }, body: Data(bytes.readableBytesView))
    }

    func get(_ path: String, headers: [(String, String)] = []) async throws -> Reply { try await send("GET", path, headers: headers) }

    func postJSON(_ path: String, _ object: [String: Any], headers: [(String, String)] = []) async throws -> Reply {
        try await send("POST", path, headers: headers + [("Content-Type", "application/json")],
                       body: try JSONSerialization.data(withJSONObject: object))
    }

    /// POSTs photos as `multipart/form-data` in fields named `photos[]`.
    func submit(_ photos: [Data], field: String = "photos[]", headers: [(String, String)] = []) async throws -> Reply {
        let (body, contentType) = Multipart.body(photos.enumerated().map { (field, "shelf-\($0.offset).jpg", $0.element) })
        return try await send("POST", RoutePath.scans, headers: headers + [("Content-Type", contentType)], body: body)
    }

    /// Reads a Server-Sent Events stream until `until` says stop (or the server ends it); returns the events.
    func events(_ path: String, headers: [(String, String)] = [], until stop: @Sendable (SSEEvent) -> Bool = { $0.name == "completed" || $0.name == "failed" }) async throws -> [SSEEvent] {
        var request = HTTPClientRequest(url: base + path)
        request.headers.add(name: "Accept", value: "text/event-stream")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        authorize(&request.headers)
        let response = try await http.execute(request, timeout: .seconds(120))
        guard response.status == .ok else { throw HarnessError("stream answered \(response.status.code)") }
        var events: [SSEEvent] = []
        var pending = ""
        for try await buffer in response.body {
            pending += String(buffer: buffer)
            while let range = pending.range(of: "\n\n") {
                let block = String(pending[..<range.lowerBound])
                pending = String(pending[range.upperBound...])
                guard let event = SSEEvent(block) else { continue }
                events.append(event)
                if stop(event) { return events }
            }
        }
        return events
    }
}

struct SSEEvent: Sendable {
    var name: String
    var id: Int?
    var data: String
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] ?? [:] }

    init?(_ block: String) {
        var name: String?, id: Int?, data = ""
        for line in block.split(separator: "\n") {
            if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
            if line.hasPrefix("id: ") { id = Int(line.dropFirst(4)) }
            if line.hasPrefix("data: ") { data += line.dropFirst(6) }
        }
        guard let name else { return nil }
        self.name = name; self.id = id; self.data = data
    }
}

enum Multipart {
    /// A `multipart/form-data` body of (field, filename, bytes) parts, and its Content-Type.
    static func body(_ parts: [(String, String, Data)], boundary: String = "shelfscan-test-\(UUID().uuidString)") -> (Data, String) {
        var body = Data()
        for (field, filename, bytes) in parts {
            body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field)\"; filename=\"\(filename)\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8))
            body.append(bytes)
            body.append(Data("\r\n".utf8))
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        return (body, "multipart/form-data; boundary=\(boundary)")
    }
}

enum Samples {
    /// The repository's `samples/` folder.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples")

    static func photo(_ name: String) throws -> Data { try Data(contentsOf: directory.appendingPathComponent(name)) }

    /// A shelf drawn in code, JPEG-encoded (distinct per seed, so each is a new photo to the library).
    static func drawn(seed: UInt64, width: Int = 640) throws -> Data {
        Data(try ShelfFixture.make(width: width, height: width * 9 / 16, spineCount: 6, seed: seed).image.jpegData(quality: 90))
    }
}
