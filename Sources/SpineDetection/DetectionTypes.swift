import ShelfImage

/// An axis-aligned box normalized to 0...1 of the upright photo, origin top-left (seed 004's boundingBox).
public struct NormalizedRect: Sendable, Codable, Equatable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
}

/// One book spine found on a photo.
///
/// Coordinates are normalized to the upright full photo, so the pipeline can map them onto any decoded
/// size (the reduced detection image or the full-resolution one it crops from).
public struct DetectedSpine: Sendable, Codable, Equatable {
    /// Top-left, top-right, bottom-right, bottom-left of the spine as the book stands (for a book lying
    /// flat, "top" is its left end as seen on the photo).
    public var quad: Quad
    public var boundingBox: NormalizedRect
    /// Shelf row, 0 = top, and position in the row, 0 = leftmost.
    public var row: Int
    public var position: Int
    /// 0...1: how clearly both boundaries stood out from the rest of the row.
    public var confidence: Double
    /// A book lying flat in a horizontal stack.
    public var lying: Bool

    public init(quad: Quad, row: Int, position: Int, confidence: Double, lying: Bool) {
        self.quad = quad
        self.row = row
        self.position = position
        self.confidence = confidence
        self.lying = lying
        let xs = quad.points.map(\.x), ys = quad.points.map(\.y)
        let x0 = max(0, xs.min()!), y0 = max(0, ys.min()!), x1 = min(1, xs.max()!), y1 = min(1, ys.max()!)
        boundingBox = NormalizedRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }
}

/// A shelf row: the band of the photo between two boards, normalized.
public struct ShelfRow: Sendable, Codable, Equatable {
    public var index: Int
    public var top: Double
    public var bottom: Double
    public init(index: Int, top: Double, bottom: Double) { self.index = index; self.top = top; self.bottom = bottom }
}

public struct DetectionResult: Sendable, Codable, Equatable {
    public var rows: [ShelfRow]
    public var spines: [DetectedSpine]
    public init(rows: [ShelfRow], spines: [DetectedSpine]) { self.rows = rows; self.spines = spines }
}
