import ShelfImage

/// An axis-aligned box normalized to 0...1 of the upright image, origin top-left: seed 004's `boundingBox`.
public struct NormalizedRect: Sendable, Codable, Equatable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// The tightest box around `points`, clamped to the image.
    public init(enclosing points: [Point]) {
        let xs = points.map(\.x), ys = points.map(\.y)
        let x0 = max(0, xs.min() ?? 0), x1 = min(1, xs.max() ?? 0)
        let y0 = max(0, ys.min() ?? 0), y1 = min(1, ys.max() ?? 0)
        self.init(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }
}

/// One book as the detector sees it. The quad is normalized to 0...1 of the upright image so the caller
/// can map it onto the full-resolution photo for cropping, whatever size the detector worked at.
public struct DetectedSpine: Sendable, Codable, Equatable {
    /// Corners TL, TR, BR, BL as the book stands (for a lying book: as it would stand, turned upright).
    public var quad: Quad
    public var boundingBox: NormalizedRect
    /// Index into `DetectionResult.rows`, top row first.
    public var row: Int
    /// Left-to-right order within the row (top-to-bottom within a lying stack, after the upright ones left of it).
    public var position: Int
    /// 0...1: how clearly both boundaries stood out along the whole spine.
    public var confidence: Double
    /// A book lying down: in a stack seen spine-on, or face up (its quad is then the whole cover, turned
    /// as its print reads).
    public var lying: Bool

    public init(quad: Quad, row: Int, position: Int, confidence: Double, lying: Bool) {
        self.quad = quad
        self.boundingBox = NormalizedRect(enclosing: quad.points)
        self.row = row
        self.position = position
        self.confidence = confidence
        self.lying = lying
    }
}

/// A band of books between shelf boards, normalized to 0...1 of the image height. `top` and `bottom`
/// are taken at the image's horizontal centre; on a photo held off level both lines fall by `slope`
/// (normalized y per normalized x) towards the right.
public struct ShelfRow: Sendable, Codable, Equatable {
    public var index: Int
    public var top: Double
    public var bottom: Double
    public var slope: Double
    public init(index: Int, top: Double, bottom: Double, slope: Double = 0) {
        self.index = index; self.top = top; self.bottom = bottom; self.slope = slope
    }
}

public struct DetectionResult: Sendable, Codable, Equatable {
    public var rows: [ShelfRow]
    public var spines: [DetectedSpine]
    /// Quarter turns clockwise that would stand the photo upright, when its books showed it was taken sideways or
    /// upside down (nil: as taken). Quads stay in the photo's own coordinates; rows are measured in the turned photo.
    public var quarterTurns: Int?
    public init(rows: [ShelfRow], spines: [DetectedSpine], quarterTurns: Int? = nil) {
        self.rows = rows; self.spines = spines; self.quarterTurns = quarterTurns
    }
}

/// A place in a row where a boundary between spines may run (normalized coordinates of the working
/// image, levelled when the photo was taken off level; `x` at the row's middle height).
public struct BoundaryCandidate: Sendable, Equatable {
    /// The order of `cues`: edge coverage along the line, coverage at the row's foot (capped by the
    /// former), dark-gap depth and colour change across the line; the score weighs them with
    /// darkGapWeight, colourChangeWeight and footWeight (coverage has weight 1).
    public static let cueNames = ["coverage", "foot", "dark", "colour"]
    public var row: Int
    public var top: Double
    public var bottom: Double
    public var x: Double
    public var score: Double
    public var cues: [Double]
}
