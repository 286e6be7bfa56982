import ShelfImage

/// One book outline as a segmenter finds it: a rotated rectangle in the pixels of the image it ran on.
public struct FoundBox: Sendable, Equatable {
    public var center: Point
    /// Unit vector along the long side (either way round).
    public var axis: Point
    public var halfLength: Double
    public var halfThickness: Double
    /// 0...1: how sure the finder is that this is a book.
    public var score: Double

    public init(center: Point, axis: Point, halfLength: Double, halfThickness: Double, score: Double) {
        self.center = center; self.axis = axis; self.halfLength = halfLength; self.halfThickness = halfThickness; self.score = score
    }
}

/// Turns book outlines found anywhere in a photo into shelf rows, reading order and quads "as the book stands".
///
/// A learned segmenter finds books in every orientation, so the photo's own orientation comes from the books: on a
/// shelf most books stand, so when most long sides run across the photo it was taken sideways; and books stand on
/// their board, so the ends that line up within a row are the feet, which tells which side is down (a sideways photo
/// either way, or one upside down). Rows and order are then worked out in that upright frame, while every quad stays
/// in the photo's own coordinates, ordered so that cropping it turns the book upright.
public enum SpineLayout {
    /// How many quarter turns clockwise the photo needs to stand upright (0...3), judged from its books: nil when
    /// there are too few books to judge, which keeps the photo as it is.
    public static func quarterTurns(_ boxes: [FoundBox], width: Double, height: Double) -> Int? {
        orientation(boxes, width: width, height: height)?.turns
    }

    /// `quarterTurns`, and how plain the evidence is: the share of the books' length that stands along the turned
    /// photo's height (1: every book agrees), over how many books.
    public static func orientation(_ boxes: [FoundBox], width: Double, height: Double) -> (turns: Int, agreement: Double, books: Int)? {
        // Elongated books, the sure ones only where there are enough: the finder's unsure boxes are often wood
        // grain, stripes or floor tiles, but on a small shelf they are all there is. (A turn it suggests wrongly
        // costs a second look, not a wrong answer: see FusedDetection.)
        let elongated = boxes.filter { $0.halfLength > 1.5 * $0.halfThickness }
        let sure = elongated.filter { $0.score >= 0.7 }
        let books = sure.count >= 5 ? sure : elongated
        guard books.count >= 5 else { return nil }
        let total = books.reduce(0) { $0 + $1.halfLength }
        let standing = books.filter { abs($0.axis.y) > abs($0.axis.x) }.reduce(0) { $0 + $1.halfLength }
        let sideways = standing < 0.4 * total
        let agreement = sideways ? 1 - standing / total : standing / total
        // Of the two ways up that the long sides allow, the one whose books' lower ends line up better.
        let first = sideways ? 1 : 0
        let a = endSpread(books, turns: first, width: width, height: height)
        let b = endSpread(books, turns: first + 2, width: width, height: height)
        guard let a, let b else { return (first, agreement, books.count) }
        // Upside down only on clear evidence: a row of books of one height lines up at both ends.
        if sideways { return (b.feet < a.feet ? first + 2 : first, agreement, books.count) }
        return (b.feet < 0.5 * a.feet && b.pairs >= 8 ? 2 : 0, agreement, books.count)
    }

    /// The median height difference between the feet of neighbouring standing books, in the frame turned by
    /// `turns`, and how many neighbour pairs it was taken over.
    static func endSpread(_ boxes: [FoundBox], turns: Int, width: Double, height: Double) -> (feet: Double, pairs: Int)? {
        let frame = Frame(turns: turns, width: width, height: height)
        let standing = boxes.map { frame.upright($0) }.filter(\.standing).sorted { $0.center.x < $1.center.x }
        var gaps: [Double] = []
        for (i, s) in standing.enumerated() {
            // The nearest book to the right whose span overlaps this one's: its neighbour on the same board.
            guard let n = standing[(i + 1)...].first(where: { other in
                min(other.bottom, s.bottom) - max(other.top, s.top) > 0.5 * min(other.bottom - other.top, s.bottom - s.top)
            }), n.center.x - s.center.x < 4 * (s.halfThickness + n.halfThickness) else { continue }
            gaps.append(abs(n.bottom - s.bottom) / max(1, (s.bottom - s.top + n.bottom - n.top) / 2))
        }
        guard gaps.count >= 3 else { return nil }
        return (gaps.sorted()[gaps.count / 2], gaps.count)
    }

    /// Rows, reading order and quads for `boxes` found in an image of `width` x `height` pixels, turned by
    /// `turns` quarter turns (see `quarterTurns`); confidence is the box's score as given.
    public static func arrange(_ boxes: [FoundBox], width: Double, height: Double, turns: Int = 0) -> DetectionResult {
        guard width > 0, height > 0 else { return DetectionResult(rows: [], spines: []) }
        let frame = Frame(turns: turns, width: width, height: height)
        let books = boxes.map { frame.upright($0) }
        let standingLengths = books.filter(\.standing).map { $0.bottom - $0.top }.sorted()
        let typical = standingLengths.isEmpty ? books.map { 2 * $0.halfLength }.max() ?? 1 : standingLengths[standingLengths.count / 2]

        // Rows: standing books whose feet lie within a third of a typical book's height share a board.
        var rows: [(top: Double, bottom: Double, feet: [Double])] = []
        for b in books.filter(\.standing).sorted(by: { $0.bottom < $1.bottom }) {
            if let last = rows.last, b.bottom - last.feet.last! < 0.3 * typical {
                rows[rows.count - 1].top = min(last.top, b.top)
                rows[rows.count - 1].bottom = max(last.bottom, b.bottom)
                rows[rows.count - 1].feet.append(b.bottom)
            } else {
                rows.append((b.top, b.bottom, [b.bottom]))
            }
        }
        func rowIndex(_ b: Upright) -> Int {
            guard !rows.isEmpty else { return 0 }
            if b.standing, let i = rows.firstIndex(where: { b.bottom >= $0.feet.first! && b.bottom <= $0.feet.last! }) { return i }
            // A lying book joins the row its middle stands in, else the nearest.
            let overlaps = rows.map { min($0.bottom, b.bottom) - max($0.top, b.top) }
            if let best = overlaps.indices.max(by: { overlaps[$0] < overlaps[$1] }), overlaps[best] > 0 { return best }
            return rows.indices.min(by: { abs((rows[$0].top + rows[$0].bottom) / 2 - b.center.y) < abs((rows[$1].top + rows[$1].bottom) / 2 - b.center.y) })!
        }
        let assigned = books.enumerated().map { (index: $0.offset, row: rowIndex($0.element)) }
        var spines: [DetectedSpine] = []
        let rowCount = max(rows.count, books.isEmpty ? 0 : 1)
        for r in 0..<rowCount {
            let members = assigned.filter { $0.row == r }.map { books[$0.index] }
                .sorted { ($0.center.x, $0.center.y) < ($1.center.x, $1.center.y) }
            for (position, b) in members.enumerated() {
                let q = b.quad.points.map { frame.photo($0) }
                let normalized = q.map { Point(x: $0.x / width, y: $0.y / height) }
                spines.append(DetectedSpine(quad: Quad(topLeft: normalized[0], topRight: normalized[1],
                                                       bottomRight: normalized[2], bottomLeft: normalized[3]),
                                            row: r, position: position, confidence: b.score, lying: !b.standing))
            }
        }
        let frameHeight = frame.uprightHeight
        let shelfRows = rows.isEmpty
            ? (books.isEmpty ? [] : [ShelfRow(index: 0, top: max(0, books.map(\.top).min()! / frameHeight),
                                               bottom: min(1, books.map(\.bottom).max()! / frameHeight))])
            : rows.enumerated().map { ShelfRow(index: $0.offset, top: max(0, $0.element.top / frameHeight),
                                               bottom: min(1, $0.element.bottom / frameHeight)) }
        return DetectionResult(rows: shelfRows, spines: spines, quarterTurns: turns == 0 ? nil : turns)
    }

    /// A normalized point of the photo turned upright by `turns` quarter turns clockwise, in the photo as taken.
    public static func photoPoint(fromUpright p: Point, turns: Int) -> Point {
        Frame(turns: turns, width: 1, height: 1).photo(p)
    }

    /// A normalized point of the photo as taken, in the photo turned upright by `turns` quarter turns clockwise.
    public static func uprightPoint(fromPhoto p: Point, turns: Int) -> Point {
        Frame(turns: turns, width: 1, height: 1).upright(p)
    }

    /// A box seen in the upright frame.
    struct Upright {
        var center: Point
        var halfLength: Double
        var halfThickness: Double
        var standing: Bool
        var top: Double
        var bottom: Double
        /// TL, TR, BR, BL as the book stands, in the upright frame.
        var quad: Quad
        var score: Double
    }

    /// The photo turned clockwise by `turns` quarter turns, and back.
    struct Frame {
        var turns: Int
        var width: Double
        var height: Double

        var uprightHeight: Double { turns % 2 == 0 ? height : width }

        func upright(_ p: Point) -> Point {
            switch turns & 3 {
            case 1: return Point(x: height - p.y, y: p.x)
            case 2: return Point(x: width - p.x, y: height - p.y)
            case 3: return Point(x: p.y, y: width - p.x)
            default: return p
            }
        }

        func photo(_ p: Point) -> Point {
            switch turns & 3 {
            case 1: return Point(x: p.y, y: height - p.x)
            case 2: return Point(x: width - p.x, y: height - p.y)
            case 3: return Point(x: width - p.y, y: p.x)
            default: return p
            }
        }

        func upright(_ box: FoundBox) -> Upright {
            let c = upright(box.center)
            let tip = upright(Point(x: box.center.x + box.axis.x, y: box.center.y + box.axis.y))
            var u = Point(x: tip.x - c.x, y: tip.y - c.y)
            let standing = abs(u.y) > abs(u.x)
            // Standing: u runs down the book, v to its right. Lying: u runs to the right, v downwards.
            if standing ? u.y < 0 : u.x < 0 { u = Point(x: -u.x, y: -u.y) }
            let v = standing ? Point(x: -u.y, y: u.x) : Point(x: -u.y, y: u.x)
            let (hl, ht) = (box.halfLength, box.halfThickness)
            func at(_ a: Double, _ b: Double) -> Point { Point(x: c.x + a * hl * u.x + b * ht * v.x, y: c.y + a * hl * u.y + b * ht * v.y) }
            let quad: Quad
            if standing {
                // v = (-u.y, u.x) points left when u points down, so the right side is -v.
                quad = Quad(topLeft: at(-1, 1), topRight: at(-1, -1), bottomRight: at(1, -1), bottomLeft: at(1, 1))
            } else {
                // Seen corners tl, tr, br, bl of a lying book; turned upright its head is its left end (as LyingBooks).
                let tl = at(-1, -1), tr = at(1, -1), br = at(1, 1), bl = at(-1, 1)
                quad = Quad(topLeft: bl, topRight: tl, bottomRight: tr, bottomLeft: br)
            }
            let ys = quad.points.map(\.y)
            return Upright(center: c, halfLength: hl, halfThickness: ht, standing: standing,
                           top: ys.min()!, bottom: ys.max()!, quad: quad, score: box.score)
        }
    }
}
