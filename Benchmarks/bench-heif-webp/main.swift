// bench-heif-webp: decode time of a 12 MP HEIC and WebP through ShelfImage, at full size and at the
// reduced size the detector asks for (1/4), next to the reference tools on the same files.
//
//   swift run -c release bench-heif-webp [PHOTO.jpg|png]
//
// Without PHOTO it draws a 4000x3000 shelf-like photo (spines of random colour, title dashes, boards,
// sensor noise) and encodes it with the Debian tools, at phone-like settings: `heif-enc -q 50` (x265,
// 4:2:0, one coded image) and `cwebp -q 80`. Figures are CPU milliseconds, median of RUNS (3) runs after
// one warm-up; wall time in brackets. The tools' figures include process start-up and file I/O:
//   heif-convert x.heic out.y4m   decodes and writes raw YCbCr, so it skips the RGB conversion we do;
//   dwebp x.webp -ppm -o out      decodes to RGB and writes it; with -resize it uses the same scaler.
import Foundation
import ShelfImage

let runs = 3

struct Sample { var wall: Double; var cpu: Double }

func processCPU() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1e6
}

func childrenCPU() -> Double {
    var ru = rusage()
    getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &ru)
    func ms(_ t: timeval) -> Double { Double(t.tv_sec) * 1000 + Double(t.tv_usec) / 1000 }
    return ms(ru.ru_utime) + ms(ru.ru_stime)
}

func wallMillis(_ body: () throws -> Void) rethrows -> Double {
    let d = try ContinuousClock().measure(body)
    return Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
}

func tool(_ name: String) -> String? {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
        let p = "\(dir)/\(name)"
        if FileManager.default.isExecutableFile(atPath: p) { return p }
    }
    return nil
}

/// Runs a tool to completion; returns its CPU and wall time, or throws when it fails.
@discardableResult
func run(_ path: String, _ args: [String]) throws -> Sample {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = args
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    let cpu0 = childrenCPU()
    let wall = try wallMillis {
        try p.run()
        p.waitUntilExit()
    }
    guard p.terminationStatus == 0 else {
        throw NSError(domain: "bench", code: Int(p.terminationStatus),
                      userInfo: [NSLocalizedDescriptionKey: "\(path) \(args.joined(separator: " ")) failed"])
    }
    return Sample(wall: wall, cpu: childrenCPU() - cpu0)
}

func ours(_ body: () throws -> Void) rethrows -> Sample {
    let cpu0 = processCPU()
    let wall = try wallMillis(body)
    return Sample(wall: wall, cpu: processCPU() - cpu0)
}

/// A deterministic shelf-like photo: texture everywhere so the entropy decoders work as on a real one.
func drawShelf(width: Int, height: Int) -> RGBImage {
    var seed: UInt64 = 0xB00C
    func next() -> Int { seed = seed &* 2_862_933_555_777_941_757 &+ 3_037_000_493; return Int(seed >> 40) }
    var edges: [(x: Int, colour: (Int, Int, Int))] = []
    var x = 0
    while x < width { edges.append((x, (next() % 190 + 40, next() % 190 + 40, next() % 190 + 40))); x += 35 + next() % 150 }
    let row = height / 3
    var px = [UInt8](repeating: 0, count: width * height * 3)
    px.withUnsafeMutableBufferPointer { p in
        for y in 0..<height {
            var e = 0
            let board = y % row > row - 100
            for x in 0..<width {
                while e + 1 < edges.count && edges[e + 1].x <= x { e += 1 }
                var (r, g, b) = board ? (140, 100, 60) : edges[e].colour
                let dx = (x - edges[e].x) % 89
                if !board && dx > 28 && dx < 36 && (y / 19) % 3 != 0 { (r, g, b) = (r / 3, g / 3, b / 3) }
                let n = next() % 21 - 10
                let o = (y * width + x) * 3
                p[o] = UInt8(clamping: r + n); p[o + 1] = UInt8(clamping: g + n); p[o + 2] = UInt8(clamping: b + n)
            }
        }
    }
    return RGBImage(width: width, height: height, pixels: px)
}

// MARK: - Main

guard let heifEnc = tool("heif-enc"), let heifConvert = tool("heif-convert"), let cwebp = tool("cwebp"),
      let dwebp = tool("dwebp") else {
    print("bench-heif-webp: needs heif-enc, heif-convert (libheif-examples) and cwebp, dwebp (webp); run scripts/setup.sh")
    exit(1)
}
let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bench-heif-webp-\(getpid())")
try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: dir) }
let source: String
if CommandLine.arguments.count > 1 {
    source = CommandLine.arguments[1]
} else {
    source = dir.appendingPathComponent("shelf-4000x3000.png").path
    let bytes = try drawShelf(width: 4000, height: 3000).pngData()
    guard FileManager.default.createFile(atPath: source, contents: Data(bytes)) else { fatalError("cannot write \(source)") }
}
let heic = dir.appendingPathComponent("shelf.heic").path, webp = dir.appendingPathComponent("shelf.webp").path
let encodeHEIC = try run(heifEnc, ["-q", "50", source, "-o", heic])
let encodeWebP = try run(cwebp, ["-q", "80", source, "-o", webp])
func kib(_ path: String) -> Int { ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) / 1024 }
let info = try ImageDecoder.info(fileAt: heic)
print("photo: \(source) -> \(info.width)x\(info.height); HEIC \(kib(heic)) KiB (heif-enc -q 50, \(Int(encodeHEIC.wall)) ms), "
      + "WebP \(kib(webp)) KiB (cwebp -q 80, \(Int(encodeWebP.wall)) ms)")

let heicBytes = try FileBytes.contents(of: heic), webpBytes = try FileBytes.contents(of: webp)
let qw = (info.width + 3) / 4, qh = (info.height + 3) / 4
let y4m = dir.appendingPathComponent("out.y4m").path, ppm = dir.appendingPathComponent("out.ppm").path
let cases: [(String, () throws -> Sample)] = [
    ("ShelfImage HEIC full", { try ours { _ = try ImageDecoder.decode(heicBytes) } }),
    ("ShelfImage HEIC 1/4", { try ours { _ = try ImageDecoder.decode(heicBytes, options: DecodeOptions(scaleDenominator: 4)) } }),
    ("heif-convert -> y4m", { try run(heifConvert, [heic, y4m]) }),
    ("ShelfImage WebP full", { try ours { _ = try ImageDecoder.decode(webpBytes) } }),
    ("ShelfImage WebP 1/4", { try ours { _ = try ImageDecoder.decode(webpBytes, options: DecodeOptions(scaleDenominator: 4)) } }),
    ("dwebp -ppm", { try run(dwebp, [webp, "-ppm", "-o", ppm]) }),
    ("dwebp -ppm -resize 1/4", { try run(dwebp, [webp, "-ppm", "-resize", "\(qw)", "\(qh)", "-o", ppm]) }),
]
var samples: [String: [Sample]] = [:]
for round in 0...runs {
    for (name, body) in cases {
        let s = try body()
        if round > 0 { samples[name, default: []].append(s) }
    }
}
func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }
print("medians of \(runs) runs: CPU ms [wall ms]")
for (name, _) in cases {
    let s = samples[name]!
    print(name.padding(toLength: 26, withPad: " ", startingAt: 0)
          + String(format: "%8.1f  [%7.1f]", median(s.map(\.cpu)), median(s.map(\.wall))))
}
// The HEIC thumbnail path, when a file has one at least as large as the 1/4 target (phones store 320 px:
// never large enough for the detector's 1280 px, so 1/4 above is a full decode and an area average).
let thumbHEIC = dir.appendingPathComponent("thumb.heic").path
try run(heifEnc, ["-q", "50", "-t", "\(max(qw, qh))", source, "-o", thumbHEIC])
let thumbBytes = try FileBytes.contents(of: thumbHEIC)
_ = try ImageDecoder.decode(thumbBytes, options: DecodeOptions(scaleDenominator: 4))
let thumb = (1...runs).map { _ in try! ours { _ = try ImageDecoder.decode(thumbBytes, options: DecodeOptions(scaleDenominator: 4)) } }
print("ShelfImage HEIC 1/4 from a \(max(qw, qh)) px thumbnail: " + String(format: "%.1f ms CPU [%.1f]", median(thumb.map(\.cpu)), median(thumb.map(\.wall))))
