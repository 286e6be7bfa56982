// bench-image --heif-webp: decode time of a 12 MP HEIC and WebP through ShelfImage, at full size and at
// the 1/4 size the detector asks for, next to the reference tools on the same files.
//
// The photo (the synthesized 4000x3000 shelf, or PHOTO) is encoded with the Debian tools at phone-like
// settings: `heif-enc -q 50` (x265, 4:2:0, one coded image) and `cwebp -q 80`. Figures are CPU ms, median
// of 3 runs after a warm-up, wall ms in brackets. The tools' figures include process start-up and I/O:
//   heif-convert x.heic out.y4m   decodes and writes raw YCbCr, so it skips the RGB conversion we do;
//   dwebp x.webp -ppm -o out      decodes to RGB and writes it; with -resize it uses the scaler we use.
import Foundation
import ShelfImage

func benchHEIFWebP(source: String) throws {
    guard let heifEnc = toolPath("heif-enc"), let heifConvert = toolPath("heif-convert"),
          let cwebp = toolPath("cwebp"), let dwebp = toolPath("dwebp") else {
        print("needs heif-enc, heif-convert (libheif-examples) and cwebp, dwebp (webp): run scripts/setup.sh")
        exit(1)
    }
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bench-heif-webp-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    func file(_ name: String) -> String { dir.appendingPathComponent(name).path }
    func kib(_ path: String) -> Int { ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) / 1024 }

    let heic = file("shelf.heic"), webp = file("shelf.webp")
    let encodeHEIC = try runTool(heifEnc, ["-q", "50", source, "-o", heic])
    let encodeWebP = try runTool(cwebp, ["-q", "80", source, "-o", webp])
    let info = try ImageDecoder.info(fileAt: heic)
    print("photo: \(source) -> \(info.width)x\(info.height); HEIC \(kib(heic)) KiB (heif-enc -q 50, \(Int(encodeHEIC.wall)) ms), "
          + "WebP \(kib(webp)) KiB (cwebp -q 80, \(Int(encodeWebP.wall)) ms)")

    let heicBytes = try FileBytes.contents(of: heic), webpBytes = try FileBytes.contents(of: webp)
    let quarter = DecodeOptions(scaleDenominator: 4)
    let qw = (info.width + 3) / 4, qh = (info.height + 3) / 4
    let cases: [(String, () throws -> Sample)] = [
        ("ShelfImage HEIC full", { try measure { _ = try ImageDecoder.decode(heicBytes) } }),
        ("ShelfImage HEIC 1/4", { try measure { _ = try ImageDecoder.decode(heicBytes, options: quarter) } }),
        ("heif-convert -> y4m", { try runTool(heifConvert, [heic, file("out.y4m")]) }),
        ("ShelfImage WebP full", { try measure { _ = try ImageDecoder.decode(webpBytes) } }),
        ("ShelfImage WebP 1/4", { try measure { _ = try ImageDecoder.decode(webpBytes, options: quarter) } }),
        ("dwebp -ppm", { try runTool(dwebp, [webp, "-ppm", "-o", file("out.ppm")]) }),
        ("dwebp -ppm -resize 1/4", { try runTool(dwebp, [webp, "-ppm", "-resize", "\(qw)", "\(qh)", "-o", file("out.ppm")]) }),
    ]
    let rounds = 3
    var samples: [String: [Sample]] = [:]
    for round in 0...rounds {
        for (name, body) in cases {
            let s = try body()
            if round > 0 { samples[name, default: []].append(s) }
        }
    }
    print("medians of \(rounds) runs: CPU ms [wall ms]")
    for (name, _) in cases {
        let s = samples[name]!
        print(name.padding(toLength: 26, withPad: " ", startingAt: 0)
              + String(format: "%8.1f  [%7.1f]", median(s.map(\.cpu)), median(s.map(\.wall))))
    }
    // The thumbnail path, for a file whose thumbnail is at least the 1/4 size. Phones store 320 px
    // thumbnails, never enough for the detector's 1280 px, so for their photos 1/4 is the row above.
    let thumbHEIC = file("thumb.heic")
    try runTool(heifEnc, ["-q", "50", "-t", "\(max(qw, qh))", source, "-o", thumbHEIC])
    let thumbBytes = try FileBytes.contents(of: thumbHEIC)
    let thumb = try (0...rounds).map { _ in try measure { _ = try ImageDecoder.decode(thumbBytes, options: quarter) } }.dropFirst()
    print("ShelfImage HEIC 1/4 from its \(max(qw, qh)) px thumbnail: "
          + String(format: "%.1f  [%.1f]", median(thumb.map(\.cpu)), median(thumb.map(\.wall))))
}
