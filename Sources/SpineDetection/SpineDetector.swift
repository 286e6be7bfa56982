import Foundation
import ShelfImage

/// Finds every book spine on an upright shelf photo.
///
/// Works on a small copy (`workingLongSide`), so the cost is fixed whatever the caller passes; every
/// coordinate comes back normalized to the input image, which is also the full photo's frame.
public struct SpineDetector: Sendable {
    public let parameters: DetectorParameters
    /// Scores the boxes of a photo the text cue ran on, when `parameters.boxClassifier` names a shipped file.
    let classifier: BoxClassifier?

    public init(parameters: DetectorParameters = .bundled) {
        self.parameters = parameters
        classifier = parameters.boxClassifier.flatMap(BoxClassifier.shipped)
    }

    /// `text`: where a text detector found print on the same photo, when one ran (see `TextEvidence`).
    public func detect(_ image: RGBImage, text: TextEvidence? = nil) -> DetectionResult { detectWithCues(image, text: text).result }

    /// The cues a spine's confidence is calibrated on, in `confidenceCueNames` order: the two boundaries'
    /// raw strength, the row's support, how far log(width / row height) falls below and rises above the
    /// typical spine's (hinges, not a square, so a rare wide book is not extrapolated into certain
    /// failure), the spine's height over the row's, whether it lies flat, and the edge density inside it
    /// (print; a cabinet side or a wall is plain), whether it is the outermost box at either end of its
    /// row (where cabinet sides, posts, hinges and the wall beyond the last book are met), its saturation
    /// and its spread of brightness (a cover is printed in colour; panels and walls are grey or flat), and
    /// the share of it a text detector called print, whether it lacks print where the other boxes of its
    /// row carry it and whether it lies beyond the row's printed run (see `TextSupport`; all 0 when no text
    /// evidence was given), how alike in colour it is to its neighbours, and how far its sides run on as
    /// edges both above its top and below its foot (panels, posts and wallpaper go on; a book ends).
    /// scripts/fit-confidence.py fits `confidenceModel` on them.
    public static let confidenceCueNames = ["raw", "support", "thinness", "wideness", "heightRatio", "lying", "texture",
                                            "rowEnd", "chroma", "lumaSpread", "printed", "unprintedRow",
                                            "unprintedRowEnd", "outsidePrintRun", "likeNeighbours", "sidesRunThrough"]

    /// The detection, and for each of its rows' spines the cues its confidence was computed from (raw,
    /// uncalibrated) and what the box looks like in its row (`BoxAppearance`): what eval-detection writes with
    /// --dump-boxes (the cues) for scripts/fit-confidence.py and with --dump-classifier (both) for
    /// scripts/fit-box-classifier.py.
    public func detectWithCues(_ image: RGBImage, text: TextEvidence? = nil) -> (result: DetectionResult, cues: [[Double]], appearance: [[Double]]) {
        let p = parameters
        guard image.width >= 8, image.height >= 8 else { return (DetectionResult(rows: [], spines: []), [], []) }
        let (maps, deskew) = workingMaps(image)
        let W = Double(maps.width), H = Double(maps.height)
        var rows: [ShelfRow] = []
        var spines: [DetectedSpine] = []
        var cues: [[Double]] = [], appearance: [[Double]] = []
        var ceiling = 0
        // The text lines in the frame the rows are found in.
        let workingLines = (text?.lines ?? []).map { line in
            line.quad.points.map { pt in deskew?.levelled(Point(x: pt.x * W, y: pt.y * H)) ?? Point(x: pt.x * W, y: pt.y * H) }
        }
        // Where the text cue ran, print decides (with `closeUpRowsNeedPrint`): a floor filling half a photo cut above
        // it is no close-up of a row.
        let printDecides = text != nil && p.closeUpRowsNeedPrint == true && p.footlessRowMinPrintLines != nil
        var bands = RowFinder.rows(maps, p, cutOff: p.footlessRowMinPrintLines.map { n in
            { band in Self.holdsUprightPrint(band, lines: workingLines, minLines: n) }
        }, byHeight: !printDecides)
        // The print running across the photo, read once for the board rows and the lying-book search.
        let across = text.flatMap { t in p.lyingTextMaxAngle.flatMap { $0 > 0 ? LyingBooks.acrossLines(t, maps, deskew: deskew, maxAngle: $0) : nil } }
        // Boards with books lying on them and nothing standing, made rows of their own: only their lying books count.
        var boardOnly = Set<Int>()
        if let text, p.boardRows == true {
            let boards = LyingBooks.boardBands(maps, deskew: deskew, text: text, bands: bands, across: across, p)
            let all = (bands.map { ($0, false) } + boards.map { ($0, true) }).sorted { $0.0.top < $1.0.top }
            bands = all.map(\.0)
            boardOnly = Set(all.indices.filter { all[$0].1 })
        }
        var standing: [(quad: Quad, lying: Bool)] = []
        // A row the photo's bottom edge cuts off (or its top edge, with `topCutRows`) stands as tall as the photo's
        // other rows (their median), and its spines are as wide as theirs for that height.
        let cutByEdge = { (b: RowFinder.Band) in
            RowFinder.runsOutOfBottom(b, height: maps.height) || (p.topCutRows == true && RowFinder.runsOutOfTop(b, height: maps.height))
        }
        let wholeRows = bands.filter { !cutByEdge($0) }
            .map { Double($0.bottom - $0.top + 1) }.sorted()
        for (bandIndex, band) in bands.enumerated() {
            defer { ceiling = band.bottom + 1 }
            let rowIndex = rows.count
            // In the photo's own frame: where the levelled band's lines cross the centre column, and their tilt.
            let atCentre = { (y: Double) in (H / 2 + (y - H / 2) / cos(deskew?.angle ?? 0)) / H }
            rows.append(ShelfRow(index: rowIndex, top: atCentre(Double(band.top)), bottom: atCentre(Double(band.bottom + 1)),
                                 slope: deskew.map { tan($0.angle) * W / H } ?? 0))
            let standsTaller = cutByEdge(band) && !wholeRows.isEmpty
                ? wholeRows[wholeRows.count / 2] : nil
            var found = RowSpines.find(maps, band, ceiling: ceiling, lines: workingLines, rowHeight: standsTaller, p)
            if boardOnly.contains(bandIndex) { found = found.filter(\.lying) }
            let support = Self.rowSupport(found)
            found = Self.supported(found, support: support, p)
            let rowH = Double(band.bottom - band.top + 1)
            let back = { (pt: Point) in norm(deskew?.source(pt) ?? pt, W, H) }
            let inPhoto = { (found: [RowSpines.Found]) in
                found.map { s in Quad(topLeft: back(s.quad.topLeft), topRight: back(s.quad.topRight),
                                      bottomRight: back(s.quad.bottomRight), bottomLeft: back(s.quad.bottomLeft)) }
            }
            // Print is weighed only where the text detector ran: without it, the model fitted without print.
            // The classifier was fitted on boxes measured with print, so it too scores only where the cue ran.
            let classifier = text == nil ? nil : classifier
            let model = text == nil ? p.confidenceModel : (p.textConfidenceModel ?? p.confidenceModel)
            let floor = text == nil ? p.minCalibratedConfidence
                : classifier != nil ? p.boxClassifierFloor : (p.textMinCalibratedConfidence ?? p.minCalibratedConfidence)
            let printedShares = { (quads: [Quad]) in quads.map { text?.printedFraction(inside: $0) ?? 0 } }
            // A row is scored before print seeds it and again after; most boxes come through unchanged, and
            // sampling a box's look is the dearest part of scoring it.
            var looksOf: [Quad: [Double]] = [:]
            let scored = { (found: [RowSpines.Found], printed: [Double]) -> [Scored] in
                let textCues = TextSupport.rowCues(printed: printed)
                let likeness = Self.likeNeighbours(found), inRow = BoxAppearance.widthsInRow(found)
                return found.enumerated().map { k, s in
                    let wholeHeight = p.cutRowsScoredWhole == true
                        ? standsTaller.flatMap { Self.underPrintAcross(s.quad, across ?? []) ? nil : $0 } : nil
                    let c = Self.cues(s, rowHeight: rowH, widthsAgainst: wholeHeight, support: support,
                                      rowEnd: k == 0 || k == found.count - 1) + textCues[k]
                        + [likeness[k], Self.sidesRunThrough(maps, s, rowHeight: rowH)]
                    let grid = looksOf[s.quad] ?? BoxAppearance.features(maps, s.quad)
                    looksOf[s.quad] = grid
                    let looks = [inRow[k]] + grid
                    let confidence = classifier.map { $0.probability(c + looks) } ?? model.map { Self.calibrated(c, $0) } ?? s.confidence
                    return Scored(cues: c, appearance: looks, confidence: confidence)
                }
            }
            // The row as first scored, kept for the end when print changes none of its boxes (most rows).
            var early: (boxes: [Quad], printed: [Double], scores: [Scored])?
            if p.textSeedsSpines == true, !found.isEmpty, !workingLines.isEmpty {
                // Judged before any seed is laid: a box the floor will drop stands for no spine.
                var dropped: [Bool]?
                if p.textSeedsOverDropped == true, let floor {
                    let printed = printedShares(inPhoto(found)), scores = scored(found, printed)
                    early = (found.map(\.quad), printed, scores)
                    dropped = scores.map { $0.confidence < floor }
                }
                found = TextSupport.seeded(found, dropped: dropped, lines: workingLines, maps, band, ceiling: ceiling, p)
            }
            if p.textSplitsMerges == true, !workingLines.isEmpty {
                found = TextSupport.splittingMerges(found, lines: workingLines, maps, band, p)
            }
            if p.lyingStacksByPrint == true, !workingLines.isEmpty {
                found = TextSupport.splittingStacks(found, lines: workingLines, maps, band, p)
            }
            if let ratio = p.textLowersTops, ratio > 0, let maxAngle = p.lyingTextMaxAngle, !workingLines.isEmpty {
                found = TextSupport.loweringTops(found, lines: workingLines, maps, band, maxSideRatio: ratio, maxAngle: maxAngle, p)
            }
            var quads = inPhoto(found)
            if let text, p.textJoinsSplits == true {
                (found, quads) = TextSupport.joiningSplits(found, quads, lines: text.lines, aspect: W / H)
            }
            let kept = early.flatMap { $0.boxes == found.map(\.quad) ? $0 : nil }
            var printed = kept?.printed ?? printedShares(quads)
            let framed = p.dropsFramedPictures == true ? Self.framedPictures(found, printed: printed, rowHeight: rowH) : []
            var scores = kept?.scores ?? scored(found, printed)
            var dropped = found.indices.map { k in framed.contains(k) || floor.map { scores[k].confidence < $0 } ?? false }
            var order = Array(found.indices)
            // Boxes proposed after the row's own are scored in the row as it stands with them, while the row's own
            // boxes keep their scores.
            func adding(_ extra: [RowSpines.Found]) {
                guard !extra.isEmpty else { return }
                let extraQuads = inPhoto(extra), extraPrinted = printedShares(extraQuads)
                let rescored = scored(found + extra, printed + extraPrinted)
                let n = found.count
                found += extra
                printed += extraPrinted
                quads += extraQuads
                scores += rescored[n...]
                dropped += rescored[n...].map { score in floor.map { score.confidence < $0 } ?? false }
                func left(_ k: Int) -> Double { found[k].quad.points.map(\.x).min() ?? 0 }
                order = found.indices.sorted { (left($0), $0) < (left($1), $1) }
            }
            // A standing box the classifier dropped that is as wide as a short stack of lying books is cut as one:
            // a stack of two to four books narrower than `narrowStackMinWidthRatio` was taken for one thick book.
            if let ratio = p.stacksInDroppedMinWidthRatio, classifier != nil {
                let dropouts = found.indices.filter { dropped[$0] && !found[$0].lying && TextSupport.width(found[$0].quad) >= ratio * rowH }
                adding(dropouts.flatMap { LowerTops.stack(maps, found[$0], band, p) })
            }
            // A box the classifier doubts, again with its top lowered to a book's top (see `LowerTops`); of the two,
            // the likelier stands.
            if let minCoverage = p.lowerTopMinCoverage, let doubt = p.lowerTopBelowConfidence, classifier != nil {
                var twins: [(Int, RowSpines.Found)] = []
                for k in found.indices where dropped[k] || scores[k].confidence < doubt {
                    if let twin = LowerTops.twin(maps, found[k], band, lines: workingLines, minCoverage: minCoverage,
                                                 maxTextureAbove: p.lowerTopMaxTextureAbove ?? .infinity) { twins.append((k, twin)) }
                }
                let n = found.count
                adding(twins.map(\.1))
                for (j, (k, _)) in twins.enumerated() where !dropped[k] && !dropped[n + j] {
                    if scores[k].confidence >= scores[n + j].confidence { dropped[n + j] = true } else { dropped[k] = true }
                }
            }
            // Books leaning past the row's tilt search, in the stretches no kept box covers.
            if p.leaningBooks == true, classifier != nil {
                adding(LeaningBooks.proposals(maps, band, ceiling: ceiling, kept: found.indices.filter { !dropped[$0] }.map { found[$0].quad }))
            }
            for k in order where !dropped[k] {
                let s = found[k], score = scores[k]
                cues.append(score.cues)
                appearance.append(score.appearance)
                standing.append((s.quad, s.lying))
                spines.append(DetectedSpine(quad: quads[k], row: rowIndex, position: k, confidence: score.confidence, lying: s.lying))
            }
        }
        // Books lying down that the rows' cuts missed, found from print running across the photo; they
        // carry a confidence of their own, so `cues` stays the rows' boxes' (which come first).
        if let text {
            let lying = LyingBooks.spines(maps, deskew: deskew, text: text, standing: standing, bands: bands, after: spines,
                                          across: across, p)
            // Books lying on a board with nothing standing beside them make no band: they are a row of their own,
            // so every spine's `row` indexes `rows`.
            if rows.isEmpty, !lying.isEmpty {
                let ys = lying.flatMap { $0.quad.points.map(\.y) }
                rows.append(ShelfRow(index: 0, top: ys.min() ?? 0, bottom: ys.max() ?? 1))
            }
            spines += lying
        }
        return (DetectionResult(rows: rows, spines: Self.numbered(spines)), cues, appearance)
    }

    /// A row's box as scored: its cues, its appearance and the confidence made of them.
    struct Scored { var cues: [Double]; var appearance: [Double]; var confidence: Double }

    /// The boxes of picture frames standing in a row: a wide box without print (the picture) between two thin
    /// ones touching it (the frame's sides) of one colour, unlike the picture's. The row finder cuts a frame at
    /// its outer and inner edges, so one frame would stand as three "spines". A wide book between two thin
    /// ones carries its title; colour distances are mean RGB, set on the synthetic training shelves (seed 7).
    /// `printed`: each box's printed share (0 without the text cue: then the colours decide alone).
    static func framedPictures(_ found: [RowSpines.Found], printed: [Double], rowHeight: Double) -> Set<Int> {
        var out = Set<Int>()
        func distance(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { ((a - b) * (a - b)).sum().squareRoot() }
        guard found.count >= 3 else { return out }
        for k in 1..<(found.count - 1) {
            let l = found[k - 1], mid = found[k], r = found[k + 1]
            let wm = TextSupport.width(mid.quad), wl = TextSupport.width(l.quad), wr = TextSupport.width(r.quad)
            guard !l.lying, !mid.lying, !r.lying, printed[k] < 0.02 else { continue }
            guard wm >= 0.25 * rowHeight, wl <= 0.3 * wm, wr <= 0.3 * wm,
                  abs(l.quad.topRight.x - mid.quad.topLeft.x) <= 2, abs(mid.quad.topRight.x - r.quad.topLeft.x) <= 2 else { continue }
            guard distance(l.colour, r.colour) < 60, distance(l.colour, mid.colour) > 60, distance(r.colour, mid.colour) > 60 else { continue }
            out.formUnion([k - 1, k, k + 1])
        }
        return out
    }

    /// Positions count the spines kept in each row one by one, in the order given, as a reader names them
    /// ("shelf 2, spine 5"): a box the confidence floor dropped or a stack cut into books leaves no gap.
    static func numbered(_ spines: [DetectedSpine]) -> [DetectedSpine] {
        var next = [Int: Int](), out = spines
        for k in out.indices {
            out[k].position = next[out[k].row, default: 0]
            next[out[k].row, default: 0] += 1
        }
        return out
    }

    /// Width over row height of a typical standing spine (the segmenter's prior median).
    static let typicalWidthRatio = 0.09

    /// `widthsAgainst`: how tall the row's books stand when the photo cuts them off (`RowSpines.find`'s `rowHeight`):
    /// a box's width is judged against it, its height against the part in view.
    static func cues(_ s: RowSpines.Found, rowHeight: Double, widthsAgainst: Double? = nil, support: Double, rowEnd: Bool = false) -> [Double] {
        let q = s.quad
        // Across and along the book as it stands (a lying book's quad is already turned upright).
        let across = (hypot(q.topRight.x - q.topLeft.x, q.topRight.y - q.topLeft.y)
                      + hypot(q.bottomRight.x - q.bottomLeft.x, q.bottomRight.y - q.bottomLeft.y)) / 2
        let along = (hypot(q.bottomLeft.x - q.topLeft.x, q.bottomLeft.y - q.topLeft.y)
                     + hypot(q.bottomRight.x - q.topRight.x, q.bottomRight.y - q.topRight.y)) / 2
        let rowH = max(1, rowHeight)
        let logWidth = log(max(1e-3, across / max(rowH, widthsAgainst ?? 0))) - log(typicalWidthRatio)
        return [s.confidence, support, max(0, -logWidth), max(0, logWidth), s.lying ? 0 : min(2, along / rowH), s.lying ? 1 : 0,
                min(1, s.texture / 0.05), rowEnd ? 1 : 0, min(1, s.chroma / 80), min(1, s.lumaSD / 60)]
    }

    /// For each box of a row, how alike in colour it is to its most alike neighbour on either side (1: the same
    /// mean colour, 0: 60 or more apart in RGB): panel grain, wallpaper stripes and a floor's tiles cut into
    /// "spines" repeat one colour, while neighbouring books rarely match.
    static func likeNeighbours(_ found: [RowSpines.Found]) -> [Double] {
        found.indices.map { k in
            var nearest = Double.infinity
            for j in [k - 1, k + 1] where found.indices.contains(j) {
                let d = found[k].colour - found[j].colour
                nearest = min(nearest, (d * d).sum().squareRoot())
            }
            return nearest.isFinite ? max(0, 1 - nearest / 60) : 0
        }
    }

    /// How far a box's two sides run on as edges both beyond its top and below its foot, against how strong
    /// they are along the box (the weaker side's ratio, at most 1.5, the lesser of above and below): a side
    /// panel's, a post's or a wallpaper stripe's sides run on through the boards and the rows around. A book's
    /// do not; one way only is no sign (a short book between taller ones, or a foot found too high up), unless
    /// the photo ends on the other side.
    static func sidesRunThrough(_ m: EdgeMaps, _ s: RowSpines.Found, rowHeight: Double) -> Double {
        let q = s.quad
        guard !s.lying, q.points.allSatisfy({ $0.x.isFinite && $0.y.isFinite && abs($0.x) < 1e6 && abs($0.y) < 1e6 }) else { return 0 }
        let (left, right) = RowSpines.Line.sides(of: q, yc: 0), sides = [left, right]
        let top = Int(min(q.topLeft.y, q.topRight.y).rounded()), foot = Int(max(q.bottomLeft.y, q.bottomRight.y).rounded())
        let reach = max(2, Int(0.25 * rowHeight))
        guard foot > top + 2 else { return 0 }
        let along = sides.map { TextSupport.edgeAlong(m, $0, yc: 0, top: top + 1, bottom: foot - 1) }
        // nil where the photo ends first: a box at the photo's top edge is judged by its foot alone.
        func ratio(_ from: Int, _ to: Int) -> Double? {
            guard from <= to, from >= 0, to < m.height else { return nil }
            return zip(sides, along).map { side, inside in
                inside > 0 ? min(1.5, TextSupport.edgeAlong(m, side, yc: 0, top: from, bottom: to) / inside) : 0
            }.min() ?? 0
        }
        let seen = [ratio(max(0, top - reach), top - 3), ratio(foot + 3, min(m.height - 1, foot + reach))].compactMap { $0 }
        return seen.min() ?? 0
    }

    /// Whether print running across the photo, more than twice as long as `q` is wide, crosses `q` or ends at it
    /// (within the line's thickness: a lying book's logo at the end of its title): `q` is then a piece of a book
    /// lying down, not a spine of its own, and a cut row's taller height would make it look like one.
    static func underPrintAcross(_ q: Quad, _ lines: [LyingBooks.Line]) -> Bool {
        let xs = q.points.map(\.x), ys = q.points.map(\.y)
        guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else { return false }
        return lines.contains { l in
            let lx = l.corners.map(\.x), ly = l.corners.map(\.y)
            guard let lx0 = lx.min(), let lx1 = lx.max(), let ly0 = ly.min(), let ly1 = ly.max() else { return false }
            return l.length > 2 * (x1 - x0) && lx0 - l.thickness < x1 && lx1 + l.thickness > x0 && ly0 <= y1 && ly1 >= y0
        }
    }

    /// Logistic model: `logOdds` squashed to 0...1, so 0.5 means even odds on the data it was fitted on.
    static func calibrated(_ cue: [Double], _ weights: [Double]) -> Double { 1 / (1 + exp(-logOdds(cue, weights))) }

    /// weights[0] + Σ weights[i+1]·cue[i]: a logistic model's log-odds (also `BoxClassifier`'s linear term).
    static func logOdds(_ cue: [Double], _ weights: [Double]) -> Double {
        var z = weights.first ?? 0
        for (i, v) in cue.enumerated() where i + 1 < weights.count { z += weights[i + 1] * v }
        return z
    }

    /// How much a row looks like books as a whole: the median confidence of its standing spines. Books
    /// stand in runs with clear boundaries, so most of a real row's cuts are strong; a floor, a pavement or
    /// a wall cut into "spines" by grain and cracks gives a row of weak ones, whatever single cut stands out.
    /// What a row keeps of its boxes: all of them when its support reaches `rowMinSupport`; else none, or with
    /// `weakRowsKeepLying` its lying books (a board of stacks and face-out pictures has no standing spines to
    /// support it, only stray pieces cut between the pictures).
    static func supported(_ found: [RowSpines.Found], support: Double, _ p: DetectorParameters) -> [RowSpines.Found] {
        guard let floor = p.rowMinSupport, support < floor else { return found }
        return p.weakRowsKeepLying == true ? found.filter(\.lying) : []
    }

    static func rowSupport(_ found: [RowSpines.Found]) -> Double {
        let standing = found.filter { !$0.lying }
        let c = (standing.isEmpty ? found : standing).map(\.confidence).sorted()
        guard !c.isEmpty else { return 0 }
        return c.count % 2 == 1 ? c[c.count / 2] : (c[c.count / 2 - 1] + c[c.count / 2]) / 2
    }

    /// Every local peak of the boundary score in every row, with the cues behind it: the training data
    /// for the boundary weights (eval-detection --dump-boundaries, scripts/fit-boundaries.py).
    public func boundaryCandidates(_ image: RGBImage) -> [BoundaryCandidate] {
        let p = parameters
        guard image.width >= 8, image.height >= 8 else { return [] }
        let (maps, _) = workingMaps(image)
        var out: [BoundaryCandidate] = []
        for (i, band) in RowFinder.rows(maps, p).enumerated() {
            let prof = BoundaryScorer.profile(maps, top: band.top, bottom: band.bottom, p)
            let s = prof.score
            for x in 1..<max(1, s.count - 1) where s[x] >= s[x - 1] && s[x] > s[x + 1] && s[x] >= 0.3 * p.boundaryThreshold {
                out.append(BoundaryCandidate(row: i, top: Double(band.top) / Double(maps.height),
                                             bottom: Double(band.bottom + 1) / Double(maps.height),
                                             x: (Double(x) + 0.5) / Double(maps.width), score: s[x], cues: Array(prof.cues[(4 * x)..<(4 * x + 4)])))
            }
        }
        return out
    }

    /// Whether at least `minLines` of the text cue's lines run up and down (within 30 degrees of vertical, three
    /// times as long as thick) with their middles inside `band`: standing spines' titles, which a floor or a
    /// pavement does not carry. `lines`: corners in the working frame.
    static func holdsUprightPrint(_ band: RowFinder.Band, lines: [[Point]], minLines: Int) -> Bool {
        let upright = lines.filter { c in
            guard c.count == 4, let (angle, length, thickness) = TextSupport.lineShape(c), angle >= 60 else { return false }
            let centre = TextEvidence.centre(c)
            return length >= 3 * thickness && centre.y >= Double(band.top) && centre.y <= Double(band.bottom + 1)
        }
        return upright.count >= minLines
    }

    /// The edge maps the rows and spines are found on: the photo shrunk, stretched to full contrast and,
    /// when it was taken off level, levelled (with the turn, to map results back).
    func workingMaps(_ image: RGBImage) -> (EdgeMaps, Deskew?) {
        let p = parameters
        let work = Self.stretched(image.downscaled(maxSide: max(32, p.workingLongSide)), maxGain: p.contrastMaxGain)
        let maps = EdgeMaps(work, edgeFloor: p.edgeFloor, edgeCap: p.edgeCap)
        let angle = Deskew.estimate(maps, p)
        guard abs(angle) * 180 / .pi >= p.minSkewDegrees else { return (maps, nil) }
        let deskew = Deskew(angle: angle, centre: Point(x: Double(work.width) / 2, y: Double(work.height) / 2))
        let levelled = Self.stretched(deskew.levelled(image, width: work.width, height: work.height), maxGain: p.contrastMaxGain)
        return (EdgeMaps(levelled, edgeFloor: p.edgeFloor, edgeCap: p.edgeCap), deskew)
    }

    /// Stretches luma's 1st-99th percentile range to the full 0-255 (gain at most `maxGain`), so an
    /// underexposed or hazy photo gives edges and contrasts of the strength the weights were fitted on:
    /// the edge floor and cap and the dark-gap and colour scales are absolute.
    static func stretched(_ image: RGBImage, maxGain: Double) -> RGBImage {
        guard maxGain > 1, image.width * image.height > 0 else { return image }
        var histogram = [Int](repeating: 0, count: 256)
        image.pixels.withUnsafeBufferPointer { px in
            for i in stride(from: 0, to: px.count, by: 3) {
                histogram[(299 * Int(px[i]) + 587 * Int(px[i + 1]) + 114 * Int(px[i + 2])) / 1000] += 1
            }
        }
        let n = image.width * image.height
        func percentile(_ q: Double) -> Int {
            var seen = 0
            for v in 0..<256 { seen += histogram[v]; if Double(seen) >= q * Double(n) { return v } }
            return 255
        }
        let lo = percentile(0.01), hi = percentile(0.99)
        guard hi > lo else { return image }
        let gain = min(maxGain, 255 / Double(hi - lo))
        guard gain > 1.05 else { return image }
        // Centre the stretch on the range's midpoint so a gain-capped stretch stays inside 0...255.
        let mid = Double(lo + hi) / 2
        var table = [UInt8](repeating: 0, count: 256)
        for v in 0..<256 { table[v] = UInt8(max(0, min(255, (Double(v) - mid) * gain + 127.5))) }
        var out = image
        out.pixels.withUnsafeMutableBufferPointer { px in
            for i in px.indices { px[i] = table[Int(px[i])] }
        }
        return out
    }

    private func norm(_ pt: Point, _ w: Double, _ h: Double) -> Point {
        Point(x: min(1, max(0, pt.x / w)), y: min(1, max(0, pt.y / h)))
    }
}
