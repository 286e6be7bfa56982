import Foundation
import ShelfImage

/// Finds shelf rows and, in each row, the book spines standing in it.
///
/// The classical pipeline, in the order DESIGN.md argues for:
/// 1. Edge maps on luminance and two colour-opponent channels, so two spines of equal brightness but
///    different colour still show a boundary.
/// 2. Rows: bands of the photo rich in near-vertical structure, separated by boards (long horizontal
///    structure, little vertical).
/// 3. Boundaries: for every position along the row and every tilt up to `maxTiltDegrees`, the mean edge
///    strength across a line running the whole height of the row. A spine edge runs top to bottom; text
///    and label edges do not, so they score low.
/// 4. Segmentation: dynamic programming over the boundary candidates with a hard minimum spine width
///    and a soft log-width prior relative to the row height — a global choice instead of greedy peak
///    picking, so the two sides of a shadow or a label's edges cannot both become boundaries.
/// 5. Each segment's top edge, its texture (a gap or the back panel is flat), and a confidence.
///
/// Works on the reduced image the pipeline decodes with DCT scaling (≈1300 px on the long side); the
/// result is normalized, so it applies to the full-resolution photo unchanged.
public struct SpineDetector: Sendable {
    public var parameters: DetectorParameters

    public init(parameters: DetectorParameters = .bundled) {
        self.parameters = parameters
    }

    public func detect(_ image: RGBImage) -> DetectionResult {
        guard image.width >= 16, image.height >= 16 else { return DetectionResult(rows: [], spines: []) }
        let maps = EdgeMaps(image)
        let bands = rowBands(maps)
        var rows: [ShelfRow] = []
        var spines: [DetectedSpine] = []
        let w = Double(image.width), h = Double(image.height)
        for band in bands {
            let rowIndex = rows.count
            // Vertical structure fades near the tops of books (fewer neighbours reach that high), so
            // the band is opened upwards and each spine's own top edge is searched from there.
            let reach = Int(parameters.rowTopReach * Double(band.count))
            let bandTop = max(bands.last(where: { $0.upperBound <= band.lowerBound })?.upperBound ?? 0, band.lowerBound - reach)
            let found = spinesInBand(maps, top: bandTop, bottom: band.upperBound)
            guard !found.isEmpty else { continue }
            rows.append(ShelfRow(index: rowIndex, top: Double(bandTop) / h, bottom: Double(band.upperBound) / h))
            for (position, s) in found.enumerated() {
                let quad = Quad(
                    topLeft: Point(x: s.topLeft.x / w, y: s.topLeft.y / h),
                    topRight: Point(x: s.topRight.x / w, y: s.topRight.y / h),
                    bottomRight: Point(x: s.bottomRight.x / w, y: s.bottomRight.y / h),
                    bottomLeft: Point(x: s.bottomLeft.x / w, y: s.bottomLeft.y / h))
                spines.append(DetectedSpine(quad: quad, row: rowIndex, position: position, confidence: s.confidence, lying: false))
            }
        }
        return DetectionResult(rows: rows, spines: spines)
    }

    // MARK: Rows

    /// Bands of rows rich in vertical structure, top to bottom.
    func rowBands(_ maps: EdgeMaps) -> [Range<Int>] {
        let p = parameters
        let width = maps.width, height = maps.height
        var profile = [Double](repeating: 0, count: height)
        maps.vertical.withUnsafeBufferPointer { v in
            for y in 0..<height {
                var sum: Float = 0
                let base = y * width
                for x in 0..<width { sum += v[base + x] }
                profile[y] = Double(sum) / Double(width)
            }
        }
        let smoothed = Self.movingAverage(profile, radius: max(1, Int(p.rowProfileSmoothing * Double(height) / 2)))
        let threshold = p.rowThreshold * Self.percentile(smoothed, 0.9)
        guard threshold > 0 else { return [] }
        // Hysteresis downwards: a row is seeded where vertical structure is strong, then grown down to
        // the board while it stays above a low bar, so the plain lower part of the spines (below the
        // titles) stays in it. Upwards the row is opened separately (`rowTopReach`), as the space above
        // short books is the back panel or, through a gap, the next bay's books.
        let low = p.rowGrowThreshold * Self.percentile(smoothed, 0.9)
        var runs: [Range<Int>] = []
        var y = 0
        while y < height {
            guard smoothed[y] > threshold else { y += 1; continue }
            let start = y
            var end = y
            while end < height && smoothed[end] > threshold { end += 1 }
            let seedEnd = end
            while end < height && smoothed[end] > low { end += 1 }
            // The row ends at the board: the strongest horizontal edge in the grown part.
            if end > seedEnd + 1 {
                end = (seedEnd..<end).max { maps.horizontalStrength(row: $0) < maps.horizontalStrength(row: $1) }! + 1
            }
            if let last = runs.last, start <= last.upperBound {
                runs[runs.count - 1] = last.lowerBound..<max(end, last.upperBound)
            } else {
                runs.append(start..<end)
            }
            y = end
        }
        let maxGap = Int(p.maxRowGap * Double(height))
        var merged: [Range<Int>] = []
        for run in runs {
            if let last = merged.last, run.lowerBound - last.upperBound <= maxGap {
                merged[merged.count - 1] = last.lowerBound..<run.upperBound
            } else {
                merged.append(run)
            }
        }
        let minHeight = Int(p.minRowHeight * Double(height))
        return merged.filter { $0.count >= max(8, minHeight) }
    }

    // MARK: Spines in one row

    struct Found {
        var topLeft: Point, topRight: Point, bottomRight: Point, bottomLeft: Point
        var confidence: Double
    }

    struct Boundary {
        var x: Double       // position on the row's middle line
        var slope: Double   // dx per dy
        var score: Double   // normalized evidence, about 0...1
    }

    func spinesInBand(_ maps: EdgeMaps, top: Int, bottom: Int) -> [Found] {
        let p = parameters
        let rowHeight = Double(bottom - top)
        let profile = boundaryProfile(maps, top: top, bottom: bottom)
        let candidates = boundaryCandidates(profile, rowHeight: rowHeight)
        let chosen = segment(candidates, width: maps.width, rowHeight: rowHeight)
        let mid = Double(top + bottom) / 2
        var found: [Found] = []
        let texture = maps.rowTexture(top: top, bottom: bottom)
        // The back panel's colour, from the strip just above the row where no book reaches.
        let panel = maps.meanColor(x0: 0, x1: maps.width, y0: max(0, top - 6), y1: max(1, top))
        for (left, right) in zip(chosen, chosen.dropFirst()) {
            let spineWidth = right.x - left.x
            guard spineWidth >= p.minSpineWidth * rowHeight, spineWidth <= p.maxSpineWidth * rowHeight else { continue }
            func xAt(_ b: Boundary, _ y: Double) -> Double { b.x + (y - mid) * b.slope }
            let spineTop = topEdge(maps, left: left, right: right, top: top, bottom: bottom)
            let yTop = Double(spineTop), yBottom = Double(bottom)
            let xs = [xAt(left, yTop), xAt(right, yTop), xAt(right, yBottom), xAt(left, yBottom)]
            // A flat segment is the back panel, a gap or a bookend, not a book.
            let inner = maps.meanTexture(xLeft: xs[0], xRight: xs[1], slopeLeft: left.slope, slopeRight: right.slope,
                                         mid: mid, top: spineTop, bottom: bottom)
            if inner < 0.35 * texture {
                // Flat inside: the back panel showing through a gap, unless its colour is a book's.
                let cx0 = Int(min(xs[0], xs[3]) + 0.3 * spineWidth), cx1 = Int(max(xs[1], xs[2]) - 0.3 * spineWidth)
                let inside = maps.meanColor(x0: cx0, x1: cx1, y0: (spineTop + bottom) / 2 - 4, y1: (spineTop + bottom) / 2 + 4)
                let distance = ((inside.0 - panel.0) * (inside.0 - panel.0) + (inside.1 - panel.1) * (inside.1 - panel.1)
                                + (inside.2 - panel.2) * (inside.2 - panel.2)).squareRoot()
                guard distance > p.panelColorDistance else { continue }
            }
            let confidence = min(1, max(0, 0.35 + 0.65 * min(left.score, right.score)))
            guard confidence >= p.minConfidence else { continue }
            found.append(Found(
                topLeft: Point(x: xs[0], y: yTop), topRight: Point(x: xs[1], y: yTop),
                bottomRight: Point(x: xs[2], y: yBottom), bottomLeft: Point(x: xs[3], y: yBottom),
                confidence: confidence))
        }
        return found
    }

    /// For each x on the row's middle line: the best mean edge strength across a line through it, over
    /// all tilts, and that tilt's slope.
    func boundaryProfile(_ maps: EdgeMaps, top: Int, bottom: Int) -> (score: [Float], slope: [Double]) {
        let p = parameters
        let width = maps.width
        let mid = Double(top + bottom) / 2
        var best = [Float](repeating: 0, count: width)
        var bestSlope = [Double](repeating: 0, count: width)
        let steps = max(0, Int(p.maxTiltDegrees / max(0.5, p.tiltStepDegrees)))
        var sums = [Float](repeating: 0, count: width)
        var counts = [Int32](repeating: 0, count: width)
        let cap = Float(p.edgeSaturation), inverseCap = 1 / Float(p.edgeSaturation)
        for k in -steps...steps {
            let angle = Double(k) * p.tiltStepDegrees * .pi / 180
            let slope = tan(angle)
            let norm = Float(1 / (1 + slope * slope).squareRoot())
            let nx = norm, ny = Float(-slope) * norm
            for i in 0..<width { sums[i] = 0; counts[i] = 0 }
            sums.withUnsafeMutableBufferPointer { sum in
                counts.withUnsafeMutableBufferPointer { count in
                    maps.gx.withUnsafeBufferPointer { gx in
                        maps.gy.withUnsafeBufferPointer { gy in
                            for y in top..<bottom {
                                let shift = Int(((Double(y) - mid) * slope).rounded())
                                let lo = max(0, -shift), hi = min(width, width - shift)
                                guard lo < hi else { continue }
                                let base = y * width
                                for x in lo..<hi {
                                    let j = base + x + shift
                                    // Saturated, so a short high-contrast edge (a label, a title band) cannot
                                    // outscore a modest edge that runs the whole height of the row.
                                    sum[x] += min(abs(gx[j] * nx + gy[j] * ny), cap) * inverseCap
                                    count[x] += 1
                                }
                            }
                        }
                    }
                }
            }
            let minCount = Int32((bottom - top) * 2 / 3)
            for x in 0..<width where counts[x] >= minCount {
                let mean = sums[x] / Float(counts[x])
                if mean > best[x] { best[x] = mean; bestSlope[x] = slope }
            }
        }
        return (best, bestSlope)
    }

    /// Local maxima of the profile: positions where an edge runs along most of the row's height.
    func boundaryCandidates(_ profile: (score: [Float], slope: [Double]), rowHeight: Double) -> [Boundary] {
        let p = parameters
        let values = profile.score.map(Double.init)
        let radius = max(2, Int(p.boundaryPeakRadius * rowHeight))
        var out: [Boundary] = []
        let n = values.count
        var x = 0
        while x < n {
            let v = values[x]
            let lo = max(0, x - radius), hi = min(n - 1, x + radius)
            var isPeak = v > 0
            if isPeak {
                for j in lo...hi where values[j] > v || (values[j] == v && j < x) { isPeak = false; break }
            }
            if isPeak {
                let score = v
                if score >= p.minBoundaryScore {
                    out.append(Boundary(x: Double(x), slope: profile.slope[x], score: score))
                }
            }
            x += 1
        }
        return out
    }

    /// The best chain of boundaries across the row (dynamic programming), including the photo's edges.
    func segment(_ candidates: [Boundary], width: Int, rowHeight: Double) -> [Boundary] {
        let p = parameters
        let nodes = [Boundary(x: 0, slope: 0, score: 0.5)] + candidates + [Boundary(x: Double(width - 1), slope: 0, score: 0.5)]
        let minWidth = p.minSpineWidth * rowHeight
        let typical = p.typicalSpineWidth * rowHeight
        let maxWidth = p.maxSpineWidth * rowHeight
        var value = [Double](repeating: -.infinity, count: nodes.count)
        var previous = [Int](repeating: -1, count: nodes.count)
        value[0] = 0
        for j in 1..<nodes.count {
            for i in stride(from: j - 1, through: 0, by: -1) {
                let w = nodes[j].x - nodes[i].x
                if w < minWidth { continue }
                guard value[i] > -.infinity else { continue }
                // Wider than a book: a gap or a bookend, crossed at no reward and no width penalty.
                let penalty = w > maxWidth ? 0 : p.widthPenalty * pow(log(w / typical), 2)
                let v = value[i] + p.boundaryGain * nodes[j].score - penalty
                if v > value[j] { value[j] = v; previous[j] = i }
                if w > 3 * maxWidth { break }
            }
        }
        var chain: [Boundary] = []
        var j = nodes.count - 1
        while j >= 0 {
            chain.append(nodes[j])
            j = previous[j]
        }
        return chain.reversed()
    }

    /// Where the book between two boundaries ends at the top: the strongest horizontal edge in the upper
    /// part of the row, if it clearly stands out; else the row's top (the book fills the row).
    func topEdge(_ maps: EdgeMaps, left: Boundary, right: Boundary, top: Int, bottom: Int) -> Int {
        let p = parameters
        let searchEnd = top + Int(p.topSearch * Double(bottom - top))
        let mid = Double(top + bottom) / 2
        var rows: [Double] = []
        for y in top..<max(top + 1, searchEnd) {
            let xl = left.x + (Double(y) - mid) * left.slope, xr = right.x + (Double(y) - mid) * right.slope
            let a = max(0, Int(xl + 0.2 * (xr - xl))), b = min(maps.width, Int(xr - 0.2 * (xr - xl)))
            guard a < b else { rows.append(0); continue }
            var sum: Float = 0
            let base = y * maps.width
            for x in a..<b { sum += abs(maps.gy[base + x]) }
            rows.append(Double(sum) / Double(b - a))
        }
        guard let strongest = rows.max(), strongest > 0 else { return top }
        let median = Self.percentile(rows, 0.5)
        guard strongest >= p.topEdgeRatio * max(median, 1e-3) else { return top }
        // The first clearly strong edge from above is the book's top; labels and title bands lie below it.
        let firstStrong = rows.firstIndex { $0 >= 0.5 * strongest } ?? 0
        return top + firstStrong
    }

    // MARK: Helpers

    static func movingAverage(_ values: [Double], radius: Int) -> [Double] {
        var prefix = [Double](repeating: 0, count: values.count + 1)
        for i in values.indices { prefix[i + 1] = prefix[i] + values[i] }
        return values.indices.map { i in
            let a = max(0, i - radius), b = min(values.count, i + radius + 1)
            return (prefix[b] - prefix[a]) / Double(b - a)
        }
    }

    static func percentile(_ values: [Double], _ q: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, max(0, Int(q * Double(sorted.count - 1))))]
    }
}
