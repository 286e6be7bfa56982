import ShelfImage

/// Where a text detector found print on the photo. A spine carries its title along its axis; a cabinet
/// side, a wall, a floor or a hinge carries none, and a stack of lying books shows one line per spine
/// across the row. Found outside this target (PP-OCR's detector, see the `TextCue` target) and handed
/// in as plain values, so detection never depends on a model runtime and still runs without one.
public struct TextEvidence: Sendable, Equatable {
    /// Text probability (0...1) per cell of a `width` x `height` grid spanning the whole upright photo,
    /// row-major.
    ///
    /// Read-only, so the cleaning in `init` holds for every value the detector is handed.
    public private(set) var width: Int
    public private(set) var height: Int
    public private(set) var probability: [Float]
    /// The text lines found in it, best first.
    public private(set) var lines: [TextLine]

    /// Evidence is cleaned here rather than trusted: it comes from a model (or any caller) and a scan must
    /// never crash on it. A grid whose cells do not match `width` x `height` says nothing of where print is,
    /// so it is dropped (an empty grid: nothing printed); a cell that is NaN reads as no print and the rest
    /// are held to 0...1. A line with a corner that is not finite or lies more than a photo's size beyond
    /// it is no line the detector saw, so it is dropped (PP-OCR's lines reach only a few pixels past the
    /// border).
    public init(width: Int, height: Int, probability: [Float], lines: [TextLine]) {
        let (cells, overflow) = width.multipliedReportingOverflow(by: height)
        if width > 0, height > 0, !overflow, cells == probability.count {
            self.width = width; self.height = height
            self.probability = probability.map { $0.isNaN ? 0 : min(1, max(0, $0)) }
        } else {
            self.width = 0; self.height = 0; self.probability = []
        }
        self.lines = lines.compactMap { line in
            guard line.quad.points.allSatisfy({ $0.x >= -1 && $0.x <= 2 && $0.y >= -1 && $0.y <= 2 }) else { return nil }
            return TextLine(quad: line.quad, score: line.score.isNaN ? 0 : min(1, max(0, line.score)))
        }
    }

    /// The share of a quad's area (normalized to the photo) that the text detector called print
    /// (probability above `threshold`): about 0 on wood, walls and plain panels.
    public func printedFraction(inside quad: Quad, threshold: Float = 0.3) -> Double {
        let q = quad.points.map { Point(x: $0.x * Double(width), y: $0.y * Double(height)) }
        guard width > 0, height > 0, q.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return 0 }
        // Held to one cell beyond the grid before becoming an Int: a quad far off the photo covers none of it.
        let xs = q.map { min(Double(width), max(-1, $0.x)) }, ys = q.map { min(Double(height), max(-1, $0.y)) }
        let x0 = max(0, Int(xs.min()!.rounded(.down))), x1 = min(width - 1, Int(xs.max()!.rounded(.up)))
        let y0 = max(0, Int(ys.min()!.rounded(.down))), y1 = min(height - 1, Int(ys.max()!.rounded(.up)))
        guard x0 <= x1, y0 <= y1 else { return 0 }
        var inside = 0, printed = 0
        for y in y0...y1 {
            for x in x0...x1 where Self.contains(q, Point(x: Double(x) + 0.5, y: Double(y) + 0.5)) {
                inside += 1
                if probability[y * width + x] > threshold { printed += 1 }
            }
        }
        return inside == 0 ? 0 : Double(printed) / Double(inside)
    }

    /// The mean of a quad's four corners: where a text line or a box is, for `contains` and nearness.
    static func centre(_ q: [Point]) -> Point {
        Point(x: q.map(\.x).reduce(0, +) / 4, y: q.map(\.y).reduce(0, +) / 4)
    }

    /// Inside a convex quad, whichever way round its corners run.
    static func contains(_ q: [Point], _ p: Point) -> Bool {
        var sign = 0.0
        for i in 0..<4 {
            let a = q[i], b = q[(i + 1) % 4]
            let c = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
            if c != 0 {
                if sign == 0 { sign = c } else if (c > 0) != (sign > 0) { return false }
            }
        }
        return true
    }
}

/// One line of print, normalized to 0...1 of the upright photo.
public struct TextLine: Sendable, Equatable {
    /// Corners along the line: `topLeft` → `topRight` runs the way the text does (rightwards, or downwards
    /// for a vertical line).
    public var quad: Quad
    /// Mean text probability inside the line, 0...1.
    public var score: Double

    public init(quad: Quad, score: Double) { self.quad = quad; self.score = score }
}
