import Foundation
import ShelfImage

/// Books leaning far over in a row of upright ones. The row finder scores boundaries within `maxTiltDegrees`
/// of the row's lean, so a book leaning further (into an empty stretch of board, against its neighbour) is
/// boxed with the board and wall beside it as one wide piece, which the box classifier rightly drops; and the
/// text detector seldom finds a title running that far off both axes, so no print seeds it either. What such
/// a book still shows is two long parallel sides. So each free stretch of a row (no kept box over it at the
/// row's middle height) is searched for two straight edges leaning alike, `minDegrees` to `maxDegrees` either
/// way, a spine's width apart, each parting one colour from another all along (see `step`); the book is the
/// rectangle between them, turned as they are, from where their contrast starts to where it stops. Its
/// confidence is the classifier's, as every box's.
enum LeaningBooks {
    /// Leaning less than this, the row finder's own tilt search finds the sides.
    static let minDegrees = 12.0
    /// Leaning more than this, a book is nearer lying than leaning (and the lying-book finders look for it).
    static let maxDegrees = 40.0
    static let stepDegrees = 2.0
    /// A side's mean colour step across it (`step`, 0...1) along the row's lower middle, at least.
    static let minSideStrength = 0.45

    /// Candidates in the row's free stretches (working frame), strongest first in each. `kept`: the row's boxes that stay.
    static func proposals(_ m: EdgeMaps, _ band: RowFinder.Band, ceiling: Int, kept: [Quad]) -> [RowSpines.Found] {
        let rowH = Double(band.bottom - band.top + 1)
        let yc = Double(band.top + band.bottom) / 2
        guard rowH >= 16 else { return [] }
        // What the kept boxes cover at the row's middle height.
        var covered = kept.map { q -> (Double, Double) in
            let (l, r) = RowSpines.Line.sides(of: q, yc: yc)
            return (min(l.x, r.x), max(l.x, r.x))
        }.sorted { $0.0 < $1.0 }
        covered.append((Double(m.width), Double(m.width)))
        var stretches: [(Double, Double)] = []
        var x = 0.0
        for c in covered {
            if c.0 - x >= 0.12 * rowH { stretches.append((x, c.0)) }
            x = max(x, c.1)
        }
        // The sides are measured over the row's lower middle, where any book standing on the board and leaning
        // up to `maxDegrees` still runs; above it a short book has ended, below it lies the board's front.
        let top = band.top + Int(0.45 * rowH), bottom = band.bottom - Int(0.1 * rowH)
        var out: [RowSpines.Found] = []
        for (xa, xb) in stretches {
            let x0 = Int(xa.rounded(.up)), x1 = Int(xb.rounded(.down))
            guard x1 - x0 >= 4 else { continue }
            let supports = tilts.map { steps(m, slope: $0, x0: x0, x1: x1, yc: yc, top: top, bottom: bottom) }
            var taken: [(Double, Double)] = []
            // Greedily: the best pair of sides, then the best among the columns left, while any is strong enough.
            while taken.count < 4, let book = bestPair(supports, x0: x0, rowH: rowH, excluding: taken) {
                taken.append((book.left.x, book.right.x))
                if let found = rectangle(m, band, ceiling: ceiling, book.left, book.right, strength: book.strength) { out.append(found) }
            }
        }
        return out
    }

    /// The slopes searched (x per pixel row down the line), leaning left then right.
    static let tilts: [Double] = [-1.0, 1.0].flatMap { sign in
        stride(from: minDegrees, through: maxDegrees + 1e-9, by: stepDegrees).map { sign * tan($0 * .pi / 180) }
    }

    /// Of all pairs of strong sides leaning alike, 0.06 to 0.35 of the row's height apart across them, with no
    /// line as clear between them, the one whose weaker side is strongest. `supports`: for each of `tilts`, the
    /// `step` of the line through each column from `x0` on.
    static func bestPair(_ supports: [[Double]], x0: Int, rowH: Double, excluding taken: [(Double, Double)])
        -> (left: RowSpines.Line, right: RowSpines.Line, strength: Double)? {
        var best: (left: RowSpines.Line, right: RowSpines.Line, strength: Double)?
        for (slope, support) in zip(tilts, supports) {
            let cosine = 1 / (1 + slope * slope).squareRoot()
            // Local maxima over ±2 columns, strong enough, outside the books already taken.
            var peaks: [Int] = []
            for i in support.indices where support[i] >= minSideStrength {
                let lo = max(0, i - 2), hi = min(support.count - 1, i + 2)
                guard (lo...hi).allSatisfy({ support[$0] <= support[i] }), !peaks.contains(where: { i - $0 <= 2 }) else { continue }
                let x = Double(x0 + i)
                if taken.contains(where: { x >= $0.0 - 1 && x <= $0.1 + 1 }) { continue }
                peaks.append(i)
            }
            // Two sides with nothing as clear between them: print, shading and grain cross the line both ways.
            for (ia, a) in peaks.enumerated() { for b in peaks[(ia + 1)...] {
                let across = Double(b - a) * cosine
                guard across >= 0.06 * rowH, across <= 0.35 * rowH else { continue }
                let xl = Double(x0 + a), xr = Double(x0 + b)
                if taken.contains(where: { xl < $0.1 && xr > $0.0 }) { continue }
                let strength = min(support[a], support[b])
                let inner = support[(a + 3)...max(a + 3, b - 3)].max() ?? 0
                guard b - a > 6, inner < 0.7 * strength else { continue }
                if strength > (best?.strength ?? -1) {
                    best = (RowSpines.Line(x: xl + 0.5, slope: slope), RowSpines.Line(x: xr + 0.5, slope: slope), strength)
                }
            } }
        }
        return best
    }

    /// How clearly `line` parts two sides of one colour each over the band's rows: the mean step across it (the
    /// colour 2 px to its right less 2 px to its left, square to the line), in the channel where it is largest,
    /// 0...1 for 0...120 levels. A book's side keeps one sign along its length; the strokes of its print, the
    /// grain of a board and a plant's leaves cross the line both ways and average out, which edge strength alone
    /// (`TextSupport.edgeAlong`, capped and blind to direction) does not tell apart.
    static func step(_ m: EdgeMaps, _ line: RowSpines.Line, yc: Double, top: Int, bottom: Int) -> Double {
        let norm = (1 + line.slope * line.slope).squareRoot()
        let nx = 2 / norm, ny = -2 * line.slope / norm
        var sums = SIMD3<Double>.zero, n = 0
        for y in max(0, top)...min(m.height - 1, bottom) {
            let x = line.at(Double(y), yc)
            let xl = Int((x - nx).rounded()), yl = Int((Double(y) - ny).rounded())
            let xr = Int((x + nx).rounded()), yr = Int((Double(y) + ny).rounded())
            guard xl >= 0, xr >= 0, xl < m.width, xr < m.width, yl >= 0, yr >= 0, yl < m.height, yr < m.height else { continue }
            let i = yl * m.width + xl, j = yr * m.width + xr
            sums += SIMD3(Double(m.red[j] - m.red[i]), Double(m.green[j] - m.green[i]), Double(m.blue[j] - m.blue[i]))
            n += 1
        }
        guard n > 0 else { return 0 }
        let mean = sums / Double(n)
        return min(1, max(abs(mean.x), abs(mean.y), abs(mean.z)) / 120)
    }

    /// `step` for the line through each column from `x0` to `x1` at one slope. Every column's line takes the
    /// same offsets on a pixel row, so the sums run a pixel row at a time over contiguous pixels: searching every
    /// tilt across a whole row costs a few milliseconds instead of tens.
    static func steps(_ m: EdgeMaps, slope: Double, x0: Int, x1: Int, yc: Double, top: Int, bottom: Int) -> [Double] {
        let count = x1 - x0 + 1
        let y0 = max(0, top), y1 = min(m.height - 1, bottom)
        guard count > 0, y0 <= y1 else { return Array(repeating: 0, count: max(0, count)) }
        let norm = (1 + slope * slope).squareRoot()
        let nx = 2 / norm, ny = -2 * slope / norm
        var r = [Float](repeating: 0, count: count), g = r, b = r, n = r
        m.red.withUnsafeBufferPointer { red in m.green.withUnsafeBufferPointer { green in m.blue.withUnsafeBufferPointer { blue in
            for y in y0...y1 {
                let d = (Double(y) - yc) * slope
                let dl = Int((d - nx).rounded()), dr = Int((d + nx).rounded())
                let yl = Int((Double(y) - ny).rounded()), yr = Int((Double(y) + ny).rounded())
                guard yl >= 0, yr >= 0, yl < m.height, yr < m.height else { continue }
                let lo = max(x0, -dl, -dr), hi = min(x1, m.width - 1 - dl, m.width - 1 - dr)
                guard lo <= hi else { continue }
                let left = yl * m.width + dl, right = yr * m.width + dr
                for x in lo...hi {
                    let i = left + x, j = right + x, k = x - x0
                    r[k] += red[j] - red[i]; g[k] += green[j] - green[i]; b[k] += blue[j] - blue[i]; n[k] += 1
                }
            }
        } } }
        return (0..<count).map { k in
            n[k] > 0 ? min(1, Double(max(abs(r[k]), abs(g[k]), abs(b[k])) / n[k]) / 120) : 0
        }
    }

    /// The rectangle between two parallel sides, from where their edges start to where they end along them
    /// (each side's longest run of colour step through the row's lower middle; the book's ends are square to its
    /// sides), or nil when the two runs share too little length to be one book's. The pair was found on a 2
    /// degree grid over the row's lower middle only, and at a turn where a title's print averages out, which
    /// may be a grid step or two off the book's; along a whole book that drifts off its side. So the sides are
    /// turned about the lower middle by up to 3 degrees in half degrees and shifted a pixel or two, and the
    /// turn whose shorter run is longest is kept.
    static func rectangle(_ m: EdgeMaps, _ band: RowFinder.Band, ceiling: Int, _ left: RowSpines.Line, _ right: RowSpines.Line,
                          strength: Double) -> RowSpines.Found? {
        let rowH = Double(band.bottom - band.top + 1)
        let yc = Double(band.top + band.bottom) / 2
        let pivot = (Double(band.top) + 0.45 * rowH + Double(band.bottom) - 0.1 * rowH) / 2
        let xl = left.at(pivot, yc), xr = right.at(pivot, yc)
        let turn0 = atan(left.slope)
        var best: (quad: Quad, left: RowSpines.Line, right: RowSpines.Line, score: Double)?
        for k in -6...6 {
            let slope = tan(turn0 + Double(k) * 0.5 * .pi / 180), norm = (1 + slope * slope).squareRoot()
            let l0 = RowSpines.Line(x: xl + (yc - pivot) * slope, slope: slope), r0 = RowSpines.Line(x: xr + (yc - pivot) * slope, slope: slope)
            let u = Point(x: slope / norm, y: 1 / norm), n = Point(x: 1 / norm, y: -slope / norm)
            let width = (r0.x - l0.x) / norm
            let origin = Point(x: l0.x, y: yc)
            func at(_ t: Double, _ across: Double) -> Point {
                Point(x: origin.x + u.x * t + n.x * across, y: origin.y + u.y * t + n.y * across)
            }
            // From the lowest pixel row tops may reach to a little below the band, in steps of one pixel along the side.
            let tFrom = (Double(max(ceiling, band.top - Int(0.15 * rowH))) - yc) * norm
            let tTo = (Double(min(m.height - 1, band.bottom + Int(0.1 * rowH))) - yc) * norm
            let middle = (Double(band.top) + 0.7 * rowH - yc) * norm
            func run(_ across: Double) -> (Double, Double)? {
                // The colour step across the side at each point along it (as `step` measures it).
                var steps: [SIMD3<Double>] = []
                var t = tFrom
                while t <= tTo {
                    let pt = at(t, across)
                    let xl = Int((pt.x - 2 * n.x).rounded()), yl = Int((pt.y - 2 * n.y).rounded())
                    let xr = Int((pt.x + 2 * n.x).rounded()), yr = Int((pt.y + 2 * n.y).rounded())
                    if xl >= 0, xr >= 0, xl < m.width, xr < m.width, yl >= 0, yr >= 0, yl < m.height, yr < m.height {
                        let i = yl * m.width + xl, j = yr * m.width + xr
                        steps.append(SIMD3(Double(m.red[j] - m.red[i]), Double(m.green[j] - m.green[i]), Double(m.blue[j] - m.blue[i])))
                    } else {
                        steps.append(.zero)
                    }
                    t += 1
                }
                // The side is lit where the step keeps the sign and a good part of the size it has through the row's
                // lower middle, in the channel it is largest there: past the book's end the side's contrast stops.
                let mid = Int(middle - tFrom)
                guard steps.indices.contains(mid) else { return nil }
                let window = steps[max(0, mid - 8)...min(steps.count - 1, mid + 8)]
                let mean = window.reduce(SIMD3<Double>.zero, +) / Double(window.count)
                let channel = [abs(mean.x), abs(mean.y), abs(mean.z)].enumerated().max { $0.element < $1.element }!.offset
                let reference = mean[channel]
                guard abs(reference) >= 15 else { return nil }
                let lit = steps.map { $0[channel] / reference >= 0.35 }
                // The run through the row's lower middle, bridging gaps of up to 3 px.
                var start = mid, end = mid, gap = 0
                var i = mid
                while i > 0 { i -= 1; if lit[i] { start = i; gap = 0 } else { gap += 1; if gap > 3 { break } } }
                i = mid; gap = 0
                while i + 1 < lit.count { i += 1; if lit[i] { end = i; gap = 0 } else { gap += 1; if gap > 3 { break } } }
                return (tFrom + Double(start), tFrom + Double(end))
            }
            // Each side where, shifted up to 2 px across, its run is longest.
            func longest(_ across: Double) -> (run: (Double, Double), across: Double)? {
                (-2...2).compactMap { d in run(across + Double(d)).map { (run: $0, across: across + Double(d)) } }
                    .max { $0.run.1 - $0.run.0 < $1.run.1 - $1.run.0 }
            }
            guard let l = longest(0), let r = longest(width) else { continue }
            // Both sides run most of a book's length, and end about together: its ends are square to them.
            let shared = min(l.run.1, r.run.1) - max(l.run.0, r.run.0)
            guard shared >= 0.55 * rowH, abs(l.run.0 - r.run.0) <= 0.15 * rowH, abs(l.run.1 - r.run.1) <= 0.15 * rowH,
                  shared > (best?.score ?? 0) else { continue }
            let t0 = (l.run.0 + r.run.0) / 2, t1 = (l.run.1 + r.run.1) / 2
            let quad = Quad(topLeft: at(t0, l.across), topRight: at(t0, r.across), bottomRight: at(t1, r.across), bottomLeft: at(t1, l.across))
            let shift = { (a: Double) in RowSpines.Line(x: l0.x + a * norm, slope: slope) }
            best = (quad, shift(l.across), shift(r.across), shared)
        }
        guard let best else { return nil }
        let ys = best.quad.points.map(\.y)
        let inside = RowSpines.interior(m, top: Int(ys.min()!.rounded()), bottom: Int(ys.max()!.rounded()), left: best.left, right: best.right, yc: yc)
        return RowSpines.Found(quad: best.quad, confidence: strength, lying: false, inside: inside)
    }
}
