import ShelfImage
import SpineDetection

/// The classic detector's rows, on the photo turned upright first, optionally with the learned model's books added
/// where the classic detector found nothing.
///
/// On real home shelves the classic row model (edges, print, a prior on spine widths) is the more precise on
/// standing rows, while the learned model finds books in any orientation and so sees which way a photo was taken. So
/// the learned model's books say which way is up and the classic detector runs on the upright photo. Adding the
/// model's sure books where no classic box covers them is measurable (`eval-detection --add-confidence`) but off in
/// the shipped manifest: on the measured sets it added more wrong boxes than books (README, "Finding spines").
public struct FusedDetection: Sendable {
    public var model: SpineModel
    /// A learned book is added when its confidence is at least this and it overlaps no classic box; nil adds none.
    public var addConfidence: Double?
    /// Whether learned books standing upright are added too, or only those lying down.
    public var addStanding: Bool

    public init(model: SpineModel, addConfidence: Double? = nil, addStanding: Bool? = nil) {
        self.model = model
        self.addConfidence = addConfidence ?? model.manifest.fusion?.addConfidence
        self.addStanding = addStanding ?? model.manifest.fusion?.addStanding ?? false
    }

    /// Detects the books in `image` (the upright-by-EXIF photo at any size); `classic` runs the classic detector
    /// (with its text cue) on the image it is given, which is `image` turned by the quarter turns it is told (0: as
    /// given, so a cue already run on `image` serves).
    public func detect(_ image: RGBImage, classic: (RGBImage, Int) -> DetectionResult) -> DetectionResult {
        let found = model.found(image)
        let w = Double(image.width), h = Double(image.height)
        let asTaken = classic(image, 0)
        var turns = 0
        var result = asTaken
        if let (suspected, agreement, books) = SpineLayout.orientation(found, width: w, height: h), suspected != 0 {
            // The model's books say the photo is turned. The classic detector settles it: it runs on the photo
            // turned each way the books allow (a sideways photo either way round, since which end is down is the
            // weaker half of the evidence) and a turn is kept where it finds more than on the photo as taken:
            // clearly more unless nearly all of many books agree (a few books lying on a table also run across
            // the photo, and stay as they are).
            // Books standing count full, lying ones half: on a sideways photo as taken the classic detector takes
            // the standing books for a stack lying flat, and finds about as many.
            func weight(_ r: DetectionResult) -> Double { r.spines.reduce(0) { $0 + $1.confidence * ($1.lying ? 0.25 : 1) } }
            let plain = suspected != 2 && agreement >= 0.8 && books >= 8
            var best = plain ? weight(asTaken) : weight(asTaken) * 1.25 + 0.5
            let candidates = suspected == 2 ? [2] : [suspected, 4 - suspected]
            for t in candidates {
                let upright = image.rotated(t == 1 ? .clockwise90 : t == 2 ? .half : .counterClockwise90)
                let turned = classic(upright, t)
                if weight(turned) > best { (best, result, turns) = (weight(turned), turned, t) }
            }
        }
        // Classic quads back into the photo's own coordinates (rows stay in the upright frame).
        if turns != 0 {
            for i in result.spines.indices {
                let p = result.spines[i].quad.points.map { SpineLayout.photoPoint(fromUpright: $0, turns: turns) }
                result.spines[i].quad = Quad(topLeft: p[0], topRight: p[1], bottomRight: p[2], bottomLeft: p[3])
                result.spines[i].boundingBox = NormalizedRect(enclosing: p)
            }
            result.quarterTurns = turns
        }
        guard let addConfidence else { return result }
        // The model's own layout only where its books may join: off (the shipped default), none is made.
        let learned = SpineLayout.arrange(found, width: w, height: h, turns: turns)
        let added = learned.spines.filter { spine in
            spine.confidence >= addConfidence && (addStanding || spine.lying)
                && !result.spines.contains { PolygonIoU.iou($0.quad, spine.quad) > 0.2
                    || PolygonIoU.covered(spine.quad.points, by: $0.quad.points) > 0.3
                    || PolygonIoU.covered($0.quad.points, by: spine.quad.points) > 0.3 }
        }
        guard !added.isEmpty else { return result }
        return Self.merged(result, added, turns: turns)
    }

    /// `extra` books joined to `result`'s rows (the row their middle stands in, in the upright frame, else the
    /// nearest) and every row renumbered left to right.
    static func merged(_ result: DetectionResult, _ extra: [DetectedSpine], turns: Int) -> DetectionResult {
        var out = result
        func middle(_ s: DetectedSpine) -> Point {
            let p = s.quad.points.map { SpineLayout.uprightPoint(fromPhoto: $0, turns: turns) }
            return Point(x: p.map(\.x).reduce(0, +) / 4, y: p.map(\.y).reduce(0, +) / 4)
        }
        if out.rows.isEmpty, !extra.isEmpty {
            let ys = extra.flatMap { $0.quad.points.map { SpineLayout.uprightPoint(fromPhoto: $0, turns: turns).y } }
            out.rows = [ShelfRow(index: 0, top: max(0, ys.min()!), bottom: min(1, ys.max()!))]
        }
        for var s in extra {
            let y = middle(s).y
            s.row = out.rows.firstIndex { $0.top <= y && y <= $0.bottom }
                ?? out.rows.indices.min { abs((out.rows[$0].top + out.rows[$0].bottom) / 2 - y) < abs((out.rows[$1].top + out.rows[$1].bottom) / 2 - y) }!
            out.spines.append(s)
        }
        let order = out.spines.indices.sorted { a, b in
            let (sa, sb) = (out.spines[a], out.spines[b])
            if sa.row != sb.row { return sa.row < sb.row }
            let (ma, mb) = (middle(sa), middle(sb))
            return (ma.x, ma.y) < (mb.x, mb.y)
        }
        var position: [Int: Int] = [:]
        out.spines = order.map { i in
            var s = out.spines[i]
            s.position = position[s.row, default: 0]
            position[s.row, default: 0] += 1
            return s
        }
        return out
    }
}
