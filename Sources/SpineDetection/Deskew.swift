import Foundation
import ShelfImage

/// A photo held a few degrees off level tilts every shelf board and every row with it; rows are found as
/// horizontal bands, so the working image is turned level first and the spines turned back after.
///
/// The roll is the angle whose projection of the horizontal-edge map is most peaked: shelf boards and the
/// tops of the books are long lines that pile into a few bins only when projected along their own slope.
struct Deskew {
    /// Slope angle of the shelf lines in the image, radians, y down: a line runs along y = y0 + x·tan(angle).
    let angle: Double
    let centre: Point

    static func estimate(_ m: EdgeMaps, _ p: DetectorParameters) -> Double {
        guard p.maxSkewDegrees > 0, p.skewStepDegrees > 0, m.width > 2, m.height > 2 else { return 0 }
        let w = m.width, h = m.height
        // Strong horizontal-edge pixels only: a few percent of the image, so each angle is cheap.
        var xs: [Double] = [], ys: [Double] = [], vs: [Double] = []
        m.horizontal.withUnsafeBufferPointer { Hm in
            for y in 0..<h { for x in 0..<w where Hm[y * w + x] > 0.5 {
                xs.append(Double(x) - Double(w) / 2); ys.append(Double(y)); vs.append(Double(Hm[y * w + x]))
            } }
        }
        guard xs.count > w / 4 else { return 0 }
        let n = Int((p.maxSkewDegrees / p.skewStepDegrees).rounded())
        let margin = Double(w) * tan(p.maxSkewDegrees * .pi / 180) / 2 + 1
        var bins = [Double](repeating: 0, count: h + 2 * Int(margin) + 2)
        var best = 0.0, bestScore = -1.0, levelScore = -1.0
        for k in -n...n {
            let a = Double(k) * p.skewStepDegrees * .pi / 180
            let t = tan(a)
            for i in bins.indices { bins[i] = 0 }
            for i in xs.indices {
                let b = Int((ys[i] - xs[i] * t + margin).rounded())
                if b >= 0 && b < bins.count { bins[b] += vs[i] }
            }
            var s = 0.0
            for v in bins { s += v * v }
            if k == 0 { levelScore = s }
            if s > bestScore { bestScore = s; best = a }
        }
        // Level unless a tilt concentrates the lines clearly better: text lines and lying books must not
        // turn a level photo.
        return bestScore > levelScore * p.skewMinGain ? best : 0
    }

    /// The working image turned so that lines at `angle` run level; the same size, edges repeated.
    func levelled(_ image: RGBImage) -> RGBImage {
        let w = Double(image.width), h = Double(image.height)
        let q = Quad(topLeft: source(Point(x: 0, y: 0)), topRight: source(Point(x: w, y: 0)),
                     bottomRight: source(Point(x: w, y: h)), bottomLeft: source(Point(x: 0, y: h)))
        return image.warped(q, width: image.width, height: image.height)
    }

    /// Where a point of the levelled image lies in the original one.
    func source(_ p: Point) -> Point {
        let dx = p.x - centre.x, dy = p.y - centre.y
        return Point(x: centre.x + dx * cos(angle) - dy * sin(angle), y: centre.y + dx * sin(angle) + dy * cos(angle))
    }
}
