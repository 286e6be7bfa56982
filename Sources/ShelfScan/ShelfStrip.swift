import BookModel
import ShelfImage

/// The shelf around a spine under review, as the terminal review and the review page both show it: a strip of
/// the row with the box outlined and its neighbours dimmed. One drawing, so the two doors show the same.
public enum ShelfStrip {
    /// A strip of the shelf row around a box, about `aspect` times as wide as tall (the shape of the screen
    /// area it fills), with the box outlined and everything else dimmed so the box stands out even when the
    /// strip is drawn a few characters high.
    /// - Parameters:
    ///   - photo: the upright photo (any scale: the box is normalized, origin top-left).
    ///   - outlineWidth: the outline's thickness in the strip's pixels (about one screen cell).
    public static func context(photo: RGBImage, box: BoundingBox, polygon: [[Double]], aspect: Double, columns: Int,
                        cut: Double? = nil, lying: Bool = false) -> RGBImage? {
        let pw = Double(photo.width), ph = Double(photo.height)
        guard pw > 0, ph > 0, box.width > 0, box.height > 0, aspect > 0 else { return nil }
        let bx = box.x * pw, by = box.y * ph, bw = box.width * pw, bh = box.height * ph
        // Wide enough for a few neighbours each side, then as tall as the screen area's shape allows.
        let width = min(pw, max(9 * bw, 3 * bh, 0.2 * pw))
        let height = min(ph, max(0.15 * bh, min(1.1 * bh, width / aspect)))
        let x0 = max(0, min(pw - width, bx + bw / 2 - width / 2)), y0 = max(0, min(ph - height, by + bh / 2 - height / 2))
        var strip = photo.cropped(x: Int(x0), y: Int(y0), width: Int(width.rounded()), height: Int(height.rounded()))
        guard strip.width > 0, strip.height > 0 else { return nil }
        // As the book stands, as the detector gives its quads: a lying book's box without its polygon is turned
        // (its top-left corner is the box's bottom-left), so a cut falls between the books of a stack.
        let quad: [(Double, Double)] = polygon.count == 4 && polygon.allSatisfy({ $0.count == 2 })
            ? polygon.map { ($0[0] * pw - x0, $0[1] * ph - y0) }
            : lying ? [(bx - x0, by + bh - y0), (bx - x0, by - y0), (bx + bw - x0, by - y0), (bx + bw - x0, by + bh - y0)]
            : [(bx - x0, by - y0), (bx + bw - x0, by - y0), (bx + bw - x0, by + bh - y0), (bx - x0, by + bh - y0)]
        dimOutside(&strip, quad)
        let thickness = max(2, Int((Double(strip.width) / Double(max(1, columns))).rounded(.up)))
        for i in 0..<4 { line(&strip, quad[i], quad[(i + 1) % 4], thickness: thickness, color: (255, 214, 0)) }
        if let cut {
            // Where a split would cut: across the spine, as SpineReshape.split cuts it.
            func at(_ a: (Double, Double), _ b: (Double, Double)) -> (Double, Double) { (a.0 + (b.0 - a.0) * cut, a.1 + (b.1 - a.1) * cut) }
            line(&strip, at(quad[0], quad[1]), at(quad[3], quad[2]), thickness: thickness, color: (255, 40, 200))
        }
        return strip
    }

    private static func inside(_ p: (Double, Double), _ quad: [(Double, Double)]) -> Bool {
        // The quad is convex; inside when on the same side of all four edges.
        var sign = 0.0
        for i in 0..<4 {
            let a = quad[i], b = quad[(i + 1) % 4]
            let cross = (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0)
            if cross != 0 {
                if sign == 0 { sign = cross } else if (sign > 0) != (cross > 0) { return false }
            }
        }
        return true
    }

    private static func dimOutside(_ image: inout RGBImage, _ quad: [(Double, Double)]) {
        for y in 0..<image.height {
            for x in 0..<image.width where !inside((Double(x) + 0.5, Double(y) + 0.5), quad) {
                let i = (y * image.width + x) * 3
                for k in 0..<3 { image.pixels[i + k] = UInt8(Int(image.pixels[i + k]) * 11 / 20) }
            }
        }
    }

    private static func line(_ image: inout RGBImage, _ a: (Double, Double), _ b: (Double, Double), thickness: Int, color: (UInt8, UInt8, UInt8)) {
        let steps = Int(max(abs(b.0 - a.0), abs(b.1 - a.1)).rounded(.up)) + 1
        let half = thickness / 2
        for s in 0...steps {
            let t = Double(s) / Double(max(1, steps))
            let cx = Int(a.0 + (b.0 - a.0) * t), cy = Int(a.1 + (b.1 - a.1) * t)
            let ys = max(0, cy - half), ye = min(image.height, cy - half + thickness)
            let xs = max(0, cx - half), xe = min(image.width, cx - half + thickness)
            guard ys < ye, xs < xe else { continue }
            for y in ys..<ye {
                for x in xs..<xe {
                    let i = (y * image.width + x) * 3
                    image.pixels[i] = color.0; image.pixels[i + 1] = color.1; image.pixels[i + 2] = color.2
                }
            }
        }
    }
}
