import ShelfImage

/// A rotated rectangle: what DB post-processing turns each text region into (OpenCV's `minAreaRect`).
public struct RotatedRect: Sendable, Equatable {
    public var center: Point
    /// Unit vector along the long side.
    public var axis: Point
    /// Half the long side and half the short side.
    public var halfLength: Double
    public var halfThickness: Double

    public init(center: Point, axis: Point, halfLength: Double, halfThickness: Double) {
        self.center = center; self.axis = axis; self.halfLength = halfLength; self.halfThickness = halfThickness
    }

    public var length: Double { 2 * halfLength }
    public var thickness: Double { 2 * halfThickness }

    /// The rectangle grown by `distance` on every side: the offset of a rectangle by d, whose rounded
    /// corners `minAreaRect` would square off again.
    public func expanded(by distance: Double) -> RotatedRect {
        var r = self
        r.halfLength += distance
        r.halfThickness += distance
        return r
    }

    /// Corners with the long side as the reading direction, left to right: `topLeft` is the start of the
    /// text line's top edge when the axis points rightwards (the axis is flipped to point right, or down
    /// when vertical, so the quad does not depend on which way the fitter found it).
    public var quad: Quad {
        var u = axis
        if u.x < -1e-9 || (abs(u.x) <= 1e-9 && u.y < 0) { u = Point(x: -u.x, y: -u.y) }
        let v = Point(x: -u.y, y: u.x)
        func p(_ a: Double, _ b: Double) -> Point {
            Point(x: center.x + a * halfLength * u.x + b * halfThickness * v.x,
                  y: center.y + a * halfLength * u.y + b * halfThickness * v.y)
        }
        return Quad(topLeft: p(-1, -1), topRight: p(1, -1), bottomRight: p(1, 1), bottomLeft: p(-1, 1))
    }

    /// True when the long side runs closer to vertical than horizontal.
    public var isVertical: Bool { abs(axis.y) > abs(axis.x) }
}

enum RectGeometry {
    /// Convex hull (Andrew's monotone chain), counter-clockwise in a y-down frame's terms, no duplicates.
    static func convexHull(_ points: [Point]) -> [Point] {
        let sorted = points.sorted { $0.x == $1.x ? $0.y < $1.y : $0.x < $1.x }
        guard sorted.count > 2 else { return sorted }
        func cross(_ o: Point, _ a: Point, _ b: Point) -> Double { (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x) }
        var lower: [Point] = []
        for p in sorted {
            while lower.count >= 2 && cross(lower[lower.count - 2], lower[lower.count - 1], p) <= 0 { lower.removeLast() }
            lower.append(p)
        }
        var upper: [Point] = []
        for p in sorted.reversed() {
            while upper.count >= 2 && cross(upper[upper.count - 2], upper[upper.count - 1], p) <= 0 { upper.removeLast() }
            upper.append(p)
        }
        return Array(lower.dropLast() + upper.dropLast())
    }

    /// The smallest-area rectangle around `points`: one of its sides lies on a hull edge, so every edge
    /// direction is tried (hulls of text regions have tens of edges, so the quadratic scan is cheap).
    static func minAreaRect(_ points: [Point]) -> RotatedRect? {
        let hull = convexHull(points)
        guard !hull.isEmpty else { return nil }
        if hull.count == 1 {
            return RotatedRect(center: hull[0], axis: Point(x: 1, y: 0), halfLength: 0, halfThickness: 0)
        }
        var best: (area: Double, rect: RotatedRect)?
        for i in 0..<hull.count {
            let a = hull[i], b = hull[(i + 1) % hull.count]
            let dx = b.x - a.x, dy = b.y - a.y
            let len = (dx * dx + dy * dy).squareRoot()
            guard len > 1e-9 else { continue }
            let u = Point(x: dx / len, y: dy / len), v = Point(x: -u.y, y: u.x)
            var minU = Double.infinity, maxU = -Double.infinity, minV = Double.infinity, maxV = -Double.infinity
            for p in hull {
                let pu = p.x * u.x + p.y * u.y, pv = p.x * v.x + p.y * v.y
                minU = min(minU, pu); maxU = max(maxU, pu); minV = min(minV, pv); maxV = max(maxV, pv)
            }
            let area = (maxU - minU) * (maxV - minV)
            if best == nil || area < best!.area - 1e-9 {
                let cu = (minU + maxU) / 2, cv = (minV + maxV) / 2
                let center = Point(x: cu * u.x + cv * v.x, y: cu * u.y + cv * v.y)
                let lu = (maxU - minU) / 2, lv = (maxV - minV) / 2
                let rect = lu >= lv
                    ? RotatedRect(center: center, axis: u, halfLength: lu, halfThickness: lv)
                    : RotatedRect(center: center, axis: v, halfLength: lv, halfThickness: lu)
                best = (area, rect)
            }
        }
        return best?.rect
    }
}
