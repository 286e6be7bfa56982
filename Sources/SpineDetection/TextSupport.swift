import Foundation
import ShelfImage

/// How the text detector's evidence bears on the spines found by edges alone.
///
/// Print is absolute evidence only where the text detector can see it at all: on a dense shelf of thin
/// spines photographed from afar their titles are a few pixels high at the cue's resolution and most true
/// spines read as unprinted. So a box is judged against its neighbours: a box without print among
/// printed ones (a cabinet side, a post, the wall beyond the last book) is suspicious; one among others
/// the detector could not read either tells nothing.
enum TextSupport {
    /// A box counts as carrying print from this share of its area on: a title covers a good part of a
    /// spine, a stray detection on wood grain a speck.
    static let printedFloor = 0.02

    /// Cues per box of one row, in the order they end `SpineDetector.confidenceCueNames`, from the share
    /// of each box the text detector called print.
    ///
    /// - `printed`: the box's own share, capped at 0.5 (beyond it a box is no more a spine).
    /// - `unprintedRow`: for a box without print, the share of the other boxes of its row that carry
    ///   print (1: every other box does); 0 for a printed box and in a row the detector could not read.
    static func rowCues(printed: [Double]) -> [[Double]] {
        let printedInRow = printed.filter { $0 >= printedFloor }.count
        return printed.map { p in
            guard p < printedFloor else { return [min(0.5, p), 0] }
            return [p, printed.count > 1 ? Double(printedInRow) / Double(printed.count - 1) : 0]
        }
    }
}

extension TextSupport {
    /// A spine's title runs along it in one line; two boxes a title line crosses from one into the other
    /// are one spine cut along its print (a title's edge, a colour band), so they are joined. Only lines
    /// along the boxes' axis count: a line across a row may run over several thin spines.
    ///
    /// `found` and `quads` are one row's boxes left to right, in the working frame and normalized to the
    /// photo; `aspect` is the photo's width over its height, so that angles are measured undistorted.
    static func joiningSplits(_ found: [RowSpines.Found], _ quads: [Quad], lines: [TextLine], aspect: Double,
                              maxAlongAngleDegrees: Double = 10, minShare: Double = 0.3) -> ([RowSpines.Found], [Quad]) {
        var found = found, quads = quads
        guard !lines.isEmpty else { return (found, quads) }
        func iso(_ p: Point) -> Point { Point(x: p.x * aspect, y: p.y) }
        let cosMax = cos(maxAlongAngleDegrees * .pi / 180)
        // A spine cut in two leaves two pieces narrower than the row's typical spine.
        let widths = found.filter { !$0.lying }.map { width($0.quad) }.sorted()
        guard !widths.isEmpty else { return (found, quads) }
        let typical = widths[widths.count / 2]
        var k = 0
        while k + 1 < found.count {
            guard !found[k].lying, !found[k + 1].lying, width(found[k].quad) < typical, width(found[k + 1].quad) < typical,
                  crossed(left: quads[k].points.map(iso), right: quads[k + 1].points.map(iso),
                          lines: lines.map { $0.quad.points.map(iso) }, cosMax: cosMax, minShare: minShare) else { k += 1; continue }
            let a = found[k], b = found[k + 1]
            let wa = width(a.quad), wb = width(b.quad), wsum = max(1e-9, wa + wb)
            func mix(_ x: Double, _ y: Double) -> Double { (x * wa + y * wb) / wsum }
            found[k] = RowSpines.Found(quad: Quad(topLeft: a.quad.topLeft, topRight: b.quad.topRight,
                                                  bottomRight: b.quad.bottomRight, bottomLeft: a.quad.bottomLeft),
                                       confidence: (a.confidence + b.confidence) / 2, lying: false,
                                       texture: mix(a.texture, b.texture), lumaSD: mix(a.lumaSD, b.lumaSD), chroma: mix(a.chroma, b.chroma))
            quads[k] = Quad(topLeft: quads[k].topLeft, topRight: quads[k + 1].topRight,
                            bottomRight: quads[k + 1].bottomRight, bottomLeft: quads[k].bottomLeft)
            found.remove(at: k + 1); quads.remove(at: k + 1)
        }
        return (found, quads)
    }

    /// Whether a text line along the two boxes' axis lies across the side they share, with at least
    /// `minShare` of its thickness on either side and within the two boxes' extent along the axis.
    static func crossed(left: [Point], right: [Point], lines: [[Point]], cosMax: Double, minShare: Double) -> Bool {
        // The shared side, from its foot to its top, and the axis it runs along.
        let foot = mid(left[2], right[3]), top = mid(left[1], right[0])
        let axisLength = hypot(top.x - foot.x, top.y - foot.y)
        guard axisLength > 0 else { return false }
        let ax = Point(x: (top.x - foot.x) / axisLength, y: (top.y - foot.y) / axisLength)
        let across = Point(x: -ax.y, y: ax.x)
        // Each box's far side, measured across from the shared one: a line must stay inside the pair.
        func reach(_ p: Point) -> Double { abs((p.x - foot.x) * across.x + (p.y - foot.y) * across.y) }
        let leftReach = reach(mid(left[0], left[3])), rightReach = reach(mid(right[1], right[2]))
        for line in lines {
            let dx = line[1].x - line[0].x, dy = line[1].y - line[0].y
            let length = hypot(dx, dy)
            guard length > 0, abs((dx * ax.x + dy * ax.y) / length) >= cosMax else { continue }
            let offsets = line.map { ($0.x - foot.x) * across.x + ($0.y - foot.y) * across.y }
            let along = line.map { ($0.x - foot.x) * ax.x + ($0.y - foot.y) * ax.y }
            guard let lo = offsets.min(), let hi = offsets.max(), hi - lo > 0,
                  along.min()! > -0.1 * axisLength, along.max()! < 1.1 * axisLength else { continue }
            // `across` points from the left box into the right one when the axis runs upwards (y down).
            let leftPart = across.x < 0 ? hi : -lo, rightPart = across.x < 0 ? -lo : hi
            let thickness = hi - lo
            if leftPart >= minShare * thickness, rightPart >= minShare * thickness,
               leftPart <= leftReach + 0.1 * thickness, rightPart <= rightReach + 0.1 * thickness { return true }
        }
        return false
    }

    private static func mid(_ a: Point, _ b: Point) -> Point { Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2) }

    private static func width(_ q: Quad) -> Double {
        (hypot(q.topRight.x - q.topLeft.x, q.topRight.y - q.topLeft.y) + hypot(q.bottomRight.x - q.bottomLeft.x, q.bottomRight.y - q.bottomLeft.y)) / 2
    }
}
