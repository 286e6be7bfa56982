/// An upright 8-bit RGB image: the value every pipeline stage passes on.
///
/// Pixels are interleaved `r, g, b`, row-major, origin top-left, `3 * width` bytes per row with no
/// padding. A plain value so that stages share nothing: copying is cheap until someone mutates.
public struct RGBImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 3, "RGB buffer size mismatch")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A solid image, for fixtures and canvases.
    public init(width: Int, height: Int, fill: (r: UInt8, g: UInt8, b: UInt8) = (255, 255, 255)) {
        var px = [UInt8](repeating: 0, count: width * height * 3)
        var i = 0
        while i < px.count { px[i] = fill.r; px[i + 1] = fill.g; px[i + 2] = fill.b; i += 3 }
        self.init(width: width, height: height, pixels: px)
    }
}

/// An 8-bit single-channel image, same layout rules as `RGBImage`.
public struct GrayImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height, "gray buffer size mismatch")
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}

/// A point in pixel coordinates of some image, origin top-left, y down.
public struct Point: Sendable, Equatable, Hashable, Codable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}

/// A quadrilateral in the order top-left, top-right, bottom-right, bottom-left of the upright spine:
/// "top" is where a reader would start. `ShelfImage` warps it to an upright rectangle.
public struct Quad: Sendable, Equatable, Hashable, Codable {
    public var topLeft: Point
    public var topRight: Point
    public var bottomRight: Point
    public var bottomLeft: Point
    public init(topLeft: Point, topRight: Point, bottomRight: Point, bottomLeft: Point) {
        self.topLeft = topLeft; self.topRight = topRight; self.bottomRight = bottomRight; self.bottomLeft = bottomLeft
    }
    public var points: [Point] { [topLeft, topRight, bottomRight, bottomLeft] }
}
