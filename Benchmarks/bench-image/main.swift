// bench-image: decode speed of ShelfImage against libjpeg-turbo's own djpeg on the same 12 MP JPEG.
//
//   swift run -c release bench-image [PHOTO.jpg]
//   swift run -c release bench-image --heif-webp [PHOTO.jpg]   (HEIC and WebP instead: see HEIFWebP.swift)
//
// Without PHOTO it synthesizes a realistic 4000x3000 shelf-like photo (coloured spines, gradients,
// strokes, sensor noise; quality 90, 4:2:0) in a temporary directory. Both sides decode with
// JDCT_ISLOW and fancy upsampling (djpeg's defaults) to 8-bit RGB; djpeg writes PPM to /dev/null and
// its figure includes process start-up and file reading, ours includes reading the file.
import Foundation
import ShelfImage

let runs = 9

func median(_ xs: [Double]) -> Double { let s = xs.sorted(); return s[s.count / 2] }

func timeMillis(_ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    let d = try clock.measure(body)
    return Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
}

/// Wall and CPU time of one run. CPU time is what the comparison uses: on a shared machine wall time
/// mostly measures the neighbours, while CPU time of a single-threaded decoder barely moves.
struct Sample { var wall: Double; var cpu: Double }

func processCPUMillis() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1e6
}

func childrenCPUMillis() -> Double {
    var ru = rusage()
    getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &ru)
    func ms(_ t: timeval) -> Double { Double(t.tv_sec) * 1000 + Double(t.tv_usec) / 1000 }
    return ms(ru.ru_utime) + ms(ru.ru_stime)
}

func measure(_ body: () throws -> Void) rethrows -> Sample {
    let cpu0 = processCPUMillis()
    let wall = try timeMillis(body)
    return Sample(wall: wall, cpu: processCPUMillis() - cpu0)
}

/// A deterministic stand-in for a phone photo of a shelf: texture everywhere, so the entropy decoder
/// works as hard as on a real photo (a flat synthetic image would flatter every decoder).
func synthesizePhoto(width: Int, height: Int) -> RGBImage {
    var px = [UInt8](repeating: 0, count: width * height * 3)
    var seed: UInt64 = 0x5EED
    func next() -> UInt64 { seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407; return seed >> 33 }
    // Spines: vertical bands of random width and colour, in three rows separated by boards.
    var bands: [(x: Int, r: Int, g: Int, b: Int)] = []
    var x = 0
    while x < width { bands.append((x, Int(next() % 200) + 30, Int(next() % 200) + 30, Int(next() % 200) + 30)); x += 40 + Int(next() % 160) }
    let rows = 3, rowHeight = height / rows
    px.withUnsafeMutableBufferPointer { p in
        var band = 0
        for y in 0..<height {
            let inRow = y % rowHeight
            let board = inRow > rowHeight - 120
            let light = 0.55 + 0.45 * Double(x: y, of: height) // top-to-bottom lighting gradient
            band = 0
            for x in 0..<width {
                while band + 1 < bands.count && bands[band + 1].x <= x { band += 1 }
                var r: Int, g: Int, b: Int
                if board {
                    (r, g, b) = (150, 110, 70)
                } else {
                    let c = bands[band]
                    (r, g, b) = (c.r, c.g, c.b)
                    // Title strokes: short dark dashes down the middle of each spine.
                    let mid = (x - c.x) % 97
                    if mid > 30 && mid < 38 && (inRow / 23) % 3 != 0 { (r, g, b) = (r / 4, g / 4, b / 4) }
                }
                let shade = light * (0.85 + 0.15 * Double(x: x % 173, of: 173))
                let n = Int(next() % 25) - 12
                let o = (y * width + x) * 3
                p[o] = UInt8(clamping: Int(Double(r) * shade) + n)
                p[o + 1] = UInt8(clamping: Int(Double(g) * shade) + n)
                p[o + 2] = UInt8(clamping: Int(Double(b) * shade) + n)
            }
        }
    }
    return RGBImage(width: width, height: height, pixels: px)
}

extension Double {
    init(x: Int, of n: Int) { self = Double(x) / Double(max(1, n)) }
}

func toolPath(_ name: String) -> String? {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
        let p = "\(dir)/\(name)"
        if FileManager.default.isExecutableFile(atPath: p) { return p }
    }
    return nil
}

/// Runs a reference tool to completion; its CPU time is read from the children's rusage.
@discardableResult
func runTool(_ path: String, _ args: [String]) throws -> Sample {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = args
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    let cpu0 = childrenCPUMillis()
    let wall = try timeMillis {
        try p.run()
        p.waitUntilExit()
    }
    guard p.terminationStatus == 0 else {
        throw NSError(domain: "bench-image", code: Int(p.terminationStatus),
                      userInfo: [NSLocalizedDescriptionKey: "\(path) \(args.joined(separator: " ")) failed"])
    }
    return Sample(wall: wall, cpu: childrenCPUMillis() - cpu0)
}

// MARK: - Main

/// One line on stderr and a non-zero exit: a benchmark given a wrong argument or an unreadable photo says so
/// and stops, without a crash report.
func fail(_ message: String, status: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data("bench-image: \(message)\n".utf8))
    exit(status)
}

if let unknown = CommandLine.arguments.dropFirst().first(where: { $0.hasPrefix("-") && $0 != "--heif-webp" }) {
    fail("unknown option \(unknown); usage: bench-image [--heif-webp] [PHOTO.jpg]", status: 2)
}
let heifWebPMode = CommandLine.arguments.dropFirst().contains("--heif-webp")
let photoArgument = CommandLine.arguments.dropFirst().first { $0 != "--heif-webp" }
let tempDir: URL?
let photo: String
if let photoArgument {
    photo = photoArgument
    tempDir = nil
} else {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bench-image-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    tempDir = dir
    photo = dir.appendingPathComponent("shelf-4000x3000.jpg").path
    let image = synthesizePhoto(width: 4000, height: 3000)
    let bytes = try image.jpegData(quality: 90)
    guard FileManager.default.createFile(atPath: photo, contents: Data(bytes)) else { fatalError("cannot write \(photo)") }
    print("synthesized \(photo) (4000x3000, quality 90, 4:2:0, \(bytes.count / 1024) KiB)")
}
defer { if let tempDir { try? FileManager.default.removeItem(at: tempDir) } }
if heifWebPMode {
    try benchHEIFWebP(source: photo)
    if let tempDir { try? FileManager.default.removeItem(at: tempDir) }
    exit(0)
}

// The photo must decode before anything is timed: a bad file is one error line, not a crash mid-run.
let info: ImageInfo
do {
    info = try ImageDecoder.info(fileAt: photo)
    _ = try ImageDecoder.decode(fileAt: photo, options: DecodeOptions(scaleDenominator: 8, applyOrientation: false))
} catch {
    fail("cannot decode \(photo): \(error)")
}
let megapixels = Double(info.width * info.height) / 1e6
print("photo: \(photo): \(info.width)x\(info.height) (\(String(format: "%.1f", megapixels)) MP), orientation \(info.orientation)")

// Orientation is off so both sides do the same work; its cost is printed separately below.
// Ours and djpeg's runs alternate, so both see the same machine load; the first round warms up.
func ours(_ scale: Int) throws -> Sample {
    try measure {
        _ = try ImageDecoder.decode(fileAt: photo, options: DecodeOptions(scaleDenominator: scale, applyOrientation: false))
    }
}
let djpeg = toolPath("djpeg")
var samples: [String: [Sample]] = [:]
for round in 0...runs {
    var r: [String: Sample] = ["full": try ours(1), "quarter": try ours(4), "eighth": try ours(8)]
    r["gray quarter"] = try measure {
        _ = try ImageDecoder.decodeGray(fileAt: photo, options: DecodeOptions(scaleDenominator: 4, applyOrientation: false))
    }
    if let djpeg {
        r["djpeg full"] = try runTool(djpeg, ["-outfile", "/dev/null", photo])
        r["djpeg quarter"] = try runTool(djpeg, ["-scale", "1/4", "-outfile", "/dev/null", photo])
    }
    if round > 0 { for (k, v) in r { samples[k, default: []].append(v) } }
}
let measured = samples
func fmt(_ v: Double) -> String { String(format: "%.1f", v) }
func cpu(_ k: String) -> Double { median(measured[k]!.map(\.cpu)) }
func wall(_ k: String) -> Double { median(measured[k]!.map(\.wall)) }
print("medians of \(runs) runs; CPU time (wall time in brackets)")
print("ShelfImage full decode:      \(fmt(cpu("full"))) ms [\(fmt(wall("full")))]  \(fmt(megapixels / cpu("full") * 1000)) MP/s")
print("ShelfImage 1/4 DCT decode:   \(fmt(cpu("quarter"))) ms [\(fmt(wall("quarter")))]")
print("ShelfImage 1/8 DCT decode:   \(fmt(cpu("eighth"))) ms [\(fmt(wall("eighth")))]")
print("ShelfImage 1/4 gray decode:  \(fmt(cpu("gray quarter"))) ms [\(fmt(wall("gray quarter")))]  (decodeGray: Y only)")
if djpeg != nil {
    print("djpeg full decode:           \(fmt(cpu("djpeg full"))) ms [\(fmt(wall("djpeg full")))]  \(fmt(megapixels / cpu("djpeg full") * 1000)) MP/s")
    print("djpeg -scale 1/4:            \(fmt(cpu("djpeg quarter"))) ms [\(fmt(wall("djpeg quarter")))]")
    let rf = cpu("full") / cpu("djpeg full"), rq = cpu("quarter") / cpu("djpeg quarter")
    print("ratio ShelfImage/djpeg:      full \(String(format: "%.3f", rf))x, 1/4 \(String(format: "%.3f", rq))x (CPU; target <= 1.15x)"
          + "  [wall: full \(String(format: "%.3f", wall("full") / wall("djpeg full")))x]")
} else {
    print("djpeg not found: install libjpeg-turbo-progs for the comparison (skipped)")
}

// Pipeline operations on the decoded photo, for the scan budget.
let image = try ImageDecoder.decode(fileAt: photo, options: DecodeOptions(applyOrientation: false))
func opCPU(_ n: Int, _ body: () -> Void) -> Double { median((0..<n).map { _ in measure(body).cpu }) }
let rotate = opCPU(5) { _ = image.rotated(.clockwise90) }
let down = opCPU(5) { _ = image.downscaled(maxSide: 1000) }
let quad = Quad(topLeft: Point(x: 1000, y: 300), topRight: Point(x: 1180, y: 320),
                bottomRight: Point(x: 1100, y: 2700), bottomLeft: Point(x: 920, y: 2680))
let warp = opCPU(9) { _ = image.warped(quad, width: 180, height: 2380) }
let gray = opCPU(5) { _ = image.grayscale() }
// The same photo as PNG (samples/ has PNGs): libpng + zlib, and the area-averaged "1/4" reduced decode.
let pngData = try image.pngData()
let pngFull = opCPU(3) { _ = try? ImageDecoder.decode(pngData, options: DecodeOptions(applyOrientation: false)) }
let pngQuarter = opCPU(3) { _ = try? ImageDecoder.decode(pngData, options: DecodeOptions(scaleDenominator: 4, applyOrientation: false)) }
print("PNG (\(pngData.count / 1024) KiB) full decode:  \(fmt(pngFull)) ms CPU, 1/4 reduced decode: \(fmt(pngQuarter)) ms CPU")
print("pipeline operations on the full image (CPU ms):")
print("rotate 90 (EXIF 6/8 cost):   \(fmt(rotate)) ms")
print("area downscale to 1000 px:   \(fmt(down)) ms")
print("warp tilted 180x2380 spine:  \(fmt(warp)) ms")
print("grayscale:                   \(fmt(gray)) ms")
