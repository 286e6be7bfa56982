import Foundation
import ShelfImage

/// Finds every book spine on an upright shelf photo.
///
/// Works on a small copy (`workingLongSide`), so the cost is fixed whatever the caller passes; every
/// coordinate comes back normalized to the input image, which is also the full photo's frame.
public struct SpineDetector: Sendable {
    public let parameters: DetectorParameters

    public init(parameters: DetectorParameters = .bundled) { self.parameters = parameters }

    public func detect(_ image: RGBImage) -> DetectionResult {
        let p = parameters
        guard image.width >= 8, image.height >= 8 else { return DetectionResult(rows: [], spines: []) }
        let work = image.downscaled(maxSide: max(32, p.workingLongSide))
        let maps = EdgeMaps(work, edgeFloor: p.edgeFloor, edgeCap: p.edgeCap)
        let W = Double(maps.width), H = Double(maps.height)
        var rows: [ShelfRow] = []
        var spines: [DetectedSpine] = []
        var ceiling = 0
        for band in RowFinder.rows(maps, p) {
            defer { ceiling = band.bottom + 1 }
            let rowIndex = rows.count
            rows.append(ShelfRow(index: rowIndex, top: Double(band.top) / H, bottom: Double(band.bottom + 1) / H))
            let found = RowSpines.find(maps, band, ceiling: ceiling, p)
            for (k, s) in found.enumerated() {
                let q = Quad(topLeft: norm(s.quad.topLeft, W, H), topRight: norm(s.quad.topRight, W, H),
                             bottomRight: norm(s.quad.bottomRight, W, H), bottomLeft: norm(s.quad.bottomLeft, W, H))
                spines.append(DetectedSpine(quad: q, row: rowIndex, position: k, confidence: s.confidence, lying: s.lying))
            }
        }
        return DetectionResult(rows: rows, spines: spines)
    }

    /// Every local peak of the boundary score in every row, with the cues behind it: the training data
    /// for the boundary weights (eval-detection --dump-boundaries, scripts/fit-boundaries.py).
    public func boundaryCandidates(_ image: RGBImage) -> [BoundaryCandidate] {
        let p = parameters
        guard image.width >= 8, image.height >= 8 else { return [] }
        let work = image.downscaled(maxSide: max(32, p.workingLongSide))
        let maps = EdgeMaps(work, edgeFloor: p.edgeFloor, edgeCap: p.edgeCap)
        var out: [BoundaryCandidate] = []
        for (i, band) in RowFinder.rows(maps, p).enumerated() {
            let prof = BoundaryScorer.profile(maps, top: band.top, bottom: band.bottom, p)
            let s = prof.score
            for x in 1..<max(1, s.count - 1) where s[x] >= s[x - 1] && s[x] > s[x + 1] && s[x] >= 0.3 * p.boundaryThreshold {
                out.append(BoundaryCandidate(row: i, top: Double(band.top) / Double(maps.height),
                                             bottom: Double(band.bottom + 1) / Double(maps.height),
                                             x: (Double(x) + 0.5) / Double(maps.width), score: s[x], cues: prof.cues[x]))
            }
        }
        return out
    }

    private func norm(_ pt: Point, _ w: Double, _ h: Double) -> Point {
        Point(x: min(1, max(0, pt.x / w)), y: min(1, max(0, pt.y / h)))
    }
}
