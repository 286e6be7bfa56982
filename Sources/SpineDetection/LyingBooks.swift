import Foundation
import ShelfImage

/// Books lying down that the rows' spine cuts miss: covers lying face up on or in front of a row, and
/// lying books seen spine-on. The row finder looks for long vertical boundaries, which neither has; what
/// both have is print running across the photo (a cover's title, author and publisher lines, a spine-on
/// book's one line), where an upright spine's print runs up and down. So the text detector's horizontal
/// lines that no standing box holds are grouped into clusters, and each cluster's book is a straight
/// outline around it: searched outward from the cluster's hull side by side, each side a line free to
/// tilt (a cover on a board is seen in perspective), scored by how much of it runs on an edge and how
/// much the colour changes across it; of the strong lines, the first with the ground beyond it (a
/// cover's own panels and a page block's edge are as straight). A cluster whose outline is cut by
/// full-length edges into long thin bands, each holding print, is a stack seen spine-on: one book per
/// band. Closed outlines on the edge map alone and colour regions grown on a board both failed here
/// (grain, concrete and shading break a board apart); the print says where a book is before any edge
/// is trusted.
///
/// Works in the detector's working frame (levelled when the photo was), like the row finder.
enum LyingBooks {
    struct Found {
        /// As the book would stand (see `DetectedSpine.quad`), working-frame pixels.
        var quad: Quad
        var confidence: Double
        /// The same corners as seen: TL is the top left of the print as it reads.
        var seen: Quad
        /// A long thin outline round its print: a book seen spine-on.
        var spineOn: Bool
    }

    /// One text line in the working frame: centre, unit direction along the text (pointing right),
    /// length along it and thickness across it.
    struct Line {
        var centre: Point
        var along: Point
        var length: Double
        var thickness: Double
        var corners: [Point]
    }

    /// `standing`: the boxes the row finder kept (working frame), whose print is theirs, and whether each
    /// is a lying one. `across`: `acrossLines` when the caller has it already (the detector reads it for the
    /// board rows too); nil reads it here.
    static func find(_ m: EdgeMaps, deskew: Deskew?, text: TextEvidence, standing kept: [(quad: Quad, lying: Bool)],
                     across: [Line]? = nil, _ p: DetectorParameters) -> [Found] {
        let standing = kept.map(\.quad), upright = kept.filter { !$0.lying }.map(\.quad)
        guard let maxAngle = p.lyingTextMaxAngle, maxAngle > 0 else { return [] }
        let lines = (across ?? acrossLines(text, m, deskew: deskew, maxAngle: maxAngle)).filter { l in
            !standing.contains { TextEvidence.contains($0.points, l.centre) }
        }
        var out: [Found] = []
        for cluster in clusters(lines) {
            for f in books(around: cluster, m, text: text, deskew: deskew, p) {
                // Never a second box on a book the rows already hold, nor on one found from another cluster.
                if standing.contains(where: { PolygonIoU.iou($0, f.quad) > 0.3 || PolygonIoU.covered($0.points, by: f.quad.points) > 0.6 }) { continue }
                // A box running over standing spines is print on them or on a face-out cover among them
                // (their boxes stop short of its print), not a book lying down.
                if upright.reduce(0, { $0 + PolygonIoU.covered(f.seen.points, by: $1.points) }) > 0.2 { continue }
                // Print under the feet of a row of standing books is the shelf's label strip.
                if f.spineOn && feetOn(f.seen, upright) > 0.3 { continue }
                if out.contains(where: { overlap($0.quad, f.quad) > 0.3 }) { continue }
                out.append(f)
            }
        }
        return out
    }

    /// The print running across the photo, in the working frame: the text detector's lines, and the print
    /// its line-finding passed over (small or thin strokes, as a cover's subtitle seen at a slant): blobs of
    /// the probability map outside every line.
    static func acrossLines(_ text: TextEvidence, _ m: EdgeMaps, deskew: Deskew?, maxAngle: Double) -> [Line] {
        let W = Double(m.width), H = Double(m.height)
        let toWork = { (q: Point) -> Point in
            let pt = Point(x: q.x * W, y: q.y * H)
            return deskew?.levelled(pt) ?? pt
        }
        let blobs = printBlobs(text).filter { b in
            let c = TextEvidence.centre(b.points)
            return !text.lines.contains { TextEvidence.contains($0.quad.points, c) }
        }
        var lines: [Line] = []
        for q in text.lines.map(\.quad) + blobs {
            let c = q.points.map(toWork)
            let dx = (c[1].x - c[0].x + c[2].x - c[3].x) / 2, dy = (c[1].y - c[0].y + c[2].y - c[3].y) / 2
            let length = hypot(dx, dy)
            let thickness = (hypot(c[3].x - c[0].x, c[3].y - c[0].y) + hypot(c[2].x - c[1].x, c[2].y - c[1].y)) / 2
            guard length > 0, thickness > 0 else { continue }
            var u = Point(x: dx / length, y: dy / length)
            if u.x < 0 { u = Point(x: -u.x, y: -u.y) }
            // Across the photo, and a line rather than a blot (a single letter or a logo runs either way).
            guard abs(atan2(u.y, u.x)) * 180 / .pi <= maxAngle, length >= 1.5 * thickness else { continue }
            lines.append(Line(centre: TextEvidence.centre(c), along: u, length: length, thickness: thickness, corners: c))
        }
        return lines
    }

    /// Boards holding books lying down and nothing standing. The row finder marks rows by the vertical edges
    /// of standing spines, so a board with only stacks on it, a painted back behind them, makes no row, and
    /// its books are left to their print alone, which misses the books whose print it does not find. Where
    /// print runs across the photo outside every row and a line runs under it far past its ends (a board's
    /// edge; the edges between books in a stack stop with the books), that board becomes a row of its own,
    /// as tall as the photo's rows (with none, a little more than the print is long), so that the rows'
    /// stack search (`RowSpines.lyingStack`) cuts its books by their edges, print or none. Working frame.
    static func boardBands(_ m: EdgeMaps, deskew: Deskew?, text: TextEvidence, bands: [RowFinder.Band], across: [Line]? = nil,
                           _ p: DetectorParameters) -> [RowFinder.Band] {
        guard let maxAngle = p.lyingTextMaxAngle, maxAngle > 0 else { return [] }
        let W = Double(m.width), H = Double(m.height)
        let inBand = { (y: Double) in bands.contains { y >= Double($0.top) && y <= Double($0.bottom + 1) } }
        let heights = bands.map { Double($0.bottom - $0.top + 1) }.sorted()
        var boards: [(y: Double, height: Double)] = []
        for cluster in clusters((across ?? acrossLines(text, m, deskew: deskew, maxAngle: maxAngle)).filter({ !inBand($0.centre.y) })) {
            var x0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
            for l in cluster { for c in l.corners { x0 = min(x0, c.x); x1 = max(x1, c.x); y1 = max(y1, c.y) } }
            let thick = cluster.map(\.thickness).max() ?? 1, length = x1 - x0
            guard length >= 4 * thick else { continue }
            // The first line under the print running through its middle three times as long as the print and
            // half the photo's width: books reach past their print, seldom that far.
            let minRun = max(3 * length, 0.5 * W)
            var y = y1 - thick / 2, board: Double?
            while y <= min(H - 2, y1 + 0.5 * length), board == nil {
                if runThrough(m, y: Int(y), x: Int((x0 + x1) / 2)) >= minRun { board = y }
                y += 1
            }
            guard let board, !inBand(board) else { continue }
            boards.append((board, heights.isEmpty ? 1.2 * length : heights[heights.count / 2]))
        }
        var out: [RowFinder.Band] = []
        for b in boards.sorted(by: { $0.y < $1.y }) {
            let bottom = Int(b.y.rounded())
            // One row per board, reaching up to the row above it, never into it.
            if let last = out.last, Double(bottom - last.bottom) < 0.25 * b.height { continue }
            let above = (bands + out).filter { $0.bottom < bottom }.map(\.bottom).max() ?? -1
            let top = max(above + 1, bottom - Int(b.height.rounded()))
            guard bottom - top >= 8 else { continue }
            out.append(RowFinder.Band(top: top, bottom: bottom))
        }
        return out
    }

    /// The length of the horizontal edge run through (`x`, `y`), bridged across ±1 pixel row and gaps of up
    /// to two pixels.
    static func runThrough(_ m: EdgeMaps, y: Int, x: Int) -> Double {
        let w = m.width, h = m.height
        guard y >= 0, y < h, x >= 0, x < w else { return 0 }
        func lit(_ x: Int) -> Bool {
            for d in -1...1 where y + d >= 0 && y + d < h && m.horizontal[(y + d) * w + x] > 0.3 { return true }
            return false
        }
        guard lit(x) else { return 0 }
        func end(_ step: Int) -> Int {
            var last = x, i = x + step
            while i >= 0, i < w, abs(i - last) <= 3 {
                if lit(i) { last = i }
                i += step
            }
            return last
        }
        return Double(end(1) - end(-1) + 1)
    }

    /// The finder's boxes as detections in the photo's frame, each in the row its middle is nearest to,
    /// after that row's other boxes.
    static func spines(_ m: EdgeMaps, deskew: Deskew?, text: TextEvidence, standing: [(quad: Quad, lying: Bool)], bands: [RowFinder.Band],
                       after existing: [DetectedSpine], across: [Line]? = nil, _ p: DetectorParameters) -> [DetectedSpine] {
        var out: [DetectedSpine] = []
        for f in find(m, deskew: deskew, text: text, standing: standing, across: across, p) where f.confidence >= (p.lyingMinConfidence ?? 0) {
            // A book seen spine-on lies in a row, on its board or on other books; a strip of print under
            // a row is a shelf label or the edge of something lying in front.
            if f.spineOn {
                let ys = f.seen.points.map(\.y)
                let y0 = ys.min()!, y1 = ys.max()!
                let inRow = bands.map { max(0, min(y1, Double($0.bottom + 1)) - max(y0, Double($0.top))) }.max() ?? 0
                if inRow < 0.25 * (y1 - y0) { continue }
            }
            let y = f.quad.points.map(\.y).reduce(0, +) / 4
            let row = bands.indices.min { distance(y, bands[$0]) < distance(y, bands[$1]) } ?? 0
            // A book lying down is no shorter than a third of its row's height, as the row finder's stacks
            // hold (`RowSpines.lyingStack`): a shorter box is a piece of one, or a sticker's print.
            let q = f.seen
            let longSide = max(hypot(q.topRight.x - q.topLeft.x, q.topRight.y - q.topLeft.y),
                               hypot(q.bottomLeft.x - q.topLeft.x, q.bottomLeft.y - q.topLeft.y))
            if bands.indices.contains(row), longSide < 0.3 * Double(bands[row].bottom - bands[row].top + 1) { continue }
            let position = (existing + out).filter { $0.row == row }.count
            let u = f.quad
            out.append(DetectedSpine(quad: Quad(topLeft: photoPoint(u.topLeft, m, deskew), topRight: photoPoint(u.topRight, m, deskew),
                                                bottomRight: photoPoint(u.bottomRight, m, deskew), bottomLeft: photoPoint(u.bottomLeft, m, deskew)),
                                     row: row, position: position, confidence: f.confidence, lying: true))
        }
        return out
    }

    static func distance(_ y: Double, _ band: RowFinder.Band) -> Double {
        y < Double(band.top) ? Double(band.top) - y : max(0, y - Double(band.bottom + 1))
    }

    /// Connected blobs of print (probability above 0.3, as `printedFraction` counts it) of at least a few
    /// cells, each as the rectangle of its second moments, normalized to the photo.
    static func printBlobs(_ text: TextEvidence, minCells: Int = 8) -> [Quad] {
        let w = text.width, h = text.height
        var seen = [Bool](repeating: false, count: w * h)
        var out: [Quad] = []
        var stack: [Int] = []
        for start in 0..<(w * h) where !seen[start] && text.probability[start] > 0.3 {
            seen[start] = true
            stack.append(start)
            var n = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, syy = 0.0, sxy = 0.0
            while let i = stack.popLast() {
                let x = Double(i % w), y = Double(i / w)
                n += 1; sx += x; sy += y; sxx += x * x; syy += y * y; sxy += x * y
                let cx = i % w, cy = i / w
                for (nx, ny) in [(cx - 1, cy), (cx + 1, cy), (cx, cy - 1), (cx, cy + 1)] where nx >= 0 && ny >= 0 && nx < w && ny < h {
                    let j = ny * w + nx
                    if !seen[j] && text.probability[j] > 0.3 { seen[j] = true; stack.append(j) }
                }
            }
            guard n >= Double(minCells) else { continue }
            let mx = sx / n, my = sy / n
            let a = sxx / n - mx * mx, c = syy / n - my * my, b = sxy / n - mx * my
            let root = (((a - c) / 2) * ((a - c) / 2) + b * b).squareRoot()
            let major = (a + c) / 2 + root, minor = max(0, (a + c) / 2 - root)
            let angle = 0.5 * atan2(2 * b, a - c)
            // A filled rectangle's variance along a side of length L is L²/12.
            let half = ((12 * major).squareRoot() + 1) / 2, halfT = ((12 * minor).squareRoot() + 1) / 2
            let u = Point(x: cos(angle), y: sin(angle)), v = Point(x: -sin(angle), y: cos(angle))
            func corner(_ su: Double, _ sv: Double) -> Point {
                Point(x: (mx + 0.5 + su * half * u.x + sv * halfT * v.x) / Double(w),
                      y: (my + 0.5 + su * half * u.y + sv * halfT * v.y) / Double(h))
            }
            out.append(Quad(topLeft: corner(-1, -1), topRight: corner(1, -1), bottomRight: corner(1, 1), bottomLeft: corner(-1, 1)))
        }
        return out
    }

    /// The share of a seen box's top edge that standing boxes' feet rest on (within its thickness above
    /// it, or half of it below).
    static func feetOn(_ box: Quad, _ upright: [Quad]) -> Double {
        let length = hypot(box.topRight.x - box.topLeft.x, box.topRight.y - box.topLeft.y)
        guard length > 0 else { return 0 }
        let frame = Frame(u: Point(x: (box.topRight.x - box.topLeft.x) / length, y: (box.topRight.y - box.topLeft.y) / length),
                          origin: box.topLeft)
        let thickness = frame.coords(box.bottomLeft).b
        var resting = 0.0
        for q in upright {
            let a = frame.coords(q.bottomLeft), b = frame.coords(q.bottomRight)
            let mid = (a.b + b.b) / 2
            guard mid >= -thickness, mid <= 0.5 * thickness else { continue }
            resting += max(0, min(length, max(a.a, b.a)) - max(0, min(a.a, b.a)))
        }
        return resting / length
    }

    /// Every turn of the polygon goes the same way.
    static func convex(_ q: [Point]) -> Bool {
        var sign = 0.0
        for i in q.indices {
            let a = q[i], b = q[(i + 1) % q.count], c = q[(i + 2) % q.count]
            let z = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)
            if z == 0 { continue }
            if sign == 0 { sign = z } else if (z > 0) != (sign > 0) { return false }
        }
        return sign != 0
    }

    /// The larger of the shares of either quad covered by the other.
    static func overlap(_ a: Quad, _ b: Quad) -> Double {
        let i = PolygonIoU.area(PolygonIoU.intersection(a.points, b.points))
        let aa = PolygonIoU.area(a.points), ab = PolygonIoU.area(b.points)
        guard aa > 0, ab > 0 else { return 0 }
        return max(i / aa, i / ab)
    }

    /// Lines close together (gaps under about a line's thickness) and running the same way are one book's
    /// print, or one stack's.
    static func clusters(_ lines: [Line]) -> [[Line]] {
        var parent = Array(lines.indices)
        func root(_ i: Int) -> Int { var i = i; while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }; return i }
        for i in lines.indices {
            for j in lines.indices where j > i {
                let a = lines[i], b = lines[j]
                guard abs(a.along.x * b.along.y - a.along.y * b.along.x) < sin(15 * .pi / 180) else { continue }
                let pad = 1.2 * max(a.thickness, b.thickness)
                let ax = a.corners.map(\.x), ay = a.corners.map(\.y), bx = b.corners.map(\.x), by = b.corners.map(\.y)
                guard ax.min()! - pad <= bx.max()!, bx.min()! - pad <= ax.max()!,
                      ay.min()! - pad <= by.max()!, by.min()! - pad <= ay.max()! else { continue }
                parent[root(i)] = root(j)
            }
        }
        var groups: [Int: [Line]] = [:]
        for i in lines.indices { groups[root(i), default: []].append(lines[i]) }
        return groups.values.sorted { $0[0].centre.y < $1[0].centre.y || ($0[0].centre.y == $1[0].centre.y && $0[0].centre.x < $1[0].centre.x) }
    }

    /// A frame turned to a cluster's print: `a` along the text, `b` across it (downwards).
    struct Frame {
        var u: Point
        var origin: Point
        var n: Point { Point(x: -u.y, y: u.x) }
        func point(_ a: Double, _ b: Double) -> Point {
            Point(x: origin.x + a * u.x + b * n.x, y: origin.y + a * u.y + b * n.y)
        }
        func coords(_ q: Point) -> (a: Double, b: Double) {
            let dx = q.x - origin.x, dy = q.y - origin.y
            return (dx * u.x + dy * u.y, dx * n.x + dy * n.y)
        }
    }

    /// A side of the outline in the frame: the `b` (or `a`) at which it crosses the start and the end of
    /// its span.
    struct Side { var at0: Double; var at1: Double; var score: Double; var span: (Double, Double) }

    static func books(around cluster: [Line], _ m: EdgeMaps, text: TextEvidence, deskew: Deskew?, _ p: DetectorParameters) -> [Found] {
        // Length-weighted direction of the print.
        var sx = 0.0, sy = 0.0
        for l in cluster { sx += l.along.x * l.length; sy += l.along.y * l.length }
        let norm = hypot(sx, sy)
        guard norm > 0 else { return [] }
        let frame = Frame(u: Point(x: sx / norm, y: sy / norm), origin: cluster[0].centre)
        var a0 = Double.infinity, a1 = -Double.infinity, b0 = Double.infinity, b1 = -Double.infinity
        for l in cluster { for c in l.corners { let (a, b) = frame.coords(c); a0 = min(a0, a); a1 = max(a1, a); b0 = min(b0, b); b1 = max(b1, b) } }
        let thick = cluster.map(\.thickness).max() ?? 1
        let printLength = cluster.map(\.length).reduce(0, +)
        // Too little print to be a book's title: a price label, a sticker, a word on a box.
        guard a1 - a0 >= 6 * thick || cluster.count >= 2, printLength >= 4 * thick else { return [] }
        let reach = (p.lyingOutlineReach ?? 1) * max(a1 - a0, b1 - b0)
        let margin = 0.3 * thick
        // Outward from the hull: top and bottom first (across the print's span), then the ends (between
        // those two), then top and bottom once more over the ends' span.
        // Around a cover's print (several lines, a block rather than one long line), an edge with more print
        // beyond it is a panel of the cover (a band, a picture's frame), not its outline. A spine seen
        // spine-on has its neighbours' print beyond each long side, so this holds for covers only.
        let cover = (a1 - a0) < 4 * (b1 - b0)
        func beyond(_ across: Bool, _ span: (Double, Double)) -> ((Double, Double) -> Bool)? {
            guard cover, text.width > 0, text.height > 0 else { return nil }
            return { offset, outward in
                var printed = 0, n = 0
                var s = span.0
                while s <= span.1 {
                    for d in stride(from: 2.0, through: 8, by: 3) {
                        let pt = across ? frame.point(offset + d * outward, s) : frame.point(s, offset + d * outward)
                        let q = photoPoint(pt, m, deskew)
                        let x = min(text.width - 1, Int(q.x * Double(text.width))), y = min(text.height - 1, Int(q.y * Double(text.height)))
                        n += 1
                        if text.probability[y * text.width + x] > 0.3 { printed += 1 }
                    }
                    s += 3
                }
                return n > 0 && Double(printed) > 0.05 * Double(n)
            }
        }
        // The ground the book lies on: of the colours at the far ends of the four searches, the one nearest
        // the others (a row of books or a wall may lie beyond one side; the board lies beyond most).
        var groundMatch: (Double, Double, Double)? = nil
        if cover {
            // The furthest strip of each search still inside the photo.
            func end(_ across: Bool, _ from: Double, _ outward: Double, _ span: (Double, Double)) -> (Double, Double, Double)? {
                var d = reach
                while d > 0 {
                    if let c = stripColour(m, frame, across: across, offset: from + outward * d, tilt: 0, span: span) { return c }
                    d -= 4
                }
                return nil
            }
            let ends = [end(false, b0 - margin, -1, (a0, a1)), end(false, b1 + margin, 1, (a0, a1)),
                        end(true, a0 - margin, -1, (b0, b1)), end(true, a1 + margin, 1, (b0, b1))].compactMap { $0 }
            groundMatch = ends.min { x, y in ends.reduce(0) { $0 + colourDistance(x, $1) } < ends.reduce(0) { $0 + colourDistance(y, $1) } }
        }
        var top = bestSide(m, frame, across: false, from: b0 - margin, to: b0 - margin - reach, span: (a0, a1), printBeyond: beyond(false, (a0, a1)), background: groundMatch)
        var bottom = bestSide(m, frame, across: false, from: b1 + margin, to: b1 + margin + reach, span: (a0, a1), printBeyond: beyond(false, (a0, a1)), background: groundMatch)
        // A side the search found nothing for (the photo's border cuts the book, or nothing straight is
        // there) is taken a line's thickness beyond the print, as no evidence.
        var t = top ?? Side(at0: b0 - thick, at1: b0 - thick, score: 0, span: (a0, a1))
        var bo = bottom ?? Side(at0: b1 + thick, at1: b1 + thick, score: 0, span: (a0, a1))
        let midT = (t.at0 + t.at1) / 2, midB = (bo.at0 + bo.at1) / 2
        let left = bestSide(m, frame, across: true, from: a0 - margin, to: a0 - margin - reach, span: (midT, midB), printBeyond: beyond(true, (midT, midB)), background: groundMatch)
        let right = bestSide(m, frame, across: true, from: a1 + margin, to: a1 + margin + reach, span: (midT, midB), printBeyond: beyond(true, (midT, midB)), background: groundMatch)
        var l = left ?? Side(at0: a0 - thick, at1: a0 - thick, score: 0, span: (midT, midB))
        var r = right ?? Side(at0: a1 + thick, at1: a1 + thick, score: 0, span: (midT, midB))
        let midL = (l.at0 + l.at1) / 2, midR = (r.at0 + r.at1) / 2
        top = bestSide(m, frame, across: false, from: b0 - margin, to: b0 - margin - reach, span: (midL, midR), printBeyond: beyond(false, (midL, midR)), background: groundMatch)
        bottom = bestSide(m, frame, across: false, from: b1 + margin, to: b1 + margin + reach, span: (midL, midR), printBeyond: beyond(false, (midL, midR)), background: groundMatch)
        if let top { t = top }
        if let bottom { bo = bottom }
        // Corners: where the sides cross, each side a line through its two span ends.
        func corner(_ horizontal: Side, _ vertical: Side) -> Point {
            let hSpan = horizontal.span, vSpan = vertical.span
            // horizontal: b = h0 + (a - s0)·kh; vertical: a = v0 + (b - t0)·kv.
            let kh = (horizontal.at1 - horizontal.at0) / max(1e-6, hSpan.1 - hSpan.0)
            let kv = (vertical.at1 - vertical.at0) / max(1e-6, vSpan.1 - vSpan.0)
            // a = v0 + (h0 + (a - s0)·kh - t0)·kv  →  a(1 - kh·kv) = v0 + (h0 - s0·kh - t0)·kv
            let a = (vertical.at0 + (horizontal.at0 - hSpan.0 * kh - vSpan.0) * kv) / max(1e-6, 1 - kh * kv)
            let b = horizontal.at0 + (a - hSpan.0) * kh
            return frame.point(a, b)
        }
        // One box for the whole outline, or, when full-length edges part its lines of print into long
        // thin bands, one book per band: a stack seen spine-on.
        let cuts = stackCuts(cluster, m, frame, top: t, bottom: bo, ends: (midL, midR), thick: thick)
        if let first = cuts.first, let last = cuts.last {
            // A stack's books lie parallel to the edges between them, and its outer books are no thicker than
            // their print with the margin it leaves on the cut's side (plus a little): beyond a stack's top lie
            // the wall's edges and shadows, below it the board's front, and a side found out there would make
            // its outer books two books thick.
            let across = cluster.map { l -> (Double, Double) in
                let bs = l.corners.map { frame.coords($0).b }
                return (bs.min()!, bs.max()!)
            }
            let topLines = across.filter { ($0.0 + $0.1) / 2 < first.at0 }, bottomLines = across.filter { ($0.0 + $0.1) / 2 > last.at0 }
            if let p0 = topLines.map(\.0).min(), let p1 = topLines.map(\.1).max() {
                let limit = p0 - max(0, first.at0 - p1) - 0.25 * thick
                let mid = (t.at0 + t.at1) / 2
                t = Side(at0: max(mid, limit), at1: max(mid, limit), score: t.score, span: t.span)
            }
            if let p0 = bottomLines.map(\.0).min(), let p1 = bottomLines.map(\.1).max() {
                let limit = p1 + max(0, p0 - last.at0) + 0.25 * thick
                let mid = (bo.at0 + bo.at1) / 2
                bo = Side(at0: min(mid, limit), at1: min(mid, limit), score: bo.score, span: bo.span)
            }
            // The ends were searched over the outline's first extent; over the stack's own they run straighter.
            // The cover's tests stay out: a stack's books have no panels, and its ground lies beside each book.
            let span = (t.at0, bo.at0)
            if span != (midT, midB) {
                if let left = bestSide(m, frame, across: true, from: a0 - margin, to: a0 - margin - reach, span: span, printBeyond: nil, background: nil) { l = left }
                if let right = bestSide(m, frame, across: true, from: a1 + margin, to: a1 + margin + reach, span: span, printBeyond: nil, background: nil) { r = right }
            }
        }
        var bands: [(Side, Side)] = []
        var upper = t
        for cut in cuts {
            bands.append((upper, cut)); upper = cut
        }
        bands.append((upper, bo))
        var out: [Found] = []
        for (top, bottom) in bands {
            let tl = corner(top, l), tr = corner(top, r), br = corner(bottom, r), bl = corner(bottom, l)
            // Sides tilted against each other can cross inside the span: a twisted outline is no book.
            guard convex([tl, tr, br, bl]) else { continue }
            let outline = (top.score + bottom.score + l.score + r.score) / 4
            let normalized = Quad(topLeft: photoPoint(tl, m, deskew), topRight: photoPoint(tr, m, deskew),
                                  bottomRight: photoPoint(br, m, deskew), bottomLeft: photoPoint(bl, m, deskew))
            let printed = text.printedFraction(inside: normalized)
            let length = (hypot(tr.x - tl.x, tr.y - tl.y) + hypot(br.x - bl.x, br.y - bl.y)) / 2
            let across = (hypot(bl.x - tl.x, bl.y - tl.y) + hypot(br.x - tr.x, br.y - tr.y)) / 2
            // A long thin outline round one line of print is a book seen spine-on: turned upright, its head
            // is at the left end (as the row finder's stacks); a cover stands as its print reads.
            let spineOn = bands.count > 1 || length > 3 * across
            let quad = spineOn ? Quad(topLeft: bl, topRight: tl, bottomRight: tr, bottomLeft: br)
                               : Quad(topLeft: tl, topRight: tr, bottomRight: br, bottomLeft: bl)
            let conf = confidence(outline: outline, printed: printed)
            out.append(Found(quad: quad, confidence: conf, seen: Quad(topLeft: tl, topRight: tr, bottomRight: br, bottomLeft: bl), spineOn: spineOn))
        }
        return out
    }

    /// Where a stack seen spine-on parts into books: between two lines of print that do not overlap
    /// across the text (title and author on one spine do), at the strongest edge running the length the two
    /// books share (the longest lit run, over at least 70% of it), if there is one. Books in a stack lie
    /// staggered, so that length is where both lines of print run (both books reach at least that far), or
    /// the outline's when they share too little of it. Every band left must be long and thin, or the edges
    /// are a cover's print panels, not books.
    static func stackCuts(_ cluster: [Line], _ m: EdgeMaps, _ f: Frame, top: Side, bottom: Side, ends: (Double, Double),
                          thick: Double) -> [Side] {
        let ranges = cluster.map { l -> (Double, Double, a: (Double, Double)) in
            let c = l.corners.map { f.coords($0) }
            return (c.map(\.b).min()!, c.map(\.b).max()!, (c.map(\.a).min()!, c.map(\.a).max()!))
        }.sorted { $0.0 < $1.0 }
        let length = ends.1 - ends.0
        guard ranges.count >= 2, length > 0 else { return [] }
        let plane = abs(f.u.x) >= abs(f.u.y) ? m.horizontal : m.vertical
        let w = m.width, h = m.height
        func coverage(_ b: Double, _ span: (Double, Double)) -> Double {
            var run = GappedRun()
            let n = Int(span.1 - span.0)
            for i in 0..<max(1, n) {
                let pt = f.point(span.0 + Double(i), b)
                var lit = false
                for d in -1...1 {
                    let x = Int((pt.x + Double(d) * f.n.x).rounded()), y = Int((pt.y + Double(d) * f.n.y).rounded())
                    if x >= 0, y >= 0, x < w, y < h, plane[y * w + x] > 0.3 { lit = true }
                }
                run.add(lit)
            }
            return Double(run.longest) / Double(max(1, n))
        }
        let outlineSpan = (ends.0 + 0.08 * length, ends.1 - 0.08 * length)
        var cuts: [Side] = []
        var above = 0
        let topB = (top.at0 + top.at1) / 2, bottomB = (bottom.at0 + bottom.at1) / 2
        for k in 1..<ranges.count {
            defer { if ranges[k].1 > ranges[above].1 { above = k } }
            var lo = ranges[above].1, hi = ranges[k].0
            let shared = (max(ranges[above].a.0, ranges[k].a.0), min(ranges[above].a.1, ranges[k].a.1))
            if hi - lo < 1 {
                // The text detector's boxes reach past the letters, so two books' lines one above the other
                // can overlap a little across: the edge between them runs inside the overlap. Title and author
                // on one spine overlap across as much, but run side by side, not one above the other.
                let thinner = min(ranges[above].1 - ranges[above].0, ranges[k].1 - ranges[k].0)
                let shorter = min(ranges[above].a.1 - ranges[above].a.0, ranges[k].a.1 - ranges[k].a.0)
                guard lo - hi <= 0.4 * thinner, shared.1 - shared.0 >= 0.5 * shorter else { continue }
                swap(&lo, &hi)
            }
            let span = shared.1 - shared.0 >= 4 * thick ? shared : outlineSpan
            // Of the edges running the shared length, the one running furthest along the outline: a book's
            // edge goes on past its print, the edge of a printed band stops with it.
            var best = (b: 0.0, c: -1.0, along: -1.0)
            var b = lo
            while b <= hi {
                let c = coverage(b, span)
                if c >= 0.7 {
                    let along = span == outlineSpan ? c : coverage(b, outlineSpan)
                    if along > best.along || (along == best.along && c > best.c) { best = (b, c, along) }
                }
                b += 1
            }
            guard best.c >= 0.7 else { continue }
            cuts.append(Side(at0: best.b, at1: best.b, score: sideScore(m, f, across: false, offset: best.b, tilt: 0, span: top.span, outward: 1),
                             span: top.span))
        }
        // Long thin bands only: a cover's panels are wide.
        var edges = [topB] + cuts.map(\.at0) + [bottomB]
        edges.sort()
        for i in 0..<(edges.count - 1) where (edges[i + 1] - edges[i]) * 3 > length || edges[i + 1] - edges[i] < 0.5 * thick { return [] }
        return cuts
    }

    /// How sure a lying box is: how clearly its outline stands out (the sides' mean score, 0...1.5, see
    /// `sideScore`; half of it is reached by grain and shading alone) times how much of it is print (a
    /// tenth of a cover or of a spine is, on the training photos; an outline found round a few stray
    /// blobs on a board holds less). Set on the training photos only.
    static func confidence(outline: Double, printed: Double) -> Double {
        min(1, max(0, (outline - 0.8) / 0.5)) * min(1, printed / 0.05)
    }

    static func photoPoint(_ q: Point, _ m: EdgeMaps, _ deskew: Deskew?) -> Point {
        let s = deskew?.source(q) ?? q
        return Point(x: min(1, max(0, s.x / Double(m.width))), y: min(1, max(0, s.y / Double(m.height))))
    }

    static let tiltSteps = [-10.0, -7.5, -5, -2.5, 0, 2.5, 5, 7.5, 10].map { tan($0 * .pi / 180) }

    /// The best line for one side, searched from offset `from` to `to` (in `b` for a top or bottom side,
    /// in `a` for an end when `across`), tilted up to 10 degrees, measured over `span` of the other
    /// coordinate. The nearest strong line wins over a stronger one further out: beyond a cover lie the
    /// board's front edge and the planks' seams, as straight and often stronger.
    static func bestSide(_ m: EdgeMaps, _ f: Frame, across: Bool, from: Double, to: Double, span: (Double, Double),
                         printBeyond: ((Double, Double) -> Bool)? = nil, background: (Double, Double, Double)? = nil) -> Side? {
        let step = from < to ? 1.0 : -1.0
        // The search runs over the photo's pixels; a distance no photo has (print far off it) is no side.
        guard abs(to - from) < 1e7 else { return nil }
        let count = Int(abs(to - from))
        guard count >= 2, span.1 - span.0 >= 4 else { return nil }
        var scores: [(offset: Double, tilt: Double, score: Double)] = []
        for i in 0...count {
            let o = from + Double(i) * step
            var best = (tilt: 0.0, score: -1.0)
            for k in tiltSteps {
                let s = sideScore(m, f, across: across, offset: o, tilt: k, span: span, outward: step)
                if s > best.score { best = (k, s) }
            }
            scores.append((o, best.tilt, best.score))
        }
        guard let top = scores.map(\.score).max(), top >= 0.35 else { return nil }
        let mid = (span.0 + span.1) / 2
        func side(_ i: Int) -> Side {
            Side(at0: scores[i].offset + (span.0 - mid) * scores[i].tilt,
                 at1: scores[i].offset + (span.1 - mid) * scores[i].tilt, score: scores[i].score, span: span)
        }
        func isPeak(_ i: Int) -> Bool {
            (i == 0 || scores[i].score >= scores[i - 1].score) && (i + 1 == scores.count || scores[i].score >= scores[i + 1].score)
        }
        // Round a cover on a board or a floor, the first strong line with the ground's own colour beyond it
        // (the colour at the far end of the search): inside the outline lie the cover's panels and the
        // page block's edge, each as straight, but with more book beyond them.
        if let ground = background {
            for i in scores.indices where isPeak(i) && scores[i].score >= 0.6 * top {
                guard let out = stripColour(m, f, across: across, offset: scores[i].offset + 5 * step, tilt: scores[i].tilt, span: span) else { continue }
                if colourDistance(out, ground) < groundTolerance { return side(i) }
            }
        }
        // The first local maximum (outward) scoring close to the best.
        for i in scores.indices {
            let s = scores[i].score
            guard s >= 0.75 * top, (i == 0 || s >= scores[i - 1].score), (i + 1 == scores.count || s >= scores[i + 1].score) else { continue }
            let mid = (span.0 + span.1) / 2
            if let printBeyond, printBeyond(scores[i].offset, step) { continue }
            return Side(at0: scores[i].offset + (span.0 - mid) * scores[i].tilt,
                        at1: scores[i].offset + (span.1 - mid) * scores[i].tilt, score: s, span: span)
        }
        return nil
    }

    /// Colours this close (RGB distance, 0...441) are the same ground: wood grain and shading stay within
    /// it, a cover or a page block against the board does not.
    static let groundTolerance = 25.0

    static func colourDistance(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) -> Double {
        ((a.0 - b.0) * (a.0 - b.0) + (a.1 - b.1) * (a.1 - b.1) + (a.2 - b.2) * (a.2 - b.2)).squareRoot()
    }

    /// Mean colour along a line (as `sideScore` places it), or nil when most of it is outside the image.
    static func stripColour(_ m: EdgeMaps, _ f: Frame, across: Bool, offset: Double, tilt: Double, span: (Double, Double)) -> (Double, Double, Double)? {
        let mid = (span.0 + span.1) / 2
        let n = max(4, Int((span.1 - span.0) / 3))
        var c = (0.0, 0.0, 0.0), k = 0
        for i in 0..<n {
            let s = span.0 + (Double(i) + 0.5) * (span.1 - span.0) / Double(n)
            let o = offset + (s - mid) * tilt
            let pt = across ? f.point(o, s) : f.point(s, o)
            let x = Int(pt.x.rounded()), y = Int(pt.y.rounded())
            guard x >= 0, y >= 0, x < m.width, y < m.height else { continue }
            let j = y * m.width + x
            c.0 += Double(m.red[j]); c.1 += Double(m.green[j]); c.2 += Double(m.blue[j]); k += 1
        }
        guard k >= n / 2 else { return nil }
        return (c.0 / Double(k), c.1 / Double(k), c.2 / Double(k))
    }

    /// A candidate side: the share of its length running on an edge of its own orientation (±1 px), plus
    /// half the colour change between strips just inside and just outside it (scaled so 60 levels
    /// count fully). The line passes through `offset` at the span's middle, tilted by `tilt` (tangent).
    static func sideScore(_ m: EdgeMaps, _ f: Frame, across: Bool, offset: Double, tilt: Double, span: (Double, Double), outward: Double) -> Double {
        let w = m.width, h = m.height
        let mid = (span.0 + span.1) / 2
        let n = max(4, Int((span.1 - span.0) / 3))
        var on = 0, inside = 0
        var cin = (0.0, 0.0, 0.0), cout = (0.0, 0.0, 0.0)
        var colourN = 0
        // Edges whose own direction is the side's: a side nearer horizontal in the photo is on the
        // horizontal-edge map.
        let dir = across ? f.n : f.u
        let plane = abs(dir.x) >= abs(dir.y) ? m.horizontal : m.vertical
        for i in 0..<n {
            let s = span.0 + (Double(i) + 0.5) * (span.1 - span.0) / Double(n)
            let o = offset + (s - mid) * tilt
            let pt = across ? f.point(o, s) : f.point(s, o)
            let x = Int(pt.x.rounded()), y = Int(pt.y.rounded())
            guard x >= 1, y >= 1, x < w - 1, y < h - 1 else { continue }
            inside += 1
            var lit = false
            // On the line or a pixel either side of it, across the line: print and grain next to a side
            // must not count as the side.
            let np = across ? f.u : f.n
            for d in -1...1 {
                let xx = Int((pt.x + Double(d) * np.x).rounded()), yy = Int((pt.y + Double(d) * np.y).rounded())
                if plane[yy * w + xx] > 0.3 { lit = true }
            }
            if lit { on += 1 }
            let pin = across ? f.point(o - 3 * outward, s) : f.point(s, o - 3 * outward)
            let pout = across ? f.point(o + 3 * outward, s) : f.point(s, o + 3 * outward)
            let xi = Int(pin.x.rounded()), yi = Int(pin.y.rounded()), xo = Int(pout.x.rounded()), yo = Int(pout.y.rounded())
            guard xi >= 0, yi >= 0, xi < w, yi < h, xo >= 0, yo >= 0, xo < w, yo < h else { continue }
            let ii = yi * w + xi, io = yo * w + xo
            cin.0 += Double(m.red[ii]); cin.1 += Double(m.green[ii]); cin.2 += Double(m.blue[ii])
            cout.0 += Double(m.red[io]); cout.1 += Double(m.green[io]); cout.2 += Double(m.blue[io])
            colourN += 1
        }
        // A side mostly outside the photo is no evidence of one.
        guard inside >= n / 2 else { return 0 }
        var colour = 0.0
        if colourN > 0 {
            let k = Double(colourN)
            let d0 = (cin.0 - cout.0) / k, d1 = (cin.1 - cout.1) / k, d2 = (cin.2 - cout.2) / k
            colour = min(1, (d0 * d0 + d1 * d1 + d2 * d2).squareRoot() / 60)
        }
        return Double(on) / Double(n) + 0.5 * colour
    }
}
