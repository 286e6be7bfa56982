import ShelfImage

/// Draws a detection on the photo for a person to check: every quad outlined and numbered in reading
/// order, shelf rows marked by dashed lines. Digits are a built-in 3x5 bitmap font so no font library
/// is needed.
public enum Overlay {
    public static func render(_ image: RGBImage, _ result: DetectionResult) -> RGBImage {
        var canvas = Canvas(image)
        let w = Double(image.width), h = Double(image.height)
        let thick = max(1, min(image.width, image.height) / 400)
        for row in result.rows {
            for y in [row.top, row.bottom] {
                if let turns = result.quarterTurns, turns != 0 {
                    // Rows of a photo taken sideways run up or down it: each edge back in the photo's coordinates.
                    let a = SpineLayout.photoPoint(fromUpright: Point(x: 0, y: y), turns: turns)
                    let b = SpineLayout.photoPoint(fromUpright: Point(x: 1, y: y), turns: turns)
                    canvas.line(Point(x: a.x * w, y: a.y * h), Point(x: b.x * w, y: b.y * h), colour: (0, 160, 255), thickness: thick)
                } else {
                    canvas.dashedLine(y: y * h, slope: row.slope * h / w, colour: (0, 160, 255), thickness: thick)
                }
            }
        }
        for (n, s) in result.spines.enumerated() {
            let colour: (UInt8, UInt8, UInt8) = s.lying ? (255, 0, 255) : (n % 2 == 0 ? (255, 40, 40) : (40, 230, 40))
            let pts = s.quad.points.map { Point(x: $0.x * w, y: $0.y * h) }
            for i in 0..<4 { canvas.line(pts[i], pts[(i + 1) % 4], colour: colour, thickness: thick) }
            let cx = pts.map(\.x).reduce(0, +) / 4, cy = pts.map(\.y).reduce(0, +) / 4
            let bw = (s.boundingBox.width * w)
            let scale = max(1, min(Int(bw / 8), max(2, image.width / 300)))
            canvas.number(n + 1, centre: Point(x: cx, y: cy), scale: scale, colour: colour)
        }
        return canvas.image
    }

    /// One spine outlined so a person finds it on the whole shelf: a dark band under a bright one, so the
    /// line shows on light and dark spines alike.
    /// - Parameter polygon: the spine's corners, normalized to `image` (origin top-left), in drawing order.
    public static func outline(_ image: RGBImage, polygon: [Point]) -> RGBImage {
        guard polygon.count >= 3 else { return image }
        var canvas = Canvas(image)
        let thick = max(2, max(image.width, image.height) / 300)
        let pts = polygon.map { Point(x: $0.x * Double(image.width), y: $0.y * Double(image.height)) }
        let bands: [(colour: (UInt8, UInt8, UInt8), thickness: Int)] = [((0, 0, 0), thick * 2 + 2), ((255, 230, 0), thick)]
        for (colour, t) in bands {
            for i in pts.indices { canvas.line(pts[i], pts[(i + 1) % pts.count], colour: colour, thickness: t) }
        }
        return canvas.image
    }
}

struct Canvas {
    var image: RGBImage

    init(_ image: RGBImage) { self.image = image }

    mutating func set(_ x: Int, _ y: Int, _ c: (UInt8, UInt8, UInt8)) {
        guard x >= 0, y >= 0, x < image.width, y < image.height else { return }
        let i = (y * image.width + x) * 3
        image.pixels[i] = c.0; image.pixels[i + 1] = c.1; image.pixels[i + 2] = c.2
    }

    mutating func dot(_ x: Int, _ y: Int, _ c: (UInt8, UInt8, UInt8), _ t: Int) {
        let r = t / 2
        for dy in -r...(t - 1 - r) { for dx in -r...(t - 1 - r) { set(x + dx, y + dy, c) } }
    }

    mutating func line(_ a: Point, _ b: Point, colour: (UInt8, UInt8, UInt8), thickness: Int) {
        let n = Int(max(abs(b.x - a.x), abs(b.y - a.y)).rounded(.up))
        guard n > 0, n < 1_000_000 else { dot(Int(a.x), Int(a.y), colour, thickness); return }
        for i in 0...n {
            let t = Double(i) / Double(n)
            dot(Int((a.x + t * (b.x - a.x)).rounded()), Int((a.y + t * (b.y - a.y)).rounded()), colour, thickness)
        }
    }

    /// A dashed line through (width / 2, y) falling by `slope` pixels per pixel to the right.
    mutating func dashedLine(y: Double, slope: Double, colour: (UInt8, UInt8, UInt8), thickness: Int) {
        guard image.width > 0 else { return }
        let mid = Double(image.width) / 2
        for x in 0..<image.width where (x / 12) % 2 == 0 {
            dot(x, Int((y + (Double(x) - mid) * slope).rounded()), colour, thickness)
        }
    }

    /// 3x5 glyphs, one row per 3-bit number, top row first.
    static let glyphs: [[UInt8]] = [
        [7, 5, 5, 5, 7], [2, 6, 2, 2, 7], [7, 1, 7, 4, 7], [7, 1, 7, 1, 7], [5, 5, 7, 1, 1],
        [7, 4, 7, 1, 7], [7, 4, 7, 5, 7], [7, 1, 1, 2, 2], [7, 5, 7, 5, 7], [7, 5, 7, 1, 7],
    ]

    mutating func number(_ value: Int, centre: Point, scale: Int, colour: (UInt8, UInt8, UInt8)) {
        let digits = String(value).compactMap { $0.wholeNumberValue }
        let advance = 4 * scale
        let totalW = digits.count * advance - scale, totalH = 5 * scale
        let x0 = Int(centre.x) - totalW / 2, y0 = Int(centre.y) - totalH / 2
        // A dark plate behind the digits keeps them readable on any spine.
        for y in (y0 - scale)..<(y0 + totalH + scale) {
            for x in (x0 - scale)..<(x0 + totalW + scale) { set(x, y, (0, 0, 0)) }
        }
        for (k, d) in digits.enumerated() {
            for (r, bits) in Canvas.glyphs[d].enumerated() {
                for c in 0..<3 where bits & (4 >> c) != 0 {
                    for dy in 0..<scale { for dx in 0..<scale { set(x0 + k * advance + c * scale + dx, y0 + r * scale + dy, colour) } }
                }
            }
        }
    }
}
