import ShelfImage

/// Intersection over union of convex polygons: the score every evaluation and test uses, so a tilted
/// spine is judged by its quad, not by an axis-aligned box that would flatter tilted guesses.
public enum PolygonIoU {
    public static func area(_ poly: [Point]) -> Double {
        guard poly.count >= 3 else { return 0 }
        var s = 0.0
        for i in 0..<poly.count {
            let a = poly[i], b = poly[(i + 1) % poly.count]
            s += a.x * b.y - b.x * a.y
        }
        return abs(s) / 2
    }

    /// The share of `a` inside `b` (0 for a degenerate `a`): how much of a new box lies over one already kept.
    public static func covered(_ a: [Point], by b: [Point]) -> Double {
        let aa = area(a)
        return aa > 0 ? area(intersection(a, b)) / aa : 0
    }

    /// Counter-clockwise order (in y-down coordinates: as the signed area sees it), so clipping is consistent.
    static func oriented(_ poly: [Point]) -> [Point] {
        var s = 0.0
        for i in 0..<poly.count {
            let a = poly[i], b = poly[(i + 1) % poly.count]
            s += a.x * b.y - b.x * a.y
        }
        return s < 0 ? poly.reversed() : poly
    }

    /// Sutherland–Hodgman clipping of `subject` by the convex `clip`.
    public static func intersection(_ subject: [Point], _ clip: [Point]) -> [Point] {
        guard subject.count >= 3, clip.count >= 3 else { return [] }
        let c = oriented(clip)
        var out = oriented(subject)
        for i in 0..<c.count {
            let a = c[i], b = c[(i + 1) % c.count]
            func inside(_ p: Point) -> Bool { (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) >= 0 }
            func cross(_ p: Point, _ q: Point) -> Point {
                let d1 = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
                let d2 = (b.x - a.x) * (q.y - a.y) - (b.y - a.y) * (q.x - a.x)
                let t = d1 / (d1 - d2)
                return Point(x: p.x + t * (q.x - p.x), y: p.y + t * (q.y - p.y))
            }
            let input = out
            out = []
            guard !input.isEmpty else { break }
            for j in 0..<input.count {
                let p = input[j], q = input[(j + 1) % input.count]
                let pin = inside(p), qin = inside(q)
                if pin {
                    out.append(p)
                    if !qin { out.append(cross(p, q)) }
                } else if qin {
                    out.append(cross(p, q))
                }
            }
        }
        return out
    }

    public static func iou(_ a: [Point], _ b: [Point]) -> Double {
        let inter = area(intersection(a, b))
        let union = area(a) + area(b) - inter
        return union > 0 ? inter / union : 0
    }

    public static func iou(_ a: Quad, _ b: Quad) -> Double { iou(a.points, b.points) }
}

/// One-to-one matching of detections to ground truth, greedy by IoU (highest pairs first), with
/// don't-care truths: a detection matched to one is neither a hit nor a false positive.
public struct DetectionScore: Sendable, Equatable {
    public var hits = 0
    public var falsePositives = 0
    public var misses = 0
    public var truePositives: Int { hits }
    public var falseNegatives: Int { misses }
    public var iouSum = 0.0

    public init() {}

    public var precision: Double { hits + falsePositives == 0 ? 1 : Double(hits) / Double(hits + falsePositives) }
    public var recall: Double { hits + misses == 0 ? 1 : Double(hits) / Double(hits + misses) }
    public var f1: Double { precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall) }
    /// Mean IoU over the hits.
    public var meanIoU: Double { hits == 0 ? 0 : iouSum / Double(hits) }

    public static func + (l: DetectionScore, r: DetectionScore) -> DetectionScore {
        var s = l
        s.hits += r.hits; s.falsePositives += r.falsePositives; s.misses += r.misses; s.iouSum += r.iouSum
        return s
    }

    /// `truth` entries are (polygon, dontCare). Polygons in any common frame (e.g. normalized).
    public static func score(detections: [[Point]], truth: [(polygon: [Point], partial: Bool)], threshold: Double = 0.5) -> DetectionScore {
        let pairs = matches(detections: detections, truth: truth.map(\.polygon), threshold: threshold)
        var s = DetectionScore()
        for m in pairs where !truth[m.truth].partial { s.hits += 1; s.iouSum += m.iou }
        s.falsePositives = detections.count - pairs.count
        let matchedTruth = Set(pairs.map(\.truth))
        s.misses = truth.indices.filter { !matchedTruth.contains($0) && !truth[$0].partial }.count
        return s
    }

    /// The one-to-one matching itself: pairs at IoU >= threshold, taken greedily from the highest IoU.
    public static func matches(detections: [[Point]], truth: [[Point]], threshold: Double = 0.5)
        -> [(detection: Int, truth: Int, iou: Double)] {
        var pairs: [(Double, Int, Int)] = []
        for (i, d) in detections.enumerated() {
            for (j, t) in truth.enumerated() {
                let v = PolygonIoU.iou(d, t)
                if v >= threshold { pairs.append((v, i, j)) }
            }
        }
        pairs.sort { $0.0 > $1.0 }
        var usedD = Set<Int>(), usedT = Set<Int>()
        var out: [(detection: Int, truth: Int, iou: Double)] = []
        for (v, i, j) in pairs where !usedD.contains(i) && !usedT.contains(j) {
            usedD.insert(i); usedT.insert(j)
            out.append((i, j, v))
        }
        return out
    }
}
