// bench-serve: the HTTP service under load, in a release build.
//
//   swift build -c release --product bench-serve && .build/release/bench-serve [--reader none|tesseract|ppocr]
//       [--connections 200] [--seconds 30] [--routes both|status|results] [--jobs 20] [--concurrent-jobs N] 2>/dev/null
//
// The server logs one line per request on stderr (hence 2>/dev/null). It runs in this process, so the memory
// figure is the server's plus a small client's; `shelfscan` itself starts with MALLOC_ARENA_MAX=2 and
// OMP_THREAD_LIMIT=1 (see Sources/shelfscan/main.swift), and so should this program to be comparable:
//   MALLOC_ARENA_MAX=2 OMP_THREAD_LIMIT=1 .build/release/bench-serve --reader ppocr 2>/dev/null
//
// 1. Starts `ShelfScanServer` in this process (127.0.0.1, a free port, a fresh library in a temp folder, no rate
//    limit) and scans one sample so a finished job exists.
// 2. Runs `wrk` (Debian's package: apt-get install wrk) with N connections for S seconds against that job's
//    status and results routes (alternating), and prints requests/s, p50/p99 latency and errors
//    (socket errors + non-2xx). Goal: 0 errors, p99 <= 50 ms on 2 cores.
// 3. Submits J scan jobs at once (one sample photo each, all different), waits for all, and prints how many
//    completed, the time, and this process's peak RSS (VmHWM, which includes the server). Goal: all complete,
//    peak RSS <= 500 MB.
import AsyncHTTPClient
import Foundation
import Library
import LibraryCore
import NIOCore
import ShelfScan
import ShelfScanServer

struct Options {
    var reader = "none"
    var connections = 200
    var seconds = 30
    var jobs = 20
    var concurrentJobs = ServerConfiguration().concurrentJobs
    /// `status`, `results` or `both` (alternating): which routes wrk loads.
    var routes = "both"

    init(_ arguments: [String]) {
        var i = 1
        while i < arguments.count {
            let value = i + 1 < arguments.count ? arguments[i + 1] : ""
            switch arguments[i] {
            case "--reader": reader = value
            case "--connections": connections = Int(value) ?? connections
            case "--seconds": seconds = Int(value) ?? seconds
            case "--jobs": jobs = Int(value) ?? jobs
            case "--concurrent-jobs": concurrentJobs = Int(value) ?? concurrentJobs
            case "--routes": routes = value
            default: print("unknown option \(arguments[i])"); exit(2)
            }
            i += 2
        }
    }
}

let options = Options(CommandLine.arguments)
let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("samples")
let photos = try FileManager.default.contentsOfDirectory(atPath: samples.path).filter { $0.hasSuffix(".jpg") }.sorted()
guard !photos.isEmpty else { print("no samples/*.jpg"); exit(1) }

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-serve-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

let choice: ReaderChoice = switch options.reader {
case "tesseract": .tesseract(language: "eng")
case "ppocr": .ppocr(modelsDirectory: nil)
default: .none
}
var opened = try PhotoScanner.open(configuration: ScanConfiguration(), reader: choice, catalogPath: nil)
opened.library = try LibraryStore(path: folder.appendingPathComponent("library.sqlite").path)
let scanner = opened
var configuration = ServerConfiguration()
configuration.port = 0
configuration.submissionsPerMinute = 0
configuration.maxPhotos = 5
configuration.concurrentJobs = options.concurrentJobs

actor Port {
    var value: Int?
    func set(_ port: Int) { value = port }
}
let port = Port()
let server = Task {
    try await ShelfScanServer(configuration: configuration, scanner: scanner).run { await port.set($0) }
}
var bound: Int?
for _ in 0..<600 where bound == nil {
    try await Task.sleep(for: .milliseconds(50))
    bound = await port.value
}
guard let bound else { print("server did not start"); exit(1) }
let base = "http://127.0.0.1:\(bound)"
let http = HTTPClient(eventLoopGroupProvider: .singleton)

/// Job tokens by job ID: a job's routes want its token, as BooksTrack's clients send it. Jobs are submitted
/// concurrently, hence the lock.
final class Tokens: @unchecked Sendable {
    private let lock = NSLock()
    private var byJob: [String: String] = [:]
    subscript(id: String) -> String? {
        get { lock.withLock { byJob[id] } }
        set { lock.withLock { byJob[id] = newValue } }
    }
}
let tokens = Tokens()

func submit(_ photo: String) async throws -> String {
    let boundary = "bench-\(UUID().uuidString)"
    var body = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"photos[]\"; filename=\"\(photo)\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
    body.append(try Data(contentsOf: samples.appendingPathComponent(photo)))
    body.append(Data("\r\n--\(boundary)--\r\n".utf8))
    var request = HTTPClientRequest(url: base + RoutePath.scans)
    request.method = .POST
    request.headers.add(name: "Content-Type", value: "multipart/form-data; boundary=\(boundary)")
    request.body = .bytes(ByteBuffer(bytes: [UInt8](body)))
    let response = try await http.execute(request, timeout: .seconds(60))
    let bytes = try await response.body.collect(upTo: 1 << 20)
    guard response.status == .accepted,
          let object = try JSONSerialization.jsonObject(with: Data(bytes.readableBytesView)) as? [String: Any],
          let id = (object["data"] as? [String: Any])?["jobId"] as? String,
          let token = (object["data"] as? [String: Any])?["token"] as? String else {
        throw NSError(domain: "bench-serve", code: Int(response.status.code), userInfo: [NSLocalizedDescriptionKey: String(buffer: bytes)])
    }
    tokens[id] = token
    return id
}

func status(_ id: String) async throws -> String {
    var request = HTTPClientRequest(url: base + RoutePath.scan(id))
    request.headers.add(name: "Authorization", value: "Bearer \(tokens[id] ?? "")")
    let response = try await http.execute(request, timeout: .seconds(60))
    let bytes = try await response.body.collect(upTo: 1 << 20)
    let object = try JSONSerialization.jsonObject(with: Data(bytes.readableBytesView)) as? [String: Any]
    return (object?["data"] as? [String: Any])?["status"] as? String ?? "?"
}

func waitAll(_ ids: [String]) async throws -> [String: String] {
    var final: [String: String] = [:]
    while final.count < ids.count {
        for id in ids where final[id] == nil {
            let s = try await status(id)
            if ["completed", "failed", "canceled"].contains(s) { final[id] = s }
        }
        try await Task.sleep(for: .milliseconds(200))
    }
    return final
}

func peakRSSMegabytes() -> Double {
    let text = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = text.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return (Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
}

// 1. One finished job to read.
let warm = try await submit(photos[0])
_ = try await waitAll([warm])
print(String(format: "peak RSS after the first scan: %.0f MB", peakRSSMegabytes()))
print("server: 127.0.0.1:\(bound), reader \(options.reader), \(options.concurrentJobs) concurrent jobs, \(ProcessInfo.processInfo.activeProcessorCount) cores")

// 2. wrk on status and results.
let loaded = switch options.routes {
case "status": [RoutePath.scan(warm), RoutePath.scan(warm)]
case "results": [RoutePath.scanResults(warm), RoutePath.scanResults(warm)]
default: [RoutePath.scan(warm), RoutePath.scanResults(warm)]
}
let script = folder.appendingPathComponent("alternate.lua")
try """
local paths = {\(loaded.map { "\"\($0)\"" }.joined(separator: ", "))}
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", paths[(i % 2) + 1], {["Authorization"] = "Bearer \(tokens[warm] ?? "")"})
end
""".write(to: script, atomically: true, encoding: .utf8)
let wrk = Process()
wrk.executableURL = URL(fileURLWithPath: "/usr/bin/wrk")
wrk.arguments = ["-t2", "-c\(options.connections)", "-d\(options.seconds)s", "--latency", "--timeout", "10s", "-s", script.path, base]
let pipe = Pipe()
wrk.standardOutput = pipe
do { try wrk.run() } catch { print("wrk not found: apt-get install wrk"); exit(1) }
let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
wrk.waitUntilExit()
func field(_ prefix: String) -> String {
    output.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(prefix) }
        .map { $0.trimmingCharacters(in: .whitespaces) } ?? "\(prefix) (none)"
}
print("load: \(options.connections) connections, \(options.seconds) s, routes: \(options.routes) (wrk)")
print("  \(field("Requests/sec:"))")
print("  latency \(field("50%")), \(field("99%"))")
let total = output.split(separator: "\n").first { $0.contains("requests in") }.map { $0.trimmingCharacters(in: .whitespaces) } ?? "?"
print("  \(total); errors: \(field("Socket errors:")); \(field("Non-2xx"))")

print(String(format: "peak RSS after the load: %.0f MB", peakRSSMegabytes()))

// 3. J scan jobs at once.
let clock = ContinuousClock()
let start = clock.now
let ids = try await withThrowingTaskGroup(of: String.self) { group in
    for j in 0..<options.jobs { group.addTask { try await submit(photos[j % photos.count]) } }
    var ids: [String] = []
    for try await id in group { ids.append(id) }
    return ids
}
let final = try await waitAll(ids)
let elapsed = clock.now - start
let completed = final.values.filter { $0 == "completed" }.count
print("jobs: \(options.jobs) submitted at once, \(completed) completed, \(final.count - completed) not, in \(elapsed.formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 1))))")
print(String(format: "peak RSS (VmHWM, server + bench client): %.0f MB", peakRSSMegabytes()))
try await http.shutdown().get()
server.cancel()
exit(0)
