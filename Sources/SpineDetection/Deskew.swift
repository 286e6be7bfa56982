import CPixelLoops
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
        // Every fourth angle first, then the steps around the best of them: the score rises smoothly towards
        // the shelf lines' angle, and a third of the angles cost a third of the time.
        let coarse = Set(stride(from: -n, through: n, by: 4)).union([-n, 0, n]).sorted()
        var scores: [Int: Double] = [:]
        func score(_ k: Int) -> Double {
            if let s = scores[k] { return s }
            let a = Double(k) * p.skewStepDegrees * .pi / 180
            // Truncating after adding a half rounds as `rounded()` does where it matters (b >= 0), without a
            // libm call per point and angle; in C, where the projection runs without Swift's access checks on
            // the captured bins (a tenth of detection's time when it was Swift).
            let s = shelf_projection_energy(xs, ys, vs, xs.count, tan(a), margin, &bins, bins.count)
            scores[k] = s
            return s
        }
        // The first best in angle order, as a full scan from -n up would keep it.
        func best(_ ks: some Sequence<Int>, after start: (k: Int, score: Double)) -> (k: Int, score: Double) {
            ks.reduce(start) { best, k in score(k) > best.score ? (k, score(k)) : best }
        }
        let coarseBest = best(coarse, after: (0, -1))
        let found = best(max(-n, coarseBest.k - 3)...min(n, coarseBest.k + 3), after: coarseBest)
        // Level unless a tilt concentrates the lines clearly better: text lines and lying books must not
        // turn a level photo.
        return found.score > score(0) * p.skewMinGain ? Double(found.k) * p.skewStepDegrees * .pi / 180 : 0
    }

    /// The levelled image, `width` x `height` (the frame `angle` and `centre` are measured in), sampled
    /// straight from `image`, which may be larger with the same aspect: one resampling, not a shrink and then
    /// a turn, which would blur thin spines twice. Corners from outside the photo repeat its edge pixels.
    func levelled(_ image: RGBImage, width: Int, height: Int) -> RGBImage {
        let sx = Double(image.width) / Double(width), sy = Double(image.height) / Double(height)
        func input(_ x: Double, _ y: Double) -> Point {
            let s = source(Point(x: x, y: y))
            return Point(x: s.x * sx, y: s.y * sy)
        }
        let w = Double(width), h = Double(height)
        return image.warped(Quad(topLeft: input(0, 0), topRight: input(w, 0), bottomRight: input(w, h), bottomLeft: input(0, h)),
                            width: width, height: height)
    }

    /// Where a point of the levelled image lies in the original one.
    func source(_ p: Point) -> Point {
        let dx = p.x - centre.x, dy = p.y - centre.y
        return Point(x: centre.x + dx * cos(angle) - dy * sin(angle), y: centre.y + dx * sin(angle) + dy * cos(angle))
    }

    /// Where a point of the original image lies in the levelled one (the inverse of `source`): text lines
    /// are found on the photo, spines on the levelled image.
    func levelled(_ p: Point) -> Point {
        let dx = p.x - centre.x, dy = p.y - centre.y
        return Point(x: centre.x + dx * cos(angle) + dy * sin(angle), y: centre.y - dx * sin(angle) + dy * cos(angle))
    }
}
