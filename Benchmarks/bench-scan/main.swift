// Batch-scan throughput and memory, measured on the real `shelfscan` binary.
//
//   swift build -c release && swift run -c release bench-scan [--photos 100,400] [--samples DIR]
//
// Builds a folder of N distinct photos from samples/ (same pixels, distinct bytes: a unique trailer after
// the JPEG's end-of-image marker, which decoders ignore, gives each its own content hash), then runs
// `shelfscan scan FOLDER --reader none --quiet` into a fresh library with --jobs 1 and --jobs 2 and prints
// photos per second and peak resident memory (the child's ru_maxrss, from wait4).
import Foundation
import ShelfScanTestSupport
#if canImport(Glibc)
import Glibc
#endif

struct Run { var seconds: Double; var peakRSSMiB: Double; var exitStatus: Int32 }

func argument(_ name: String) -> String? {
    let args = CommandLine.arguments
    guard let i = args.firstIndex(of: name), i + 1 < args.count else { return nil }
    return args[i + 1]
}

let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
let shelfscan = here.appendingPathComponent("shelfscan").path
guard FileManager.default.isExecutableFile(atPath: shelfscan) else {
    print("bench-scan: \(shelfscan) is missing; run `swift build -c release` first.")
    exit(2)
}
let samplesDir = argument("--samples") ?? "samples"
let counts = (argument("--photos") ?? "100,400").split(separator: ",").compactMap { Int($0) }
let sampleBytes = DistinctPhotos.samples(in: samplesDir)
guard !sampleBytes.isEmpty else {
    print("bench-scan: no JPEG photos in \(samplesDir); pass --samples DIR.")
    exit(2)
}
func makeFolder(count: Int) throws -> String {
    try DistinctPhotos.folder(from: sampleBytes, count: count, tag: "bench-scan")
}

func runScan(folder: String, jobs: Int) throws -> Run {
    let library = NSTemporaryDirectory() + "bench-scan-lib-\(getpid())-\(jobs)-\(UUID().uuidString)/library.sqlite"
    defer { try? FileManager.default.removeItem(atPath: (library as NSString).deletingLastPathComponent) }
    let args = [shelfscan, "scan", folder, "--reader", "none", "--jobs", "\(jobs)", "--library", library, "--quiet"]
    var pid: pid_t = 0
    let cArgs = args.map { strdup($0) } + [nil]
    defer { cArgs.forEach { free($0) } }
    let start = DispatchTime.now()
    guard posix_spawn(&pid, shelfscan, nil, nil, cArgs, environ) == 0 else { throw CocoaError(.executableLoad) }
    var status: Int32 = 0
    var usage = rusage()
    _ = wait4(pid, &status, 0, &usage)
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    return Run(seconds: seconds, peakRSSMiB: Double(usage.ru_maxrss) / 1024, exitStatus: (status >> 8) & 0xff)
}

print("bench-scan: \(sampleBytes.count) sample photos from \(samplesDir), shelfscan at \(shelfscan)")
print("photos  jobs  seconds  photos/s  peak RSS (MiB)  exit")
for count in counts {
    let folder = try makeFolder(count: count)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var rates: [Int: Double] = [:]
    for jobs in [1, 2] {
        let run = try runScan(folder: folder, jobs: jobs)
        let rate = Double(count) / run.seconds
        rates[jobs] = rate
        print(String(format: "%6d  %4d  %7.2f  %8.2f  %14.1f  %4d", count, jobs, run.seconds, rate, run.peakRSSMiB, run.exitStatus))
    }
    if let one = rates[1], let two = rates[2] {
        print(String(format: "        speed-up jobs 2 / jobs 1: %.2fx (target >= 1.7x)", two / one))
    }
}
