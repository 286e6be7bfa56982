// A shared library on PostgreSQL: scan workers and reviewers at once.
//
//   eval "$(scripts/postgres-server.sh start)"      # or point SHELFSCAN_TEST_POSTGRES_URL + PGPASSWORD at a server
//   swift build -c release && .build/release/bench-postgres [--photos 60] [--pending 10000] [--decisions 300] [--reviewers 3]
//   scripts/postgres-server.sh stop "$SHELFSCAN_TEST_POSTGRES_DIR"
//
// 1. Workers: a folder of N distinct photos (samples/ with a unique trailer each) scanned by one
//    `shelfscan scan --reader none` process, then by two processes at once on the same folder, each into a
//    fresh database. Prints photos per second and the ratio, and checks every photo was filed exactly once.
// 2. Review: 10,000 pending Works, three reviewers on their own connections claiming the next Work
//    (`claimNextPending`, FOR UPDATE SKIP LOCKED) and verifying it. Prints next-item latency p50/p99 and the
//    decisions per second over the whole review.
import Foundation
import ShelfScanTestSupport
import Library
import LibraryCore
import LibraryPostgres
import BookModel

func argument(_ name: String) -> String? {
    let args = CommandLine.arguments
    guard let i = args.firstIndex(of: name), i + 1 < args.count else { return nil }
    return args[i + 1]
}

let env = ProcessInfo.processInfo.environment
guard let server = env["SHELFSCAN_TEST_POSTGRES_URL"], !server.isEmpty else {
    print("bench-postgres: set SHELFSCAN_TEST_POSTGRES_URL and PGPASSWORD (eval \"$(scripts/postgres-server.sh start)\").")
    exit(2)
}
let password = env["PGPASSWORD"]
let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
let shelfscan = here.appendingPathComponent("shelfscan").path
let photoCount = Int(argument("--photos") ?? "60") ?? 60
let pendingCount = Int(argument("--pending") ?? "10000") ?? 10000
let decisionsPerReviewer = Int(argument("--decisions") ?? "300") ?? 300
/// Reviewers at once. Before the library was async each reviewer task held one of Swift's cooperative threads for
/// the whole of every call, so on a 2-core machine only two ran at once whatever this said: `--reviewers 2`
/// compares with those figures like for like.
let reviewerCount = max(1, Int(argument("--reviewers") ?? "3") ?? 3)
func freshDatabase() async throws -> String {
    let name = "bench_\(UUID().uuidString.prefix(8).lowercased())"
    return try await PostgresLibraryStore.createDatabase(named: name, besides: server, password: password)
}

// MARK: 1. Workers

func makeFolder() throws -> String {
    let samples = DistinctPhotos.samples()
    guard !samples.isEmpty else { print("bench-postgres: no samples/*.jpg; run from the repository root."); exit(2) }
    return try DistinctPhotos.folder(from: samples, count: photoCount, tag: "bench-postgres")
}

func scan(folder: String, workers: Int) async throws -> (seconds: Double, photos: Int, works: Int) {
    let url = try await freshDatabase()
    _ = try await PostgresLibraryStore(url: url, password: password)   // migrated before the clock starts
    let start = DispatchTime.now()
    let processes = try (0..<workers).map { _ -> Process in
        let p = Process()
        p.executableURL = URL(fileURLWithPath: shelfscan)
        p.arguments = ["scan", folder, "--reader", "none", "--jobs", "1", "--library", url, "--quiet"]
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        return p
    }
    for p in processes { p.waitUntilExit() }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    for p in processes where p.terminationStatus != 0 { print("bench-postgres: a worker exited with \(p.terminationStatus)") }
    let stats = try await PostgresLibraryStore(url: url, password: password).stats()
    return (seconds, stats.photos, stats.works)
}

guard FileManager.default.isExecutableFile(atPath: shelfscan) else {
    print("bench-postgres: \(shelfscan) is missing; run `swift build -c release` first.")
    exit(2)
}
let folder = try makeFolder()
defer { try? FileManager.default.removeItem(atPath: folder) }
print("workers: \(photoCount) photos, shelfscan scan --reader none --jobs 1 per worker, PostgreSQL library")
var rates: [Int: Double] = [:]
for workers in [1, 2] {
    let run = try await scan(folder: folder, workers: workers)
    rates[workers] = Double(photoCount) / run.seconds
    print(String(format: "  %d worker(s): %.2f s, %.2f photos/s, %d photos filed (%@), %d works",
                 workers, run.seconds, rates[workers]!, run.photos, run.photos == photoCount ? "each once" : "WRONG", run.works))
}
print(String(format: "  2 vs 1 workers: %.2fx", rates[2]! / rates[1]!))

// MARK: 2. Review latency

let reviewURL = try await freshDatabase()
let filer = try await PostgresLibraryStore(url: reviewURL, password: password)
let perPhoto = 100
for p in 0..<(pendingCount / perPhoto) {
    let spines = (0..<perPhoto).map { i in
        SpineFiling(title: "Book \(p)-\(i)", authors: ["Author \(i % 50)"], boundingBox: BoundingBox(x: Double(i) / 100, y: 0.1, width: 0.009, height: 0.8),
                    row: 0, position: i, detectionConfidence: 0.9, readingConfidence: 0.8, cropJPEG: [0xFF, 0xD8, UInt8(i), 0xFF, 0xD9])
    }
    try await filer.file(PhotoFiling(contentHash: String(format: "%064x", p), originalImagePath: "/p/\(p).jpg", imageWidth: 4000,
                                     imageHeight: 3000, spines: spines), replacePending: false, date: Date())
}
print("review: \(try await filer.pendingCount()) pending, \(reviewerCount) reviewers each claiming and verifying \(decisionsPerReviewer) Works")
let reviewStart = DispatchTime.now()
let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
    for name in (0..<reviewerCount).map({ "reviewer\($0 + 1)" }) {
        group.addTask {
            let store = try await PostgresLibraryStore(url: reviewURL, password: password)
            var times: [Double] = []
            for _ in 0..<decisionsPerReviewer {
                let t0 = DispatchTime.now()
                guard let item = try await store.claimNextPending(reviewer: name, lease: 60) else { break }
                times.append(Double(DispatchTime.now().uptimeNanoseconds - t0.uptimeNanoseconds) / 1e6)
                _ = try await store.review(ReviewDecision(workID: item.work.id!, action: .verify, expectedRevision: item.work.revision, session: name),
                                           defaults: ReviewDefaults(), date: Date())
            }
            return times
        }
    }
    var all: [Double] = []
    for try await t in group { all += t }
    return all.sorted()
}
let reviewSeconds = Double(DispatchTime.now().uptimeNanoseconds - reviewStart.uptimeNanoseconds) / 1e9
let decided = try await filer.stats()
func percentile(_ p: Double) -> Double { latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] }
print(String(format: "  next-item latency over %d claims: p50 %.1f ms, p99 %.1f ms (goal p99 <= 50 ms)", latencies.count, percentile(0.5), percentile(0.99)))
print("  decided \(decided.verified) (journal \(decided.decisions)), \(decided.pending) still pending")
print(String(format: "  review phase: %.2f s, %.1f decisions/s", reviewSeconds, Double(latencies.count) / reviewSeconds))
