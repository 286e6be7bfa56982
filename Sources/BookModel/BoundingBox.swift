/// A spine's box, normalized to 0...1 of the upright full-size photo, origin top-left (seed 004's
/// `{x, y, width, height}`). Normalized so it survives the photo being rescaled or re-encoded.
public struct BoundingBox: Sendable, Equatable, Hashable, Codable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// True when the box lies inside the unit square and has a positive area; anything else is a caller bug.
    public var isNormalized: Bool {
        x >= 0 && y >= 0 && width > 0 && height > 0 && x + width <= 1.000001 && y + height <= 1.000001
    }

    /// The smallest box holding every point of a normalized polygon.
    public init?(enclosing polygon: [[Double]]) {
        let pts = polygon.filter { $0.count == 2 }
        guard !pts.isEmpty else { return nil }
        let xs = pts.map { $0[0] }, ys = pts.map { $0[1] }
        self.init(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }

    /// Intersection over union with another box: 1 for the same box, 0 for disjoint ones.
    public func iou(_ other: BoundingBox) -> Double {
        let ix = max(0, min(x + width, other.x + other.width) - max(x, other.x))
        let iy = max(0, min(y + height, other.y + other.height) - max(y, other.y))
        let intersection = ix * iy
        let union = width * height + other.width * other.height - intersection
        return union > 0 ? intersection / union : 0
    }
}
