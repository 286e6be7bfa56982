import ShelfImage
import SpineDetection

/// Maps a detection (normalized to the upright photo) onto a decoded image and cuts the spine out upright.
public enum SpineGeometry {
    /// The spine as the book stands: top of the book at the top, so a spine gives a tall crop, a lying book's
    /// too (its quad is turned upright). Readers try the reading directions themselves.
    ///
    /// The quad is widened by `margin` of its width on each side: detected boundaries sit on the shadow
    /// between books, and text printed near the edge must not be cut.
    public static func crop(_ spine: DetectedSpine, from image: RGBImage, margin: Double = 0.04) -> RGBImage {
        let quad = pixelQuad(spine.quad, width: image.width, height: image.height, margin: margin)
        let top = distance(quad.topLeft, quad.topRight), bottom = distance(quad.bottomLeft, quad.bottomRight)
        let left = distance(quad.topLeft, quad.bottomLeft), right = distance(quad.topRight, quad.bottomRight)
        let width = max(1, Int(((top + bottom) / 2).rounded()))
        let height = max(1, Int(((left + right) / 2).rounded()))
        return image.warped(quad, width: width, height: height)
    }

    /// A normalized quad in pixels of a `width` x `height` image, widened across the spine by `margin`.
    public static func pixelQuad(_ quad: Quad, width: Int, height: Int, margin: Double = 0) -> Quad {
        func scale(_ p: Point) -> Point { Point(x: p.x * Double(width), y: p.y * Double(height)) }
        var q = Quad(topLeft: scale(quad.topLeft), topRight: scale(quad.topRight),
                     bottomRight: scale(quad.bottomRight), bottomLeft: scale(quad.bottomLeft))
        if margin > 0 {
            func widen(_ a: Point, _ b: Point) -> (Point, Point) {
                let dx = (b.x - a.x) * margin, dy = (b.y - a.y) * margin
                return (Point(x: a.x - dx, y: a.y - dy), Point(x: b.x + dx, y: b.y + dy))
            }
            (q.topLeft, q.topRight) = widen(q.topLeft, q.topRight)
            (q.bottomLeft, q.bottomRight) = widen(q.bottomLeft, q.bottomRight)
        }
        func clamp(_ p: Point) -> Point {
            Point(x: min(max(p.x, 0), Double(width)), y: min(max(p.y, 0), Double(height)))
        }
        return Quad(topLeft: clamp(q.topLeft), topRight: clamp(q.topRight),
                    bottomRight: clamp(q.bottomRight), bottomLeft: clamp(q.bottomLeft))
    }

    static func distance(_ a: Point, _ b: Point) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
    }
}
