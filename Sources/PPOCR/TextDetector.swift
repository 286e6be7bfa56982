import OnnxRuntime
import ShelfImage

/// One text line found by the detector, in the input image's pixel coordinates.
public struct DetectedLine: Sendable, Equatable {
    public var rect: RotatedRect
    /// Mean text probability inside the line's box, 0...1.
    public var score: Double
}

/// DB's per-pixel text probability, 0...1, row-major; `width` x `height` spans the whole input image.
public struct TextProbabilityMap: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var values: [Float]
}

/// PP-OCR's DB text detector: a per-pixel text probability map, thresholded into regions, each region
/// fitted with a rotated rectangle and grown back by the margin DB training shrinks text regions by.
///
/// Pre- and post-processing follow PaddleOCR's `DetResizeForTest`, `NormalizeImage` and `DBPostProcess`
/// (threshold 0.3, box threshold 0.6, unclip ratio 1.5), because the weights were trained with them.
public struct TextDetector: Sendable {
    public struct Options: Sendable, Equatable {
        /// Longest side of the network input. Spine crops are long and thin, so this bounds the cost: a
        /// 1300 x 140 crop runs at 960 x 96 instead of being blown up.
        public var maxSide: Int = 960
        /// Small crops are enlarged until their short side reaches this, so thin spines' letters are big
        /// enough for the detector.
        public var minShortSide: Int = 96
        public var threshold: Float = 0.3
        public var boxThreshold: Double = 0.6
        public var unclipRatio: Double = 1.5
        /// When set, each region grows by this share of its thickness instead of by `unclipRatio`: for maps whose
        /// labels shrank every region by a share of its width (the spine model's), which the perimeter rule only
        /// undoes for long thin regions.
        public var thicknessGrowth: Double?
        public var maxCandidates: Int = 200
        public init() {}
    }

    public let session: OnnxSession
    public var options: Options

    public init(session: OnnxSession, options: Options = Options()) {
        self.session = session
        self.options = options
    }

    /// Text lines in `image`, best first by score.
    public func detect(_ image: RGBImage) throws(OnnxRuntimeError) -> [DetectedLine] {
        try detectWithMap(image).lines
    }

    /// Text lines in `image`, and the per-pixel text probability they were found in (at the network's
    /// input size, which spans the whole image): the spine detector weighs print inside a box by it.
    public func detectWithMap(_ image: RGBImage) throws(OnnxRuntimeError) -> (lines: [DetectedLine], map: TextProbabilityMap?) {
        guard image.width >= 4, image.height >= 4 else { return ([], nil) }
        let (w, h) = inputSize(width: image.width, height: image.height)
        let resized = image.resized(width: w, height: h)
        let output = try session.run(Tensor(shape: [1, 3, h, w], values: Self.normalized(resized)))
        guard output.shape.count == 4, output.shape[2] == h, output.shape[3] == w else {
            throw .badInput("text detector answered with shape \(output.shape) for input \(h)x\(w)")
        }
        let lines = Self.scaledBack(Self.postprocess(output.values, width: w, height: h, options: options), width: w, height: h,
                                    toWidth: image.width, height: image.height)
        return (lines, TextProbabilityMap(width: w, height: h, values: output.values))
    }

    /// Lines found at the network's `w` x `h` back in an image of `imageWidth` x `imageHeight`; a line
    /// that does not come out as a finite rectangle (a degenerate axis or size) is dropped, never passed on.
    static func scaledBack(_ found: [DetectedLine], width w: Int, height h: Int, toWidth imageWidth: Int, height imageHeight: Int) -> [DetectedLine] {
        guard w > 0, h > 0, imageWidth > 0, imageHeight > 0 else { return [] }
        let sx = Double(imageWidth) / Double(w), sy = Double(imageHeight) / Double(h)
        return found.compactMap { line in
            var r = line.rect
            // Back to the input image's pixels; the scale may differ per axis (sides rounded to 32).
            let ux = r.axis.x * sx, uy = r.axis.y * sy
            let vx = -r.axis.y * sx, vy = r.axis.x * sy
            let lu = (ux * ux + uy * uy).squareRoot(), lv = (vx * vx + vy * vy).squareRoot()
            guard lu > 0, lv > 0, lu.isFinite, lv.isFinite else { return nil }
            r.center = Point(x: r.center.x * sx, y: r.center.y * sy)
            r.axis = Point(x: ux / lu, y: uy / lu)
            r.halfLength *= lu
            r.halfThickness *= lv
            let parts = [r.center.x, r.center.y, r.axis.x, r.axis.y, r.halfLength, r.halfThickness]
            guard parts.allSatisfy(\.isFinite) else { return nil }
            return DetectedLine(rect: r, score: line.score)
        }
    }

    /// Network input size: sides are multiples of 32 (the backbone's stride).
    func inputSize(width: Int, height: Int) -> (Int, Int) {
        let long = Double(max(width, height)), short = Double(min(width, height))
        let scale = min(Double(options.maxSide) / long, max(1, Double(options.minShortSide) / short))
        func round32(_ v: Double) -> Int { max(32, Int((v / 32).rounded()) * 32) }
        return (round32(Double(width) * scale), round32(Double(height) * scale))
    }

    /// CHW floats in BGR order with ImageNet mean and spread: PaddleOCR feeds OpenCV's BGR images to
    /// `NormalizeImage`, so channel 0 is blue normalised with the red statistics' slot (0.485 / 0.229).
    static func normalized(_ image: RGBImage) -> [Float] {
        let n = image.width * image.height
        var out = [Float](repeating: 0, count: 3 * n)
        let mean: [Float] = [0.485, 0.456, 0.406], std: [Float] = [0.229, 0.224, 0.225]
        image.pixels.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { o in
                for c in 0..<3 {
                    let source = 2 - c  // BGR from RGB
                    let scale = 1 / (255 * std[c]), offset = mean[c] / std[c]
                    for i in 0..<n { o[c * n + i] = Float(p[3 * i + source]) * scale - offset }
                }
            }
        }
        return out
    }

    /// DB post-processing on a probability map; a map that is empty or smaller than `w` x `h` holds no lines.
    static func postprocess(_ prob: [Float], width w: Int, height h: Int, options: Options) -> [DetectedLine] {
        let (cells, overflow) = w.multipliedReportingOverflow(by: h)
        guard w > 0, h > 0, !overflow, prob.count >= cells else { return [] }
        var label = [Int32](repeating: 0, count: w * h)
        var lines: [DetectedLine] = []
        var stack: [Int] = []
        var next: Int32 = 0
        // Each row's leftmost and rightmost pixel of the region being grown, and the rows it touched: arrays
        // kept across regions and reset row by row, not a dictionary per region.
        var rowMin = [Int](repeating: Int.max, count: h), rowMax = [Int](repeating: -1, count: h)
        var rows: [Int] = []
        for start in 0..<(w * h) where prob[start] > options.threshold && label[start] == 0 {
            next += 1
            // One 8-connected region; its hull only needs each row's leftmost and rightmost pixel.
            var count = 0
            label[start] = next
            stack.append(start)
            while let i = stack.popLast() {
                count += 1
                let x = i % w, y = i / w
                if rowMax[y] < 0 { rows.append(y) }
                rowMin[y] = min(rowMin[y], x)
                rowMax[y] = max(rowMax[y], x)
                for dy in -1...1 {
                    let ny = y + dy
                    guard ny >= 0, ny < h else { continue }
                    for dx in -1...1 {
                        let nx = x + dx
                        guard nx >= 0, nx < w else { continue }
                        let j = ny * w + nx
                        if label[j] == 0 && prob[j] > options.threshold {
                            label[j] = next
                            stack.append(j)
                        }
                    }
                }
            }
            var points: [Point] = []
            points.reserveCapacity(2 * rows.count)
            for y in rows {
                points.append(Point(x: Double(rowMin[y]), y: Double(y)))
                points.append(Point(x: Double(rowMax[y]), y: Double(y)))
                rowMin[y] = Int.max; rowMax[y] = -1
            }
            rows.removeAll(keepingCapacity: true)
            guard count >= 4 else { continue }
            guard let rect = RectGeometry.minAreaRect(points), rect.thickness >= 2 else { continue }
            let score = meanProbability(prob, width: w, height: h, inside: rect)
            guard score >= options.boxThreshold else { continue }
            // Unclip: DB's labels shrink each text region by area * (1 - r^2) / perimeter with r = 0.4;
            // growing by area * ratio / perimeter restores it.
            let area = rect.length * rect.thickness
            let perimeter = 2 * (rect.length + rect.thickness)
            let grown = rect.expanded(by: options.thicknessGrowth.map { $0 * rect.thickness }
                                      ?? area * options.unclipRatio / max(perimeter, 1e-9))
            guard grown.thickness >= 5 else { continue }
            lines.append(DetectedLine(rect: grown, score: score))
        }
        lines.sort { $0.score > $1.score }
        return Array(lines.prefix(max(0, options.maxCandidates)))
    }

    /// PaddleOCR's "fast" box score: the mean probability over the pixels inside the rectangle.
    static func meanProbability(_ prob: [Float], width w: Int, height h: Int, inside rect: RotatedRect) -> Double {
        let q = rect.quad.points
        guard q.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return 0 }
        let minX = max(0, Int(q.map(\.x).min()!.rounded(.down))), maxX = min(w - 1, Int(q.map(\.x).max()!.rounded(.up)))
        let minY = max(0, Int(q.map(\.y).min()!.rounded(.down))), maxY = min(h - 1, Int(q.map(\.y).max()!.rounded(.up)))
        guard minX <= maxX, minY <= maxY else { return 0 }
        let u = rect.axis, v = Point(x: -u.y, y: u.x)
        var sum = 0.0, n = 0
        for y in minY...maxY {
            for x in minX...maxX {
                let dx = Double(x) - rect.center.x, dy = Double(y) - rect.center.y
                if abs(dx * u.x + dy * u.y) <= rect.halfLength + 0.5 && abs(dx * v.x + dy * v.y) <= rect.halfThickness + 0.5 {
                    // Held to 0...1 (NaN as 0) so the score is a probability whatever the map holds.
                    let cell = prob[y * w + x]
                    sum += cell.isNaN ? 0 : Double(min(1, max(0, cell)))
                    n += 1
                }
            }
        }
        return n == 0 ? 0 : sum / Double(n)
    }
}
