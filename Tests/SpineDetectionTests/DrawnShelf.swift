import ShelfImage

/// Shelf pictures drawn in code: books as filled quads of distinct colours with a dark seam between
/// them, a board below, a plain wall above, so every test knows exactly where each spine is.
struct DrawnShelf {
    var image: RGBImage
    /// Spine quads in pixels, left to right.
    var spines: [Quad] = []

    init(width: Int, height: Int, wall: (UInt8, UInt8, UInt8) = (225, 222, 215)) {
        image = RGBImage(width: width, height: height, fill: (r: wall.0, g: wall.1, b: wall.2))
    }

    static let palette: [(UInt8, UInt8, UInt8)] = [
        (180, 40, 40), (40, 90, 170), (230, 200, 60), (30, 30, 35), (60, 150, 80), (240, 240, 235),
        (120, 60, 140), (220, 120, 40), (90, 90, 95), (200, 170, 140),
    ]

    mutating func fill(_ q: Quad, _ c: (UInt8, UInt8, UInt8)) {
        let pts = q.points
        let y0 = max(0, Int(pts.map(\.y).min()!)), y1 = min(image.height - 1, Int(pts.map(\.y).max()!))
        guard y0 <= y1 else { return }
        for y in y0...y1 {
            let yy = Double(y) + 0.5
            var xs: [Double] = []
            for i in 0..<4 {
                let a = pts[i], b = pts[(i + 1) % 4]
                if (a.y <= yy && b.y > yy) || (b.y <= yy && a.y > yy) {
                    xs.append(a.x + (yy - a.y) / (b.y - a.y) * (b.x - a.x))
                }
            }
            guard xs.count >= 2 else { continue }
            let x0 = max(0, Int(xs.min()!.rounded())), x1 = min(image.width - 1, Int(xs.max()!.rounded()) - 1)
            guard x0 <= x1 else { continue }
            for x in x0...x1 {
                let i = (y * image.width + x) * 3
                image.pixels[i] = c.0; image.pixels[i + 1] = c.1; image.pixels[i + 2] = c.2
            }
        }
    }

    mutating func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ c: (UInt8, UInt8, UInt8)) {
        fill(Quad(topLeft: Point(x: x, y: y), topRight: Point(x: x + w, y: y),
                  bottomRight: Point(x: x + w, y: y + h), bottomLeft: Point(x: x, y: y + h)), c)
    }

    /// Standing books from `x` along a row whose board top is at `floorY`; `lean` is dx per unit of height.
    mutating func standing(from x: Double, floorY: Double, widths: [Double], heights: [Double], lean: Double = 0, colourOffset: Int = 0) {
        var left = x
        for (k, w) in widths.enumerated() {
            let h = heights[k % heights.count]
            let q = Quad(topLeft: Point(x: left + h * lean, y: floorY - h), topRight: Point(x: left + w + h * lean, y: floorY - h),
                         bottomRight: Point(x: left + w, y: floorY), bottomLeft: Point(x: left, y: floorY))
            fill(q, DrawnShelf.palette[(k + colourOffset) % DrawnShelf.palette.count])
            // A dark seam on the left side of each book: the shadow between neighbours.
            fill(Quad(topLeft: q.topLeft, topRight: Point(x: q.topLeft.x + 1.5, y: q.topLeft.y),
                      bottomRight: Point(x: q.bottomLeft.x + 1.5, y: floorY), bottomLeft: q.bottomLeft), (15, 15, 15))
            // Print: a title band and a call-number label, as real spines carry.
            let ink: (UInt8, UInt8, UInt8) = (k + colourOffset) % 3 == 0 ? (250, 250, 250) : (20, 20, 25)
            let cx = (left + w / 2) + h * 0.55 * lean
            fill(Quad(topLeft: Point(x: cx - w * 0.15 + h * 0.2 * lean, y: floorY - h * 0.75),
                      topRight: Point(x: cx + w * 0.15 + h * 0.2 * lean, y: floorY - h * 0.75),
                      bottomRight: Point(x: cx + w * 0.15 - h * 0.05 * lean, y: floorY - h * 0.5),
                      bottomLeft: Point(x: cx - w * 0.15 - h * 0.05 * lean, y: floorY - h * 0.5)), ink)
            let lx = left + w * 0.2 + h * 0.12 * lean
            fill(Quad(topLeft: Point(x: lx, y: floorY - h * 0.18), topRight: Point(x: lx + w * 0.6, y: floorY - h * 0.18),
                      bottomRight: Point(x: lx + w * 0.6 - h * 0.1 * lean, y: floorY - h * 0.08),
                      bottomLeft: Point(x: lx - h * 0.1 * lean, y: floorY - h * 0.08)), (245, 245, 240))
            spines.append(q)
            left += w
        }
    }

    mutating func board(y: Double, thickness: Double) {
        rect(0, y, Double(image.width), thickness, (200, 185, 160))
    }
}
