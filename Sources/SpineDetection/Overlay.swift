import ShelfImage

/// Draws what the detector found onto the photo, so a person can judge it at a glance: every quad
/// outlined and numbered in reading order, every shelf row marked by a band at the left edge.
public enum Overlay {
    public static func render(_ image: RGBImage, _ result: DetectionResult) -> RGBImage {
        var canvas = image
        let w = Double(image.width), h = Double(image.height)
        let thickness = max(1, image.width / 500)
        let palette: [(UInt8, UInt8, UInt8)] = [(255, 40, 40), (40, 220, 60), (40, 120, 255), (255, 200, 0), (230, 60, 230), (0, 220, 220)]
        for row in result.rows {
            let color = palette[row.index % palette.count]
            let y0 = Int(row.top * h), y1 = Int(row.bottom * h)
            canvas.drawLine(from: Point(x: 2, y: Double(y0)), to: Point(x: 2, y: Double(y1)), color: color, thickness: thickness * 3)
        }
        let scale = max(1, image.width / 400)
        for (number, spine) in result.spines.enumerated() {
            let color = palette[spine.row % palette.count]
            let pts = spine.quad.points.map { Point(x: $0.x * w, y: $0.y * h) }
            for i in 0..<4 {
                canvas.drawLine(from: pts[i], to: pts[(i + 1) % 4], color: color, thickness: thickness)
            }
            let label = String(number + 1)
            let cx = (pts[0].x + pts[1].x) / 2, cy = pts[0].y + Double(4 * scale)
            canvas.drawDigits(label, centerX: Int(cx), top: Int(cy), scale: scale, color: (255, 255, 255), background: (0, 0, 0))
        }
        return canvas
    }
}

extension RGBImage {
    mutating func setPixel(_ x: Int, _ y: Int, _ color: (UInt8, UInt8, UInt8)) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let i = (y * width + x) * 3
        pixels[i] = color.0; pixels[i + 1] = color.1; pixels[i + 2] = color.2
    }

    mutating func drawLine(from a: Point, to b: Point, color: (UInt8, UInt8, UInt8), thickness: Int) {
        let steps = Int(max(abs(b.x - a.x), abs(b.y - a.y)).rounded(.up)) + 1
        let half = thickness / 2
        for s in 0...steps {
            let t = Double(s) / Double(max(1, steps))
            let x = Int((a.x + (b.x - a.x) * t).rounded()), y = Int((a.y + (b.y - a.y) * t).rounded())
            for dy in -half...half { for dx in -half...half { setPixel(x + dx, y + dy, color) } }
        }
    }

    /// Digits in a 3x5 bitmap font, scaled; enough to number spines without a font library.
    mutating func drawDigits(_ text: String, centerX: Int, top: Int, scale: Int,
                             color: (UInt8, UInt8, UInt8), background: (UInt8, UInt8, UInt8)) {
        let glyphs: [Character: [UInt8]] = [
            "0": [7, 5, 5, 5, 7], "1": [2, 6, 2, 2, 7], "2": [7, 1, 7, 4, 7], "3": [7, 1, 7, 1, 7], "4": [5, 5, 7, 1, 1],
            "5": [7, 4, 7, 1, 7], "6": [7, 4, 7, 5, 7], "7": [7, 1, 1, 1, 1], "8": [7, 5, 7, 5, 7], "9": [7, 5, 7, 1, 7],
        ]
        let chars = Array(text)
        let totalWidth = (chars.count * 4 + 1) * scale
        let left = centerX - totalWidth / 2
        for y in (top - scale)..<(top + 6 * scale) {
            for x in left..<(left + totalWidth) { setPixel(x, y, background) }
        }
        for (i, ch) in chars.enumerated() {
            guard let rows = glyphs[ch] else { continue }
            for (r, bits) in rows.enumerated() {
                for c in 0..<3 where bits & (4 >> c) != 0 {
                    for dy in 0..<scale { for dx in 0..<scale {
                        setPixel(left + (i * 4 + 1 + c) * scale + dx, top + r * scale + dy, color)
                    } }
                }
            }
        }
    }
}
