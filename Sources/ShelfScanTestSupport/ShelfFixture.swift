import ShelfImage

/// A small synthetic shelf photo drawn in code: a back panel, a shelf board, and upright spines of known
/// colours and widths separated by thin shadows. Tests of the pipeline know exactly how many books it
/// shows and where, without any file on disk.
public struct ShelfFixture: Sendable {
    public var image: RGBImage
    /// Each spine's pixel rectangle (x, y, width, height), left to right.
    public var spines: [(x: Int, y: Int, width: Int, height: Int)]

    /// - Parameters:
    ///   - seed: varies colours and widths, so two fixtures with different seeds have different bytes.
    public static func make(width: Int = 640, height: Int = 360, spineCount: Int = 8, seed: UInt64 = 1) -> ShelfFixture {
        var rng = SplitMix64(seed: seed)
        // Titles from their own generator, so colours and widths stay what each seed always gave.
        var titleRNG = SplitMix64(seed: seed ^ 0x5EED_717E)
        let titles = ["EMMA", "ODES", "DUNE", "IVANHOE", "MIDDLEMARCH", "WALDEN", "ULYSSES", "BEOWULF", "CANDIDE", "HAMLET"]
        var image = RGBImage(width: width, height: height, fill: (92, 72, 58))   // a brown back panel
        let boardTop = height * 84 / 100
        image.fillRect(x: 0, y: boardTop, width: width, height: height - boardTop, color: (150, 108, 70))
        let palette: [(UInt8, UInt8, UInt8)] = [
            (200, 40, 40), (40, 90, 170), (230, 200, 60), (40, 140, 80), (235, 235, 225),
            (120, 50, 140), (20, 20, 30), (230, 120, 40), (90, 160, 190), (170, 150, 120),
        ]
        let margin = width / 20
        let usable = width - 2 * margin
        let nominal = usable / max(spineCount, 1)
        var x = margin
        var spines: [(x: Int, y: Int, width: Int, height: Int)] = []
        var last = -1
        for _ in 0..<spineCount {
            let w = max(8, nominal - 4 + Int(rng.next() % 5) - 2)
            let h = boardTop * (62 + Int(rng.next() % 30)) / 100
            var colorIndex = Int(rng.next() % UInt64(palette.count))
            if colorIndex == last { colorIndex = (colorIndex + 1) % palette.count }
            last = colorIndex
            let y = boardTop - h
            image.fillRect(x: x, y: y, width: w, height: h, color: palette[colorIndex])
            // A printed title running down the spine, as real spines carry: the detector weighs print, and a
            // coloured block standing in for a title reads to PP-OCR's text detector as a line across the books.
            let word = titles[Int(titleRNG.next() % UInt64(titles.count))]
            let color = palette[colorIndex]
            let ink: (UInt8, UInt8, UInt8) = Int(color.0) + Int(color.1) + Int(color.2) > 380 ? (20, 20, 25) : (245, 240, 230)
            var scale = max(1, w * 6 / 10 / 13)
            var title = BitmapText.standingSpine(BitmapText.render(word, scale: scale, ink: ink, paper: color))
            while title.height > h * 7 / 10, scale > 1 {
                scale -= 1
                title = BitmapText.standingSpine(BitmapText.render(word, scale: scale, ink: ink, paper: color))
            }
            image.paste(title, x: x + (w - title.width) / 2, y: y + h / 8)
            spines.append((x, y, w, h))
            x += w + 3   // a shadow gap: the back panel shows between books
        }
        return ShelfFixture(image: image, spines: spines)
    }
}

extension RGBImage {
    /// Copies `other` with its top-left corner at (x, y), clipped to the image.
    public mutating func paste(_ other: RGBImage, x: Int, y: Int) {
        for row in 0..<other.height where y + row >= 0 && y + row < height {
            for column in 0..<other.width where x + column >= 0 && x + column < width {
                let d = ((y + row) * width + x + column) * 3, s = (row * other.width + column) * 3
                pixels[d] = other.pixels[s]; pixels[d + 1] = other.pixels[s + 1]; pixels[d + 2] = other.pixels[s + 2]
            }
        }
    }

    /// Fills a rectangle, clipped to the image.
    public mutating func fillRect(x: Int, y: Int, width: Int, height: Int, color: (UInt8, UInt8, UInt8)) {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(self.width, x + width), y1 = min(self.height, y + height)
        guard x0 < x1, y0 < y1 else { return }
        for row in y0..<y1 {
            var i = (row * self.width + x0) * 3
            for _ in x0..<x1 {
                pixels[i] = color.0; pixels[i + 1] = color.1; pixels[i + 2] = color.2
                i += 3
            }
        }
    }
}

extension RGBImage {
    /// Fills a convex quadrilateral (any winding), clipped to the image: tilted spines for fixtures.
    public mutating func fillQuad(_ corners: [(Double, Double)], color: (UInt8, UInt8, UInt8)) {
        precondition(corners.count == 4)
        let ys = corners.map(\.1)
        let y0 = max(0, Int(ys.min()!.rounded(.down))), y1 = min(height - 1, Int(ys.max()!.rounded(.up)))
        guard y0 <= y1 else { return }
        for y in y0...y1 {
            let cy = Double(y) + 0.5
            var xs: [Double] = []
            for i in 0..<4 {
                let (ax, ay) = corners[i], (bx, by) = corners[(i + 1) % 4]
                if (ay <= cy && by > cy) || (by <= cy && ay > cy) {
                    xs.append(ax + (cy - ay) / (by - ay) * (bx - ax))
                }
            }
            guard xs.count >= 2, let lo = xs.min(), let hi = xs.max() else { continue }
            fillRect(x: Int(lo.rounded()), y: y, width: Int(hi.rounded()) - Int(lo.rounded()), height: 1, color: color)
        }
    }
}

/// A tiny deterministic generator, so fixtures are the same on every machine.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
