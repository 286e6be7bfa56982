import Foundation
import ShelfImage

/// What a candidate box looks like, as numbers a learned classifier can weigh: the box is sampled upright into a
/// small fixed grid, with a quarter of its width of margin on either side so that its own sides (a book's edges
/// against its neighbours, or a gap's against two books) are in view.
///
/// The hand-made cues say how strong a box's boundaries are and how its size fits the row; they cannot tell a
/// pale wall between two books, a plant's leaves or a cabinet side from a plain spine. The edge profiles across
/// and along the grid and the colour inside against the margins can, and `BoxClassifier` is fitted on them
/// (scripts/fit-box-classifier.py). A coarse brightness pattern of the grid was tried too: it learnt the
/// synthetic shelves' drawing and did no better on real photos (cross-validated on the training photos).
enum BoxAppearance {
    /// Grid size: across the book, along it.
    static let gridWidth = 24, gridHeight = 72
    /// Margin on either side, as a share of the box's width, and at top and foot, as a share of its height.
    static let sideMargin = 0.25, endMargin = 0.03

    /// Feature names, in order: the box's width against its row's (`widthsInRow`), then from the grid: 23 edge
    /// strengths across it (column to column), 14 along it (row bands), the mean colour inside and in the margins,
    /// the colour spread inside, the difference between inside and margins, the saturation and the edge density
    /// of the middle.
    static let names: [String] = ["widthInRow"] + (0..<23).map { "across\($0)" } + (0..<14).map { "along\($0)" }
        + ["insideR", "insideG", "insideB", "marginR", "marginG", "marginB", "spreadR", "spreadG", "spreadB",
           "contrastR", "contrastG", "contrastB", "saturation", "middleTexture"]

    /// For each box of a row, log(its width / the median width of the row's standing boxes). A merge is wide
    /// against its neighbours; a close-up of a few thick books is wide against the photo but not against its row,
    /// which the width cue (against the row's height) cannot tell apart.
    static func widthsInRow(_ found: [RowSpines.Found]) -> [Double] {
        let widths = found.map { TextSupport.width($0.quad) }
        let standing = zip(found, widths).filter { !$0.0.lying }.map(\.1).sorted()
        guard !standing.isEmpty else { return found.map { _ in 0 } }
        let median = max(1e-6, standing[standing.count / 2])
        return widths.map { log(max(1e-6, $0) / median) }
    }

    /// The grid features of `quad` (working-frame pixels, corners as the book stands: top left, top right, bottom
    /// right, bottom left) in `maps`' colour planes: all of `names` but the first.
    static func features(_ maps: EdgeMaps, _ quad: Quad) -> [Double] {
        let gw = gridWidth, gh = gridHeight
        let tl = quad.topLeft, tr = quad.topRight, br = quad.bottomRight, bl = quad.bottomLeft
        // Widened corners: across (top left → top right) by the side margin, along (top → foot) by the end margin.
        func shifted(_ p: Point, across a: Double, along b: Double, _ ax: Point, _ ay: Point) -> Point {
            Point(x: p.x + a * ax.x + b * ay.x, y: p.y + a * ax.y + b * ay.y)
        }
        let acrossTop = Point(x: tr.x - tl.x, y: tr.y - tl.y), acrossFoot = Point(x: br.x - bl.x, y: br.y - bl.y)
        let alongLeft = Point(x: bl.x - tl.x, y: bl.y - tl.y), alongRight = Point(x: br.x - tr.x, y: br.y - tr.y)
        let m = sideMargin, e = endMargin
        let c00 = shifted(tl, across: -m, along: -e, acrossTop, alongLeft), c10 = shifted(tr, across: m, along: -e, acrossTop, alongRight)
        let c11 = shifted(br, across: m, along: e, acrossFoot, alongRight), c01 = shifted(bl, across: -m, along: e, acrossFoot, alongLeft)
        var r = [Double](repeating: 0, count: gw * gh), g = r, b = r, grey = r
        let w = maps.width, h = maps.height
        maps.red.withUnsafeBufferPointer { rp in maps.green.withUnsafeBufferPointer { gp in maps.blue.withUnsafeBufferPointer { bp in
            for j in 0..<gh {
                let v = (Double(j) + 0.5) / Double(gh)
                for i in 0..<gw {
                    let u = (Double(i) + 0.5) / Double(gw)
                    let x = c00.x * (1 - u) * (1 - v) + c10.x * u * (1 - v) + c11.x * u * v + c01.x * (1 - u) * v
                    let y = c00.y * (1 - u) * (1 - v) + c10.y * u * (1 - v) + c11.y * u * v + c01.y * (1 - u) * v
                    // Bilinear, pixel centres at +0.5, clamped to the photo's edge.
                    let fx = min(Double(w - 1), max(0, x - 0.5)), fy = min(Double(h - 1), max(0, y - 0.5))
                    let x0 = Int(fx), y0 = Int(fy), x1 = min(w - 1, x0 + 1), y1 = min(h - 1, y0 + 1)
                    let ax = fx - Double(x0), ay = fy - Double(y0)
                    func at(_ p: UnsafeBufferPointer<Float>) -> Double {
                        let top = Double(p[y0 * w + x0]) * (1 - ax) + Double(p[y0 * w + x1]) * ax
                        let foot = Double(p[y1 * w + x0]) * (1 - ax) + Double(p[y1 * w + x1]) * ax
                        return (top * (1 - ay) + foot * ay) / 255
                    }
                    let k = j * gw + i
                    r[k] = at(rp); g[k] = at(gp); b[k] = at(bp)
                    grey[k] = (r[k] + g[k] + b[k]) / 3
                }
            }
        }}}
        var out: [Double] = []
        out.reserveCapacity(names.count - 1)
        var across = [Double](repeating: 0, count: gw - 1)
        for j in 0..<gh { for i in 0..<(gw - 1) { across[i] += abs(grey[j * gw + i + 1] - grey[j * gw + i]) / Double(gh) } }
        out += across
        var along = [Double](repeating: 0, count: 14)
        for j in 0..<70 { for i in 0..<gw { along[j / 5] += abs(grey[(j + 1) * gw + i] - grey[j * gw + i]) / Double(5 * gw) } }
        out += along
        func stats(_ plane: [Double], _ cols: [Int]) -> (mean: Double, sd: Double) {
            var s = 0.0, s2 = 0.0
            for j in 0..<gh { for i in cols { let v = plane[j * gw + i]; s += v; s2 += v * v } }
            let n = Double(gh * cols.count), m = s / n
            return (m, max(0, s2 / n - m * m).squareRoot())
        }
        let middle = Array(6..<18), margins = Array(0..<5) + Array(19..<24)
        let inside = [r, g, b].map { stats($0, middle) }, outside = [r, g, b].map { stats($0, margins).mean }
        out += inside.map(\.mean) + outside + inside.map(\.sd) + zip(inside, outside).map { abs($0.mean - $1) }
        var saturation = 0.0
        for k in 0..<(gw * gh) { saturation += max(r[k], g[k], b[k]) - min(r[k], g[k], b[k]) }
        out.append(saturation / Double(gw * gh))
        var acrossMiddle = 0.0, alongMiddle = 0.0
        for j in 0..<gh { for i in 7..<16 { acrossMiddle += abs(grey[j * gw + i + 1] - grey[j * gw + i]) } }
        for j in 0..<(gh - 1) { for i in 6..<18 { alongMiddle += abs(grey[(j + 1) * gw + i] - grey[j * gw + i]) } }
        out.append(acrossMiddle / Double(gh * 9) + alongMiddle / Double((gh - 1) * 12))
        return out
    }
}
