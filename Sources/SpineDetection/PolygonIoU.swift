import ShelfImage

/// Intersection over union of two convex polygons (Sutherland–Hodgman clipping), for scoring detections
/// against ground truth quads exactly, tilt included.
public enum PolygonIoU {
    public static func iou(_ a: [Point], _ b: [Point]) -> Double {
        let areaA = abs(signedArea(a)), areaB = abs(signedArea(b))
        guard areaA > 0, areaB > 0 else { return 0 }
        let inter = abs(signedArea(clip(a, by: b)))
        let union = areaA + areaB - inter
        return union > 0 ? inter / union : 0
    }

    public static func signedArea(_ p: [Point]) -> Double {
        guard p.count >= 3 else { return 0 }
        var s = 0.0
        for i in p.indices {
            let j = (i + 1) % p.count
            s += p[i].x * p[j].y - p[j].x * p[i].y
        }
        return s / 2
    }

    /// `subject` clipped to the convex polygon `clipper` (either winding).
    static func clip(_ subject: [Point], by clipper: [Point]) -> [Point] {
        let orientation: Double = signedArea(clipper) >= 0 ? 1 : -1
        var output = subject
        for i in clipper.indices {
            guard !output.isEmpty else { break }
            let a = clipper[i], b = clipper[(i + 1) % clipper.count]
            func inside(_ p: Point) -> Bool { orientation * ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)) >= 0 }
            func intersection(_ p: Point, _ q: Point) -> Point {
                let a1 = b.y - a.y, b1 = a.x - b.x, c1 = a1 * a.x + b1 * a.y
                let a2 = q.y - p.y, b2 = p.x - q.x, c2 = a2 * p.x + b2 * p.y
                let det = a1 * b2 - a2 * b1
                guard abs(det) > 1e-12 else { return p }
                return Point(x: (b2 * c1 - b1 * c2) / det, y: (a1 * c2 - a2 * c1) / det)
            }
            let input = output
            output = []
            for k in input.indices {
                let current = input[k], previous = input[(k + input.count - 1) % input.count]
                if inside(current) {
                    if !inside(previous) { output.append(intersection(previous, current)) }
                    output.append(current)
                } else if inside(previous) {
                    output.append(intersection(previous, current))
                }
            }
        }
        return output
    }
}

/// Precision, recall and F1 at an IoU threshold with one-to-one matching, the detection metric every
/// figure in this project quotes. Ground-truth spines marked `partial` are don't-care: a detection
/// matched to one is neither a hit nor a false positive, and missing one is not a miss.
public struct DetectionScore: Sendable, Equatable {
    public var truePositives = 0
    public var falsePositives = 0
    public var falseNegatives = 0
    public var iouSum = 0.0

    public init() {}

    public var precision: Double { Double(truePositives) / Double(max(1, truePositives + falsePositives)) }
    public var recall: Double { Double(truePositives) / Double(max(1, truePositives + falseNegatives)) }
    public var f1: Double { precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0 }
    /// Mean IoU of the matched pairs.
    public var meanIoU: Double { truePositives > 0 ? iouSum / Double(truePositives) : 0 }

    public static func + (a: DetectionScore, b: DetectionScore) -> DetectionScore {
        var s = a
        s.truePositives += b.truePositives; s.falsePositives += b.falsePositives
        s.falseNegatives += b.falseNegatives; s.iouSum += b.iouSum
        return s
    }

    /// Greedy one-to-one matching, best IoU first (on quads, the same as optimal in all but contrived cases).
    public static func score(detections: [[Point]], truth: [(polygon: [Point], partial: Bool)], threshold: Double = 0.5) -> DetectionScore {
        var pairs: [(Double, Int, Int)] = []
        for (i, d) in detections.enumerated() {
            for (j, t) in truth.enumerated() {
                let v = PolygonIoU.iou(d, t.polygon)
                if v >= threshold { pairs.append((v, i, j)) }
            }
        }
        pairs.sort { $0.0 > $1.0 }
        var usedD = Set<Int>(), usedT = Set<Int>()
        var score = DetectionScore()
        for (v, i, j) in pairs where !usedD.contains(i) && !usedT.contains(j) {
            usedD.insert(i); usedT.insert(j)
            if !truth[j].partial { score.truePositives += 1; score.iouSum += v }
        }
        for i in detections.indices where !usedD.contains(i) {
            // An unmatched detection lying on a don't-care spine is not counted against the detector.
            let onPartial = truth.contains { $0.partial && PolygonIoU.iou(detections[i], $0.polygon) >= threshold }
            if !onPartial { score.falsePositives += 1 }
        }
        score.falseNegatives = truth.indices.filter { !usedT.contains($0) && !truth[$0].partial }.count
        return score
    }
}
