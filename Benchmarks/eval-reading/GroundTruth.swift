import BookModel
import Foundation
import ShelfImage
import ShelfScan
import SpineDetection
import SpineReading
import TextCue

/// One annotated spine, cut from its photo at full resolution.
struct TruthCrop {
    var source: String
    var crop: SpineCrop
    var title: String
    var author: String
}

/// Reads `{image, spines: [{polygon: [[x,y] x4 TL,TR,BR,BL], title, author, partial}]}` beside a photo and
/// warps each titled, non-partial spine to an upright crop, as the pipeline does.
enum GroundTruth {
    private struct File: Decodable {
        struct Spine: Decodable {
            var polygon: [[Double]]
            var title: String?
            var author: String?
            var partial: Bool?
        }
        var image: String?
        var spines: [Spine]
    }

    static func crops(photo: URL, truth: URL, firstID: Int) throws -> [TruthCrop] {
        let file = try JSONDecoder().decode(File.self, from: Data(contentsOf: truth))
        let image = try ImageDecoder.decode(fileAt: photo.path)
        var out: [TruthCrop] = []
        for spine in file.spines {
            guard let title = spine.title?.trimmingCharacters(in: .whitespaces), !title.isEmpty,
                spine.partial != true, spine.polygon.count == 4, spine.polygon.allSatisfy({ $0.count == 2 })
            else { continue }
            let p = spine.polygon.map { Point(x: $0[0], y: $0[1]) }
            let quad = Quad(topLeft: p[0], topRight: p[1], bottomRight: p[2], bottomLeft: p[3])
            func d(_ a: Point, _ b: Point) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }
            let w = Int(((d(p[0], p[1]) + d(p[3], p[2])) / 2).rounded())
            let h = Int(((d(p[0], p[3]) + d(p[1], p[2])) / 2).rounded())
            guard w >= 4, h >= 4 else { continue }
            let crop = SpineCrop(id: firstID + out.count, image: image.warped(quad, width: w, height: h))
            out.append(TruthCrop(source: photo.lastPathComponent, crop: crop, title: title, author: spine.author ?? ""))
        }
        return out
    }

    /// End to end: the spines the detector finds, cut as the pipeline cuts them (`SpineGeometry.crop`), each
    /// carrying the title of the annotated spine it matches at IoU >= 0.5. An annotated spine the detector
    /// missed comes back as an empty crop, so it counts as unread and the accuracy is over every titled spine.
    /// Where PP-OCR's text detector finds print on the photo, as `scan` weighs it when the model cache is there;
    /// without it the detector works on the image alone, as `scan` does then.
    static let textCue = TextCue.fromModelCache(longSide: SpineDetector().parameters.textCueLongSide)

    static func detectedCrops(photo: URL, truth: URL, firstID: Int) throws -> [TruthCrop] {
        let file = try JSONDecoder().decode(File.self, from: Data(contentsOf: truth))
        let bytes = try FileBytes.contents(of: photo.path)
        let info = try ImageDecoder.info(bytes)
        let image = try ImageDecoder.decode(bytes)
        let input = try DetectionInput.decode(bytes, info: info)
        let detection = SpineDetector().detect(input, text: textCue?.evidence(input))
        let W = Double(image.width), H = Double(image.height)
        var titled: [(polygon: [Point], title: String, author: String)] = []
        for spine in file.spines {
            guard let title = spine.title?.trimmingCharacters(in: .whitespaces), !title.isEmpty,
                  spine.partial != true, spine.polygon.count == 4 else { continue }
            titled.append((spine.polygon.map { Point(x: $0[0] / W, y: $0[1] / H) }, title, spine.author ?? ""))
        }
        let pairs = DetectionScore.matches(detections: detection.spines.map(\.quad.points), truth: titled.map(\.polygon))
        return titled.indices.map { j in
            let image = pairs.first { $0.truth == j }.map { SpineGeometry.crop(detection.spines[$0.detection], from: image) }
                ?? RGBImage(width: 0, height: 0, pixels: [])
            return TruthCrop(source: photo.lastPathComponent, crop: SpineCrop(id: firstID + j, image: image),
                             title: titled[j].title, author: titled[j].author)
        }
    }

    /// samples/*.jpg|png with a JSON of the same name beside them.
    static func samples(in directory: URL) -> [(URL, URL)] {
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        return files.filter { ["jpg", "jpeg", "png"].contains($0.pathExtension.lowercased()) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
            .compactMap { photo in
                let json = photo.deletingPathExtension().appendingPathExtension("json")
                return FileManager.default.fileExists(atPath: json.path) ? (photo, json) : nil
            }
    }

    /// The shared real photos and their spine_boxes.
    static func realPhotos(dataset: URL) -> [(URL, URL)] {
        ["one_shelf_example", "two_shelves_example"].compactMap { name in
            let photo = dataset.appendingPathComponent("\(name).jpg")
            let json = dataset.appendingPathComponent("spine_boxes/\(name).json")
            let fm = FileManager.default
            return fm.fileExists(atPath: photo.path) && fm.fileExists(atPath: json.path) ? (photo, json) : nil
        }
    }

    /// The Bookfinder photos (German, French and English books on home shelves) whose spines have typed titles in
    /// `Benchmarks/bookfinder-boxes`, split as eval-detection splits them: photos 10-13 and 17-19 are held out
    /// (other shelves of the same home), the rest is what the reading may be tuned on. Photos 1-7 are never read.
    static func bookfinderPhotos(in directory: URL, truth: URL) -> (tuned: [(URL, URL)], heldOut: [(URL, URL)]) {
        let heldOut: Set<Int> = [10, 11, 12, 13, 17, 18, 19]
        var tuned: [(URL, URL)] = [], held: [(URL, URL)] = []
        for n in 8...25 {
            let name = String(format: "Shelfslibs_%05d", n)
            let photo = directory.appendingPathComponent(name + ".jpeg")
            let json = truth.appendingPathComponent(name + ".json")
            guard FileManager.default.fileExists(atPath: photo.path), FileManager.default.fileExists(atPath: json.path) else { continue }
            if heldOut.contains(n) { held.append((photo, json)) } else { tuned.append((photo, json)) }
        }
        return (tuned, held)
    }

    /// The other homes' photos (scripts/fetch-home-shelves.sh) whose boxes in `truth` carry typed titles, split by
    /// home: the split may be tuned on IMG_1346 (one home), never on the other home's IMG_1538 and IMG_1539.
    static func homePhotos(in directory: URL, truth: URL) -> (tuned: [(URL, URL)], heldOut: [(URL, URL)]) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: truth.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        var tuned: [(URL, URL)] = [], held: [(URL, URL)] = []
        for name in names {
            let json = truth.appendingPathComponent(name), stem = (name as NSString).deletingPathExtension
            let photo = directory.appendingPathComponent(stem + ".jpg")
            guard FileManager.default.fileExists(atPath: photo.path), let data = try? Data(contentsOf: json),
                  let file = try? JSONDecoder().decode(File.self, from: data),
                  file.spines.contains(where: { !($0.title ?? "").isEmpty }) else { continue }
            if stem == "IMG_1346" { tuned.append((photo, json)) } else { held.append((photo, json)) }
        }
        return (tuned, held)
    }
}
