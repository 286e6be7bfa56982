// Detection accuracy and speed.
//
//   swift run -c release eval-detection [--samples DIR] [--real DIR] [--overlays DIR] [--bench PHOTO] [--runs N]
//
// Prints precision, recall, F1 at IoU >= 0.5 (polygon IoU, one-to-one matching) and mean IoU, per photo
// and overall, separately for the synthetic samples/ and for the real photos in
// ../shared/datasets/library-dataset (ground truth in spine_boxes/; skipped with a note when absent).
// With --bench, prints the median time of decode (DCT-scaled) + detection of one photo, on one core.
import Foundation
import ShelfImage
import SpineDetection

struct GroundTruth: Decodable {
    struct Spine: Decodable { var polygon: [[Double]]; var partial: Bool? }
    var image: String
    var width: Int
    var height: Int
    var spines: [Spine]
}

func argument(_ name: String) -> String? {
    let args = CommandLine.arguments
    guard let i = args.firstIndex(of: name), i + 1 < args.count else { return nil }
    return args[i + 1]
}

func evaluate(photo: String, truthPath: String, overlays: String?) throws -> DetectionScore {
    let truth = try JSONDecoder().decode(GroundTruth.self, from: Data(contentsOf: URL(fileURLWithPath: truthPath)))
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: photo)))
    let info = try ImageDecoder.info(bytes)
    let reduced = try DetectionInput.decode(bytes, info: info)
    let result = SpineDetector().detect(reduced)
    let w = Double(info.uprightWidth), h = Double(info.uprightHeight)
    let detections = result.spines.map { $0.quad.points.map { Point(x: $0.x * w, y: $0.y * h) } }
    let gt = truth.spines.map { spine in
        (polygon: spine.polygon.map { Point(x: $0[0], y: $0[1]) }, partial: spine.partial ?? false)
    }
    if let overlays {
        try FileManager.default.createDirectory(atPath: overlays, withIntermediateDirectories: true)
        let stem = ((photo as NSString).lastPathComponent as NSString).deletingPathExtension
        try Data(Overlay.render(reduced, result).pngData()).write(to: URL(fileURLWithPath: "\(overlays)/\(stem).png"))
    }
    return DetectionScore.score(detections: detections, truth: gt)
}

func line(_ name: String, _ s: DetectionScore) -> String {
    String(format: "%-28@ P %.3f  R %.3f  F1 %.3f  mIoU %.3f  (tp %d, fp %d, fn %d)",
           name as NSString, s.precision, s.recall, s.f1, s.meanIoU, s.truePositives, s.falsePositives, s.falseNegatives)
}

func evaluateSet(title: String, pairs: [(photo: String, truth: String)], overlays: String?) {
    print("== \(title)")
    var total = DetectionScore()
    for (photo, truthPath) in pairs {
        do {
            let s = try evaluate(photo: photo, truthPath: truthPath, overlays: overlays)
            total = total + s
            print(line((photo as NSString).lastPathComponent, s))
        } catch {
            print("\((photo as NSString).lastPathComponent): error: \(error)")
        }
    }
    print(line("overall", total))
}

func photoPairs(in dir: String, truthDir: String? = nil) -> [(photo: String, truth: String)] {
    let files = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
    return files.compactMap { name in
        let ext = (name as NSString).pathExtension.lowercased()
        guard ext == "jpg" || ext == "jpeg" || ext == "png" else { return nil }
        let stem = (name as NSString).deletingPathExtension
        let truth = ((truthDir ?? dir) as NSString).appendingPathComponent(stem + ".json")
        guard FileManager.default.fileExists(atPath: truth) else { return nil }
        return ((dir as NSString).appendingPathComponent(name), truth)
    }
}

if let photo = argument("--bench") {
    let runs = Int(argument("--runs") ?? "") ?? 15
    guard let bytes = FileManager.default.contents(atPath: photo).map([UInt8].init) else {
        print("eval-detection: cannot read \(photo)"); exit(1)
    }
    var times: [Double] = []
    var spines = 0
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        let info = try ImageDecoder.info(bytes)
        let reduced = try DetectionInput.decode(bytes, info: info)
        spines = SpineDetector().detect(reduced).spines.count
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    times.sort()
    let info = try ImageDecoder.info(bytes)
    print(String(format: "%@ (%d x %d): median decode+detect %.1f ms over %d runs (min %.1f, max %.1f), %d spines",
                 (photo as NSString).lastPathComponent, info.uprightWidth, info.uprightHeight,
                 times[times.count / 2], runs, times.first!, times.last!, spines))
    exit(0)
}

let overlays = argument("--overlays")
let samples = argument("--samples") ?? "samples"
evaluateSet(title: "synthetic samples (\(samples))", pairs: photoPairs(in: samples), overlays: overlays)
let real = argument("--real") ?? "../shared/datasets/library-dataset"
let realPairs = photoPairs(in: real, truthDir: (real as NSString).appendingPathComponent("spine_boxes"))
if realPairs.isEmpty {
    print("== real photos: none found in \(real) (skipped)")
} else {
    evaluateSet(title: "real photos (\(real))", pairs: realPairs, overlays: overlays)
}
