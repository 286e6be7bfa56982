// eval-detection: precision, recall, F1 at polygon IoU >= 0.5 and mean IoU of SpineDetector against ground
// truth, per photo and overall, on samples/ and (separately) on the shared real photos; then the median
// decode+detect time per photo on one core.
//
//   swift run -c release eval-detection [--overlays DIR] [--samples DIR] [--dataset DIR] [--runs N] [--params FILE.json] [--explain]
//                             [--dump-boundaries FILE.csv] [--vary brightness=F,contrast=F,roll=DEG,crop=F,turn=1|2|3,cutrow=1|2]
//                             [--bookfinder DIR (or env BOOKFINDER_DIR)] [--bookfinder-truth DIR] [--drafts DIR]
//                             [--homes DIR (or env HOMES_DIR)] [--homes-truth DIR]
//                             [--library-rows DIR (or env LIBRARY_ROWS_DIR)] [--library-rows-truth DIR]
//                             [--dump-boxes FILE.csv] [--dump-classifier FILE.csv] [--no-text] [--text-side PX] [--overlay-text]
//                             [--synthetic-hard DIR (made by scripts/make-hard-shelves.py)]
//                             [--synthetic-train DIR (the same generator, another seed: training data for the fits; repeatable)]
import Foundation
import ShelfImage
import SpineDetection
import TextCue
import SpineModel
import PPOCR
import OnnxRuntime

/// `lying[i]`: the ground truth marks spine i as a book lying flat in a stack (samples/ carry the flag).
struct Truth {
    var polygons: [([Point], Bool)]; var lying: [Bool]; var imagePath: String

    /// The truth of the photo cut to `window` (normalized), each point then moved by `moved` into the cut photo's
    /// frame: a spine with no more than 5% of it inside leaves the truth, one with less than `scoredFrom` of it
    /// inside becomes don't-care, and one with less than `keepWholeFrom` inside keeps only its part in the window.
    func cut(to window: [Point], scoredFrom: Double, keepWholeFrom: Double, _ moved: (Point) -> Point) -> Truth {
        var out = self
        out.polygons = []; out.lying = []
        for (j, (poly, dontCare)) in polygons.enumerated() {
            let area = PolygonIoU.area(poly), part = PolygonIoU.intersection(poly, window)
            let inside = area > 0 ? PolygonIoU.area(part) / area : 0
            guard inside > 0.05 else { continue }
            out.polygons.append(((inside < keepWholeFrom ? part : poly).map(moved), dontCare || inside < scoredFrom))
            out.lying.append(j < lying.count && lying[j])
        }
        return out
    }
}

func argument(_ name: String) -> String? { arguments(name).first }

/// Every value given after `name`, for a flag that may be repeated.
func arguments(_ name: String) -> [String] {
    let a = CommandLine.arguments
    return a.indices.dropLast().filter { a[$0] == name }.map { a[$0 + 1] }
}

/// Reads the shared ground-truth schema: {"image", "width", "height", "spines": [{"polygon", "partial"?}]}.
func loadTruth(_ jsonPath: String, imageDir: String) -> Truth? {
    guard let data = FileManager.default.contents(atPath: jsonPath),
          let obj = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
          let w = (obj["width"] as? NSNumber)?.doubleValue, let h = (obj["height"] as? NSNumber)?.doubleValue,
          let spines = obj["spines"] as? [[String: Any]] else { return nil }
    var polys: [([Point], Bool)] = []
    var lying: [Bool] = []
    for s in spines {
        guard let poly = s["polygon"] as? [[Any]] else { continue }
        let pts = poly.compactMap { p -> Point? in
            guard p.count >= 2, let x = (p[0] as? NSNumber)?.doubleValue, let y = (p[1] as? NSNumber)?.doubleValue else { return nil }
            return Point(x: x / w, y: y / h)
        }
        guard pts.count >= 3 else { continue }
        polys.append((pts, (s["partial"] as? Bool) ?? false))
        lying.append((s["lying"] as? Bool) ?? false)
    }
    let base = (jsonPath as NSString).deletingPathExtension
    var candidates: [String] = []
    if let name = obj["image"] as? String { candidates.append((imageDir as NSString).appendingPathComponent((name as NSString).lastPathComponent)) }
    candidates += [base + ".jpg", base + ".jpeg", base + ".png"]
    guard let img = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else { return nil }
    return Truth(polygons: polys, lying: lying, imagePath: img)
}

/// Exactly what `shelfscan scan` feeds the detector: libjpeg's DCT-scaled decode to within a factor of two
/// of `DetectionInput.defaultMaxSide`, then shrunk to it, so the figures and the timing are the product's.
func decodeReduced(_ path: String) throws -> RGBImage {
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    return try DetectionInput.decode(bytes, info: ImageDecoder.info(bytes))
}

func pct(_ v: Double) -> String { String(format: "%.3f", v) }

func evaluate(_ title: String, _ items: [(String, Truth)], detector: SpineDetector, overlays: String?, dump: LineSink?, boxes boxDump: LineSink? = nil, looks classifierDump: LineSink? = nil) -> DetectionScore {
    print("== \(title): \(items.count) photo(s)")
    print("photo".padding(toLength: 28, withPad: " ", startingAt: 0) + "  truth  det  hits   FP  miss   prec    rec     F1   mIoU")
    var total = DetectionScore()
    var kinds: [String: Int] = [:]
    var lyingTruth = 0, lyingFound = 0, lyingFlagged = 0
    var calibration = Calibration()
    for (name, t) in items {
        let decode = { () throws -> RGBImage in
            if let which = variation.cutsRow { return try variation.decodeCutAtRow(t, which) }
            return variation.crop < 1 ? try variation.decodeCropped(t.imagePath) : try decodeReduced(t.imagePath)
        }
        guard let decoded = try? decode() else {
            print("\(name): cannot decode, skipped"); continue
        }
        let (img, t) = variation.apply(decoded, t)
        let evidence = textCue?.evidence(img)
        let (r, cues, looks) = detectWith(img, evidence)
        let s = DetectionScore.score(detections: r.spines.map(\.quad.points), truth: t.polygons)
        if let boxDump { boxDump.write(boxRows(title, name, r, cues, t)) }
        if let classifierDump { classifierDump.write(boxRows(title, name, r, zip(cues, looks).map { $0 + $1 }, t)) }
        total = total + s
        // Books lying flat, on their own: found (IoU >= 0.5) and, if found, flagged `lying`.
        let pairs = DetectionScore.matches(detections: r.spines.map(\.quad.points), truth: t.polygons.map(\.0))
        for (j, isLying) in t.lying.enumerated() where isLying && !t.polygons[j].1 {
            lyingTruth += 1
            if let m = pairs.first(where: { $0.truth == j }) { lyingFound += 1; if r.spines[m.detection].lying { lyingFlagged += 1 } }
        }
        let matched = Set(pairs.map(\.truth))
        for (j, (poly, dontCare)) in t.polygons.enumerated() where !dontCare {
            let pose = pose(poly, lying: j < t.lying.count && t.lying[j], aspect: Double(img.width) / Double(img.height))
            kinds["truth." + pose, default: 0] += 1
            if !matched.contains(j) { kinds["missed." + pose, default: 0] += 1 }
        }
        errorKinds(r.spines.map(\.quad.points), t.polygons, into: &kinds)
        calibration.add(r.spines, t.polygons)
        if let dump { dump.write(boundaryRows(name, img, t, detector)) }
        let nTruth = t.polygons.filter { !$0.1 }.count
        print(name.padding(toLength: 28, withPad: " ", startingAt: 0)
              + String(format: " %6d %4d %5d %4d %5d", nTruth, r.spines.count, s.hits, s.falsePositives, s.misses)
              + "  \(pct(s.precision))  \(pct(s.recall))  \(pct(s.f1))  \(pct(s.meanIoU))")
        if let dir = overlays {
            try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            let small = img.downscaled(maxSide: 1400)
            var o = Overlay.render(small, r)
            // Ground truth in thin blue (don't-care in grey) under the numbers, for a careful eye.
            o = drawTruth(o, t.polygons)
            // False positives (matching no spine, don't-care ones included) outlined again in white, so a glance
            // tells wrong boxes from right ones (the renderer's red and green only alternate).
            let outcome = labels(r.spines.map(\.quad.points), t.polygons)
            let wrong = r.spines.indices.filter { outcome[$0] == 0 }
            o = drawLines(o, wrong.map { r.spines[$0].quad.points }, colours: wrong.map { _ in (255, 255, 255) })
            // The text detector's lines in yellow, with a dot where each begins (the way the text runs).
            if overlayText, let evidence { o = drawLines(o, evidence.lines.map { $0.quad.points }) }
            if let png = try? o.pngData() {
                _ = FileManager.default.createFile(atPath: (dir as NSString).appendingPathComponent(name.replacingOccurrences(of: "/", with: "-") + ".png"), contents: Data(png))
            }
        }
    }
    let fps = kinds.filter { $0.key.hasPrefix("fp.") }
    print("false positives by kind: " + (fps.isEmpty ? "none" : fps.sorted { $0.key < $1.key }.map { "\($0.key.dropFirst(3)) \($0.value)" }.joined(separator: ", ")))
    if explain {
        print("misses by kind: " + kinds.filter { $0.key.hasPrefix("miss.") }.sorted { $0.key < $1.key }.map { "\($0.key.dropFirst(5)) \($0.value)" }.joined(separator: ", "))
        print("misses by pose: " + ["upright", "leaning 8-20°", "leaning >20°", "lying"].map { pose in
            "\(pose) \(kinds["missed." + pose] ?? 0) of \(kinds["truth." + pose] ?? 0)"
        }.joined(separator: ", "))
    }
    print(calibration.report())
    if lyingTruth > 0 {
        print("lying books: \(lyingFound) of \(lyingTruth) found (recall \(pct(Double(lyingFound) / Double(lyingTruth)))), \(lyingFlagged) of them flagged lying")
    }
    print("OVERALL \(title): hits \(total.hits) FP \(total.falsePositives) miss \(total.misses)  precision \(pct(total.precision))  recall \(pct(total.recall))  F1 \(pct(total.f1))  mean IoU \(pct(total.meanIoU))")
    print("")
    return total
}

/// A worse photo of the same shelf, to measure robustness without new ground truth: `brightness=F`
/// scales every value, `contrast=F` scales the distance from mid-grey, `roll=DEG` turns the photo about
/// its centre (ground truth turned with it; corners filled with the edge pixels).
struct Variation {
    var brightness = 1.0, contrast = 1.0, roll = 0.0
    /// The central share of the photo's width kept (0.56 of a 4:3 photo is a 3:4 portrait one, the shelf framed
    /// closer): spines cut by the new edges become don't-care, spines outside it leave the truth.
    var crop = 1.0
    /// Quarter turns clockwise (1 or 3: a photo taken sideways with no EXIF turn; 2: upside down), after all else.
    var turns = 0
    /// The photo's bottom edge moved up to the middle of its lowest row of standing books (`cutrow=1`), or its top
    /// edge down to the middle of its highest row (`cutrow=2`), as a photo of a bookcase taken from close by cuts
    /// its lower or upper shelf: a cut spine of which two fifths or more are in view (most of that row's spines) is
    /// scored as what is left of it, one with less is don't-care; spines beyond the cut leave the truth.
    var cutsRow: RowCut?
    enum RowCut { case lowest, highest }

    init(_ spec: String?) {
        for part in (spec ?? "").split(separator: ",") {
            let kv = part.split(separator: "=")
            guard kv.count == 2, let v = Double(kv[1]) else { print("error: --vary takes brightness=F,contrast=F,roll=DEG,crop=F,turn=1|2|3,cutrow=1|2"); exit(2) }
            switch kv[0] {
            case "brightness": brightness = v
            case "contrast": contrast = v
            case "roll": roll = v
            case "crop" where v > 0 && v <= 1: crop = v
            case "turn" where [1, 2, 3].contains(Int(v)): turns = Int(v)
            case "cutrow" where v == 1 || v == 2: cutsRow = v == 1 ? .lowest : .highest
            default: print("error: unknown variation \(kv[0])"); exit(2)
            }
        }
    }

    /// The photo decoded whole, its central `crop` of the width cut out and then shrunk as the scan path
    /// shrinks a photo (`DetectionInput.defaultMaxSide`): a portrait photo of the same shelf at full resolution,
    /// not a cut of the already shrunk one, which would hand the detector a smaller image than any photo gives.
    func decodeCropped(_ path: String) throws -> RGBImage {
        let full = try ImageDecoder.decode(fileAt: path)
        let cw = max(8, Int((Double(full.width) * crop).rounded()))
        return full.cropped(x: (full.width - cw) / 2, y: 0, width: cw, height: full.height)
            .downscaled(maxSide: DetectionInput.defaultMaxSide)
    }

    /// Where `cutsRow` cuts (normalized height): the middle of the lowest or highest row of the truth's whole
    /// standing spines, rows told apart by their middles (half a typical spine's height apart starts a new row).
    static func rowMiddle(_ t: Truth, _ which: RowCut) -> Double? {
        let spans = t.polygons.indices.filter { !t.polygons[$0].1 && !($0 < t.lying.count && t.lying[$0]) }
            .map { j in (t.polygons[j].0.map(\.y).min()!, t.polygons[j].0.map(\.y).max()!) }
        guard !spans.isEmpty else { return nil }
        let typical = spans.map { $0.1 - $0.0 }.sorted()[spans.count / 2]
        // Walked towards the cut's side, each spine joining the row of the one before it when their middles are
        // close: the last row met is the one cut.
        let sign = which == .lowest ? 1.0 : -1.0
        var edgeRow: (top: Double, bottom: Double, middle: Double)?
        for (top, bottom) in spans.sorted(by: { sign * ($0.0 + $0.1) < sign * ($1.0 + $1.1) }) {
            let middle = (top + bottom) / 2
            if let r = edgeRow, sign * (middle - r.middle) < 0.5 * typical {
                edgeRow = (min(r.top, top), max(r.bottom, bottom), middle)
            } else {
                edgeRow = (top, bottom, middle)
            }
        }
        return edgeRow.map { ($0.top + $0.bottom) / 2 }
    }

    /// The span of the photo's height (normalized) that the cut keeps: above the cut, or below it.
    static func keptHeights(_ t: Truth, _ which: RowCut) -> ClosedRange<Double> {
        let cut = rowMiddle(t, which)
        return which == .lowest ? 0...(cut ?? 1) : (cut ?? 0)...1
    }

    /// The photo decoded whole, cut at `rowMiddle` and shrunk as a scan shrinks a photo (as `decodeCropped`).
    func decodeCutAtRow(_ t: Truth, _ which: RowCut) throws -> RGBImage {
        let full = try ImageDecoder.decode(fileAt: t.imagePath)
        let kept = Self.keptHeights(t, which), h = Double(full.height)
        let top = Int((h * kept.lowerBound).rounded()), bottom = Int((h * kept.upperBound).rounded())
        return full.cropped(x: 0, y: min(top, full.height - 8), width: full.width, height: max(8, bottom - top))
            .downscaled(maxSide: DetectionInput.defaultMaxSide)
    }

    var isIdentity: Bool { brightness == 1 && contrast == 1 && roll == 0 && crop == 1 && turns == 0 && cutsRow == nil }

    func apply(_ image: RGBImage, _ truth: Truth) -> (RGBImage, Truth) {
        guard !isIdentity else { return (image, truth) }
        var img = image
        var table = [UInt8](repeating: 0, count: 256)
        for v in 0..<256 { table[v] = UInt8(max(0, min(255, ((Double(v) - 127.5) * contrast + 127.5) * brightness))) }
        for i in img.pixels.indices { img.pixels[i] = table[Int(img.pixels[i])] }
        var t = truth
        if crop < 1 {
            // `image` is the cropped photo already (`decodeCropped`); the truth follows it here, before any roll.
            let left = (1 - crop) / 2, share = crop
            let window = [Point(x: left, y: 0), Point(x: left + share, y: 0), Point(x: left + share, y: 1), Point(x: left, y: 1)]
            // A cut spine is what is left of it in the frame, don't-care: a box on that part is neither right nor wrong.
            t = t.cut(to: window, scoredFrom: 0.9, keepWholeFrom: 0.9) { Point(x: ($0.x - left) / share, y: $0.y) }
        }
        if let which = cutsRow {
            // `image` is the cut photo already (`decodeCutAtRow`); the truth follows it, before any roll.
            let kept = Self.keptHeights(truth, which), top = kept.lowerBound, share = kept.upperBound - kept.lowerBound
            let window = [Point(x: -1, y: top), Point(x: 2, y: top), Point(x: 2, y: kept.upperBound), Point(x: -1, y: kept.upperBound)]
            t = t.cut(to: window, scoredFrom: 0.4, keepWholeFrom: 1) { Point(x: $0.x, y: ($0.y - top) / share) }
        }
        if roll != 0 {
            let w = Double(img.width), h = Double(img.height), a = roll * .pi / 180
            // Output pixel p shows source point c + R(-a)(p - c): the shelf turns by +a (clockwise, y down).
            func source(_ x: Double, _ y: Double) -> Point {
                let dx = x - w / 2, dy = y - h / 2
                return Point(x: w / 2 + dx * cos(a) + dy * sin(a), y: h / 2 - dx * sin(a) + dy * cos(a))
            }
            img = img.warped(Quad(topLeft: source(0, 0), topRight: source(w, 0), bottomRight: source(w, h), bottomLeft: source(0, h)),
                             width: img.width, height: img.height)
            // A truth point moves the other way: p = c + R(a)(s - c).
            func moved(_ p: Point) -> Point {
                let dx = p.x * w - w / 2, dy = p.y * h - h / 2
                return Point(x: (w / 2 + dx * cos(a) - dy * sin(a)) / w, y: (h / 2 + dx * sin(a) + dy * cos(a)) / h)
            }
            t.polygons = t.polygons.map { ($0.0.map(moved), $0.1) }
        }
        if turns != 0 {
            img = img.rotated(turns == 1 ? .clockwise90 : turns == 2 ? .half : .counterClockwise90)
            // The photo turned clockwise: a point goes where the upright frame of that many turns puts it.
            t.polygons = t.polygons.map { ($0.0.map { SpineLayout.uprightPoint(fromPhoto: $0, turns: turns) }, $0.1) }
        }
        return (img, t)
    }
}

/// Each detected box against the truth: 1 when it matches a scored spine at IoU >= 0.5, 0 when it is wrong, nil
/// when it matches or lies over a don't-care spine (a partial one: neither right nor wrong). One rule for the
/// errors by kind, the calibration, the box dump and the overlays.
func labels(_ det: [[Point]], _ truth: [([Point], Bool)]) -> [Int?] {
    let pairs = DetectionScore.matches(detections: det, truth: truth.map(\.0))
    return det.indices.map { i in
        if let m = pairs.first(where: { $0.detection == i }) { return truth[m.truth].1 ? nil : 1 }
        return truth.contains(where: { $0.1 && PolygonIoU.iou(det[i], $0.0) >= 0.5 }) ? nil : 0
    }
}

/// How a spine stands, for the misses' breakdown: lying (as the truth flags it), else by the tilt of its long
/// axis from the vertical (`aspect`: the photo's width over its height, as the points are fractions of both).
func pose(_ poly: [Point], lying: Bool, aspect: Double) -> String {
    guard !lying, poly.count == 4 else { return lying ? "lying" : "upright" }
    let a = ((poly[1].x - poly[0].x) * aspect, poly[1].y - poly[0].y), b = ((poly[3].x - poly[0].x) * aspect, poly[3].y - poly[0].y)
    let axis = hypot(a.0, a.1) > hypot(b.0, b.1) ? a : b
    let tilt = abs(atan2(axis.0, axis.1)) * 180 / .pi
    let fromVertical = min(tilt, 180 - tilt)
    return fromVertical > 20 ? "leaning >20°" : fromVertical > 8 ? "leaning 8-20°" : "upright"
}

/// Why each unmatched detection and each missed truth failed, so work goes to the commonest cause:
/// fp.background (over no spine: gap, board, wall), fp.part (inside one spine: a split or a short box),
/// fp.merge (across two or more spines), fp.offset (one spine, shifted), and the same for misses.
func errorKinds(_ det: [[Point]], _ truth: [([Point], Bool)], into kinds: inout [String: Int]) {
    let pairs = DetectionScore.matches(detections: det, truth: truth.map(\.0))
    let usedT = Set(pairs.map(\.truth))
    func kind(_ a: [Point], among others: [[Point]]) -> String {
        let area = PolygonIoU.area(a)
        let cover = others.map { PolygonIoU.area(PolygonIoU.intersection(a, $0)) / max(1e-12, area) }
        let inside = others.map { o in PolygonIoU.area(PolygonIoU.intersection(a, o)) / max(1e-12, PolygonIoU.area(o)) }
        if cover.reduce(0, +) < 0.3 { return "background" }
        if inside.filter({ $0 > 0.3 }).count >= 2 { return "merge" }
        // Against the spine it overlaps most: narrower (a split), shorter (a wrong top), or both.
        guard let k = cover.indices.max(by: { cover[$0] < cover[$1] }) else { return "background" }
        func size(_ q: [Point]) -> (Double, Double) {
            let xs = q.map(\.x), ys = q.map(\.y)
            return (xs.max()! - xs.min()!, ys.max()! - ys.min()!)
        }
        let (aw, ah) = size(a), (ow, oh) = size(others[k])
        let shape = (aw < 0.7 * ow ? "narrow" : aw > 1.4 * ow ? "wide" : "") + (ah < 0.8 * oh ? "short" : ah > 1.25 * oh ? "tall" : "")
        return (cover[k] > 0.75 ? "part" : "offset") + (shape.isEmpty ? "" : "-" + shape)
    }
    let truthPolys = truth.filter { !$0.1 }.map(\.0)
    // A box on a don't-care spine is not an error.
    for (d, label) in zip(det, labels(det, truth)) where label == 0 {
        kinds["fp." + kind(d, among: truthPolys), default: 0] += 1
    }
    for (j, t) in truth.enumerated() where !usedT.contains(j) && !t.1 {
        kinds["miss." + kind(t.0, among: det), default: 0] += 1
    }
}

/// CSV rows for scripts/fit-confidence.py: every detected box with its confidence cues, label 1 when it
/// matches a scored spine at IoU >= 0.5, 0 when it is a false positive; boxes on don't-care spines are left out.
func boxRows(_ set: String, _ photo: String, _ r: DetectionResult, _ cues: [[Double]], _ t: Truth) -> String {
    let outcome = labels(r.spines.map(\.quad.points), t.polygons)
    var text = ""
    for (i, c) in cues.enumerated() {
        guard let label = outcome[i] else { continue }
        text += "\(set),\(photo),\(label)," + c.map { String(format: "%.5f", $0) }.joined(separator: ",") + "\n"
    }
    return text
}

/// CSV rows for scripts/fit-boundaries.py: each boundary candidate's cues and whether a true boundary
/// (either side of a ground-truth spine, don't-care ones included) runs within 2.5 working pixels of it.
func boundaryRows(_ photo: String, _ img: RGBImage, _ t: Truth, _ detector: SpineDetector) -> String {
    let workW = Double(detector.parameters.workingLongSide) * Double(img.width) / Double(max(img.width, img.height))
    let tolerance = 2.5 / workW
    var text = ""
    for c in detector.boundaryCandidates(img) {
        let y = (c.top + c.bottom) / 2
        var sides: [Double] = []
        for (poly, _) in t.polygons {
            var xs: [Double] = []
            for i in 0..<poly.count {
                let a = poly[i], b = poly[(i + 1) % poly.count]
                if (a.y - y) * (b.y - y) <= 0 && a.y != b.y { xs.append(a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y)) }
            }
            if let lo = xs.min(), let hi = xs.max() { sides += [lo, hi] }
        }
        let label = sides.contains { abs($0 - c.x) <= tolerance } ? 1 : 0
        text += "\(photo),\(c.row),\(String(format: "%.5f", c.x)),\(label),\(String(format: "%.4f", c.score)),"
            + c.cues.map { String(format: "%.4f", $0) }.joined(separator: ",") + "\n"
    }
    return text
}

final class LineSink {
    let handle: FileHandle
    init?(path: String, header: String = "photo,row,x,label,score," + BoundaryCandidate.cueNames.joined(separator: ",") + "\n") {
        guard FileManager.default.createFile(atPath: path, contents: nil), let h = FileHandle(forWritingAtPath: path) else { return nil }
        handle = h
        write(header)
    }
    func write(_ s: String) { handle.write(Data(s.utf8)) }
}

func drawTruth(_ image: RGBImage, _ polys: [([Point], Bool)]) -> RGBImage {
    drawLines(image, polys.map(\.0), colours: polys.map { $0.1 ? (150, 150, 150) : (30, 60, 255) })
}

func drawLines(_ image: RGBImage, _ polys: [[Point]], colours: [(UInt8, UInt8, UInt8)]? = nil) -> RGBImage {
    var img = image
    let w = Double(img.width), h = Double(img.height)
    for (k, p) in polys.enumerated() {
        let c = colours?[k] ?? (255, 220, 0)
        if colours == nil, let a = p.first {
            for dy in -2...2 { for dx in -2...2 {
                let x = Int(a.x * w) + dx, y = Int(a.y * h) + dy
                guard x >= 0, y >= 0, x < img.width, y < img.height else { continue }
                let j = (y * img.width + x) * 3
                img.pixels[j] = c.0; img.pixels[j + 1] = c.1; img.pixels[j + 2] = c.2
            } }
        }
        for i in 0..<p.count {
            let a = p[i], b = p[(i + 1) % p.count]
            let n = Int(max(abs(b.x - a.x) * w, abs(b.y - a.y) * h)) + 1
            for k in 0...n {
                let t = Double(k) / Double(n)
                let x = Int((a.x + t * (b.x - a.x)) * w), y = Int((a.y + t * (b.y - a.y)) * h)
                guard x >= 0, y >= 0, x < img.width, y < img.height else { continue }
                let j = (y * img.width + x) * 3
                img.pixels[j] = c.0; img.pixels[j + 1] = c.1; img.pixels[j + 2] = c.2
            }
        }
    }
    return img
}

let fm = FileManager.default
let overlays = argument("--overlays")
let samplesDir = argument("--samples") ?? "samples"
let datasetDir = argument("--dataset") ?? "../shared/datasets/library-dataset"
let explain = CommandLine.arguments.contains("--explain")
let overlayText = CommandLine.arguments.contains("--overlay-text")
let variation = Variation(argument("--vary"))
let boundaryDump: LineSink? = argument("--dump-boundaries").map { path in
    guard let sink = LineSink(path: path) else { print("error: cannot write \(path)"); exit(1) }
    return sink
}
let boxDump: LineSink? = argument("--dump-boxes").map { path in
    guard let sink = LineSink(path: path, header: "set,photo,label," + SpineDetector.confidenceCueNames.joined(separator: ",") + "\n") else {
        print("error: cannot write \(path)"); exit(1)
    }
    return sink
}
let classifierDump: LineSink? = argument("--dump-classifier").map { path in
    guard let sink = LineSink(path: path, header: "set,photo,label," + BoxClassifier.expectedFeatures.joined(separator: ",") + "\n") else {
        print("error: cannot write \(path)"); exit(1)
    }
    return sink
}
let runs = Int(argument("--runs") ?? "5") ?? 5
var params = DetectorParameters.bundled
if let file = argument("--params") {
    guard let d = fm.contents(atPath: file), let p = try? JSONDecoder().decode(DetectorParameters.self, from: d) else {
        print("error: cannot read detector parameters from \(file)"); exit(1)
    }
    params = p
}
// The confidence model's cues are dumped for every box the model would score, so the boxes its floor
// drops are measured too (a refit must see the wrong boxes it is meant to recognise).
if boxDump != nil || classifierDump != nil { params.confidenceModel = nil; params.boxClassifier = nil; params.textConfidenceModel = nil; params.minCalibratedConfidence = nil
    params.textMinCalibratedConfidence = nil }
let detector = SpineDetector(parameters: params)
print("detector parameters: \(detector.parameters.version)")
print("box classifier: " + (detector.parameters.boxClassifier.flatMap(BoxClassifier.load).map { "\($0.version), \($0.trees.count) trees" } ?? "none (logistic confidence)"))
// The text cue, as `scan` runs it: PP-OCR's detector from the model cache (`--no-text` measures without it).
let textLongSide = Int(argument("--text-side") ?? "") ?? params.textCueLongSide ?? TextCue.defaultLongSide
let textCue: TextCue? = CommandLine.arguments.contains("--no-text") ? nil : TextCue.fromModelCache(longSide: textLongSide)
print("text cue: \(textCue == nil ? "off" : "PP-OCR text detector at \(textLongSide) px")")
// --detector classic (the row model, default here so that every figure before it stays comparable), learned (the
// spine model alone) or fused (what `scan` runs by default: the photo turned upright by the model's books, the
// classic rows, the model's sure lying books added).
let detectorChoice = argument("--detector") ?? "classic"
let spineModel: SpineModel? = {
    guard detectorChoice != "classic" else { return nil }
    guard let models = try? PPOCRModels.inDirectory(PPOCRModels.defaultDirectory()) else {
        print("error: --detector \(detectorChoice) needs the model cache (scripts/setup.sh)"); exit(1)
    }
    do {
        return try SpineModel(runtime: OnnxRuntime.load(libraryPath: models.runtimeLibrary), name: argument("--spine-model") ?? SpineModel.defaultName)
    } catch {
        print("error: \(error)"); exit(1)
    }
}()
let fused = spineModel.map {
    FusedDetection(model: $0, addConfidence: argument("--add-confidence").flatMap(Double.init),
                   addStanding: CommandLine.arguments.contains("--add-standing") ? true : nil)
}
print("detector: \(detectorChoice)" + (fused.map { f in " (model \(f.model.manifest.model); " + (f.addConfidence.map {
    "adds its lying\(f.addStanding ? " and standing" : "") books at >= \($0))" } ?? "adds none of its books)") } ?? ""))

/// One photo through the chosen detector: the classic one's cues and looks where it ran alone (for the dumps).
func detectWith(_ img: RGBImage, _ evidence: TextEvidence?) -> (DetectionResult, [[Double]], [[Double]]) {
    switch detectorChoice {
    case "learned": return (spineModel!.detect(img), [], [])
    case "fused": return (fused!.detect(img) { upright, turns in detector.detect(upright, text: turns == 0 ? evidence : textCue?.evidence(upright)) }, [], [])
    default: return detector.detectWithCues(img, text: evidence)
    }
}

/// Every `*.json` ground truth in `jsonDir` whose photo is found, named by its file stem, sorted.
func truths(in jsonDir: String, imageDir: String) -> [(String, Truth)] {
    let names = (try? fm.contentsOfDirectory(atPath: jsonDir)) ?? []
    return names.sorted().filter { $0.hasSuffix(".json") }.compactMap { n in
        loadTruth((jsonDir as NSString).appendingPathComponent(n), imageDir: imageDir).map { ((n as NSString).deletingPathExtension, $0) }
    }
}

let samples = truths(in: samplesDir, imageDir: samplesDir)
if samples.isEmpty { print("note: no samples with ground truth in \(samplesDir)/, skipped") } else {
    _ = evaluate("samples", samples, detector: detector, overlays: overlays, dump: boundaryDump, boxes: boxDump, looks: classifierDump)
}

// Hard synthetic shelves from a generator written apart from samples/ (scripts/make-hard-shelves.py --out DIR):
// cabinets, walls, floors, clutter, leaning books and stacks. Only measured, never fitted to.
if let hardDir = argument("--synthetic-hard") {
    let hard = truths(in: hardDir, imageDir: hardDir)
    if hard.isEmpty { print("note: no hard shelves with ground truth in \(hardDir)/, skipped") } else {
        _ = evaluate("synthetic hard", hard, detector: detector, overlays: overlays, dump: boundaryDump, boxes: boxDump, looks: classifierDump)
    }
}

// The same generator with other seeds (scripts/make-hard-shelves.py --seed 7 --count 24, and --seed 11 --count 48
// for the box classifier): training photos for scripts/fit-confidence.py and scripts/fit-box-classifier.py, so
// the models learn what clutter looks like without seeing the measured set. The flag may be given once per folder;
// with more than one, each photo is named after its folder too ("hard-train-11/hard-01").
let trainDirs = arguments("--synthetic-train")
if !trainDirs.isEmpty {
    let hardTrain = trainDirs.flatMap { dir in
        let found = truths(in: dir, imageDir: dir)
        if found.isEmpty { print("note: no hard shelves with ground truth in \(dir)/, skipped") }
        return trainDirs.count == 1 ? found : found.map { ((dir as NSString).lastPathComponent + "/" + $0.0, $0.1) }
    }
    if !hardTrain.isEmpty {
        _ = evaluate("synthetic training", hardTrain, detector: detector, overlays: overlays, dump: boundaryDump, boxes: boxDump, looks: classifierDump)
    }
}

let real = truths(in: (datasetDir as NSString).appendingPathComponent("spine_boxes"), imageDir: datasetDir)
if real.isEmpty { print("note: real photos not found at \(datasetDir), skipped") } else {
    _ = evaluate("real photos", real, detector: detector, overlays: overlays, dump: boundaryDump, boxes: boxDump, looks: classifierDump)
}

// Bookfinder (github.com/rauricus/Bookfinder, example-files/shelve_libraries): home-shelf phone photos,
// extracted outside the repository by scripts/fetch-bookfinder.sh; ground truth in Benchmarks/bookfinder-boxes.
// Only Shelfslibs_00008...00025 are ever read (00001...00007 are someone else's held-out judging set).
// The split is fixed and by scene, since neighbouring photos show the same books: the grey cabinet
// (10-13) and the wooden bookcase of 17-19 are held out (never fitted or tuned on); the outdoor shelf
// (8, 9), the grey cabinet floor (14-16) and the bookcase of 20-25 are training. The same split is
// stated in scripts/fit-*.py.
let bookfinderDir = argument("--bookfinder") ?? ProcessInfo.processInfo.environment["BOOKFINDER_DIR"]
let bookfinderTruthDir = argument("--bookfinder-truth") ?? "Benchmarks/bookfinder-boxes"
var bookfinder: [(String, Truth)] = []
if let dir = bookfinderDir, fm.fileExists(atPath: dir) {
    bookfinder = truths(in: bookfinderTruthDir, imageDir: dir).filter { BookfinderSplit.number($0.0).map(BookfinderSplit.usable) ?? false }
    if let drafts = argument("--drafts") { writeDrafts(dir: dir, truthDir: bookfinderTruthDir, to: drafts) }
    if bookfinder.isEmpty { print("note: no annotated Bookfinder photos found in \(dir), skipped") } else {
        let train = bookfinder.filter { !BookfinderSplit.heldOut.contains(BookfinderSplit.number($0.0) ?? 0) }
        let held = bookfinder.filter { BookfinderSplit.heldOut.contains(BookfinderSplit.number($0.0) ?? 0) }
        if !train.isEmpty { _ = evaluate("Bookfinder training", train, detector: detector, overlays: overlays, dump: boundaryDump, boxes: boxDump, looks: classifierDump) }
        if !held.isEmpty { _ = evaluate("Bookfinder held-out", held, detector: detector, overlays: overlays, dump: nil, boxes: boxDump, looks: classifierDump) }
    }
} else {
    print("note: Bookfinder photos not found (set BOOKFINDER_DIR or --bookfinder; scripts/fetch-bookfinder.sh), skipped")
}

// Other homes: phone photos of home shelves from collections no detector setting was chosen on, with a licence
// that allows their use (MinHanLiWesley/book-spine-recognition, Apache-2.0), extracted outside the repository by
// scripts/fetch-home-shelves.sh; ground truth in Benchmarks/home-boxes (see its README for how it was drawn).
// Held out: only measured.
let homesDir = argument("--homes") ?? ProcessInfo.processInfo.environment["HOMES_DIR"]
if let dir = homesDir, fm.fileExists(atPath: dir) {
    let homes = truths(in: argument("--homes-truth") ?? "Benchmarks/home-boxes", imageDir: dir)
    if homes.isEmpty { print("note: no annotated home-shelf photos found in \(dir), skipped") } else {
        _ = evaluate("other homes (held out)", homes, detector: detector, overlays: overlays, dump: nil, boxes: boxDump, looks: classifierDump)
    }
} else {
    print("note: home-shelf photos not found (set HOMES_DIR or --homes; scripts/fetch-home-shelves.sh), skipped")
}

// Library rows: close-ups of a university library's rows in China (Dianaaaa/book-spine-segmentation, MIT), extracted
// outside the repository by scripts/fetch-library-rows.sh; ground truth in Benchmarks/library-rows-boxes (see its
// README). Split by shelf, as the photos' numbers run along them: 01-10 may be chosen on, 11-20 are only measured.
let libraryRowsDir = argument("--library-rows") ?? ProcessInfo.processInfo.environment["LIBRARY_ROWS_DIR"]
if let dir = libraryRowsDir, fm.fileExists(atPath: dir) {
    let rows = truths(in: argument("--library-rows-truth") ?? "Benchmarks/library-rows-boxes", imageDir: dir)
    let heldOut = { (name: String) in (Int(name.split(separator: "-").last ?? "") ?? 0) > 10 }
    if rows.isEmpty { print("note: no annotated library-row photos found in \(dir), skipped") } else {
        let train = rows.filter { !heldOut($0.0) }, held = rows.filter { heldOut($0.0) }
        if !train.isEmpty { _ = evaluate("library rows, choosing", train, detector: detector, overlays: overlays, dump: nil, boxes: boxDump, looks: classifierDump) }
        if !held.isEmpty { _ = evaluate("library rows, held out", held, detector: detector, overlays: overlays, dump: nil, boxes: boxDump, looks: classifierDump) }
    }
} else {
    print("note: library-row photos not found (set LIBRARY_ROWS_DIR or --library-rows; scripts/fetch-library-rows.sh), skipped")
}

// Timing: the scan path's decode (file read, DCT-scaled decode, shrink to 1280) + detect, per large JPEG,
// median of `runs`, this one thread.
let timed = (real + samples + bookfinder).map(\.1.imagePath).filter { p in
    guard p.lowercased().hasSuffix(".jpg") || p.lowercased().hasSuffix(".jpeg"),
          let i = try? ImageDecoder.info(fileAt: p) else { return false }
    return i.width * i.height >= 8_000_000
}
if runs < 1 { print("timing: skipped (--runs 0)") } else if timed.isEmpty { print("timing: no JPEG of 8 MP or more found, skipped") } else {
    var times: [Double] = [], parts: [[Double]] = [[], [], []]
    func ms(_ from: UInt64, _ to: UInt64) -> Double { Double(to - from) / 1e6 }
    for path in timed {
        for _ in 0..<runs {
            let t0 = DispatchTime.now().uptimeNanoseconds
            if let img = try? decodeReduced(path) {
                let t1 = DispatchTime.now().uptimeNanoseconds
                let evidence = textCue?.evidence(img)
                let t2 = DispatchTime.now().uptimeNanoseconds
                _ = detectWith(img, evidence)
                let t3 = DispatchTime.now().uptimeNanoseconds
                parts[0].append(ms(t0, t1)); parts[1].append(ms(t1, t2)); parts[2].append(ms(t2, t3))
            }
            times.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
        }
    }
    times.sort()
    let medians = parts.map { $0.sorted() }.map { $0.isEmpty ? 0 : $0[$0.count / 2] }
    let sizes = Set(timed.compactMap { p -> String? in
        guard let i = try? ImageDecoder.info(fileAt: p) else { return nil }
        return String(format: "%.1f MP", Double(i.width * i.height) / 1e6)
    }).sorted().joined(separator: ", ")
    print(String(format: "timing: median decode(scan path, 1280 px)+%@detect %.1f ms per photo (%d photos x %d runs, %@, one thread)",
                 textCue == nil ? "" : "text cue+",
                 times[times.count / 2], timed.count, runs, sizes))
    print(String(format: "timing parts (medians): decode %.1f ms, text cue %.1f ms, detect%@ %.1f ms", medians[0], medians[1],
                 detectorChoice == "classic" ? "" : " (\(detectorChoice), spine model included)", medians[2]))
}

/// Which Bookfinder photos may be read, and which are held out.
enum BookfinderSplit {
    static let heldOut: Set<Int> = [10, 11, 12, 13, 17, 18, 19]
    static func usable(_ n: Int) -> Bool { (8...25).contains(n) }
    /// 8 for "Shelfslibs_00008" (with or without an extension).
    static func number(_ name: String) -> Int? {
        let stem = ((name as NSString).lastPathComponent as NSString).deletingPathExtension
        guard stem.hasPrefix("Shelfslibs_") else { return nil }
        return Int(stem.dropFirst("Shelfslibs_".count))
    }
}

/// For each usable Bookfinder photo without ground truth yet: the detector's spines as a draft in the shared
/// spine_boxes schema (pixels of the upright photo) and a numbered overlay, for a person to correct.
func writeDrafts(dir: String, truthDir: String, to out: String) {
    try? fm.createDirectory(atPath: out, withIntermediateDirectories: true)
    let names = ((try? fm.contentsOfDirectory(atPath: dir)) ?? []).sorted().filter { n in
        BookfinderSplit.number(n).map(BookfinderSplit.usable) ?? false
    }
    for name in names {
        let stem = (name as NSString).deletingPathExtension
        if fm.fileExists(atPath: (truthDir as NSString).appendingPathComponent(stem + ".json")) { continue }
        let path = (dir as NSString).appendingPathComponent(name)
        guard let info = try? ImageDecoder.info(fileAt: path), let img = try? decodeReduced(path) else { continue }
        let r = detector.detect(img)
        let w = Double(info.uprightWidth), h = Double(info.uprightHeight)
        let spines: [[String: Any]] = r.spines.map { s in
            ["polygon": s.quad.points.map { [Int(($0.x * w).rounded()), Int(($0.y * h).rounded())] },
             "lying": s.lying, "row": s.row, "partial": false]
        }
        let obj: [String: Any] = ["image": name, "width": Int(w), "height": Int(h), "spines": spines]
        if let d = try? JSONSerialization.data(withJSONObject: obj, options: [.sortedKeys]) {
            _ = fm.createFile(atPath: (out as NSString).appendingPathComponent(stem + ".json"), contents: d)
        }
        if let png = try? Overlay.render(img.downscaled(maxSide: 1400), r).pngData() {
            _ = fm.createFile(atPath: (out as NSString).appendingPathComponent(stem + ".png"), contents: Data(png))
        }
    }
}

/// Precision by confidence band: a box in band [a, b) is a hit when it matches a scored truth at IoU >= 0.5,
/// neutral on a don't-care spine, a false positive otherwise. Confidence means something when precision
/// rises with the band, so that `scan --min-confidence` removes mostly wrong boxes.
struct Calibration {
    static let edges = [0.0, 0.2, 0.35, 0.5, 0.65, 0.8, 1.0001]
    var hits = [Int](repeating: 0, count: edges.count - 1)
    var wrong = [Int](repeating: 0, count: edges.count - 1)

    mutating func add(_ spines: [DetectedSpine], _ truth: [([Point], Bool)]) {
        for (s, label) in zip(spines, labels(spines.map(\.quad.points), truth)) {
            guard let label, let band = Self.edges.indices.dropLast().last(where: { Self.edges[$0] <= s.confidence }) else { continue }
            if label == 1 { hits[band] += 1 } else { wrong[band] += 1 }
        }
    }

    func report() -> String {
        var parts: [String] = []
        for b in hits.indices where hits[b] + wrong[b] > 0 {
            let n = hits[b] + wrong[b]
            parts.append(String(format: "[%.2f,%.2f) %d boxes P %.3f", Self.edges[b], min(1, Self.edges[b + 1]), n, Double(hits[b]) / Double(n)))
        }
        let below = (0..<3).reduce((0, 0)) { ($0.0 + hits[$1], $0.1 + wrong[$1]) }
        let dropped = below.0 + below.1
        let tail = dropped == 0 ? "" : String(format: "; --min-confidence 0.5 drops %d boxes, %.0f%% of them wrong", dropped, 100 * Double(below.1) / Double(dropped))
        return "calibration: " + parts.joined(separator: ", ") + tail
    }
}
