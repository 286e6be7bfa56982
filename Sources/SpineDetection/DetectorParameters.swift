import Foundation
import ShelfModels

/// Every threshold and weight the detector uses, read from `models/detection/detector-v2.json` so that a
/// change of behaviour is a reviewed data diff with its evaluation figures, not a literal in the code.
/// Lengths are relative to the working image or to the row height, so they hold at any input size.
public struct DetectorParameters: Sendable, Codable, Equatable {
    public var version: String
    /// Long side of the internal working image, in pixels. Detection cost is O(this squared).
    public var workingLongSide: Int
    /// Gradient magnitude (0...255 Sobel/4 units) at which an edge counts as fully present.
    public var edgeCap: Double
    /// The photo's roll is searched up to this many degrees either side in these steps, and corrected
    /// when at least `minSkewDegrees` and when it concentrates the horizontal edges `skewMinGain` times
    /// better than level does. maxSkewDegrees 0 turns it off.
    public var maxSkewDegrees: Double
    public var skewStepDegrees: Double
    public var minSkewDegrees: Double
    public var skewMinGain: Double
    /// Largest contrast stretch applied to the working image before edges are found; 1 turns it off.
    public var contrastMaxGain: Double
    /// Gradient below this is noise.
    public var edgeFloor: Double
    /// A pixel row belongs to a shelf row when its vertical-edge coverage reaches this fraction of the
    /// busiest pixel row's...
    public var rowVerticalEdgeFraction: Double
    /// ...and at least this absolute fraction of its pixels carry vertical edges.
    public var rowMinEdgeFraction: Double
    /// Shelf rows shorter than this fraction of the image height are dropped (cut-off books at the border).
    public var minRowHeight: Double
    /// Largest spine tilt searched, degrees either side of vertical.
    public var maxTiltDegrees: Double
    public var tiltStepDegrees: Double
    /// A row's lean is first searched this far either side of vertical, and the tilt search is centred
    /// on it (books fallen against each other). Absent: every row is searched around vertical.
    public var maxRowLeanDegrees: Double?
    /// Score taken off a line per maxTilt of departure from the lean of its neighbourhood.
    public var tiltPenalty: Double
    /// Weight of the dark-gap cue (a shadow valley between books) against the edge-coverage cue.
    public var darkGapWeight: Double
    /// Weight of the colour-change-across-the-line cue.
    public var colourChangeWeight: Double
    /// Weight of the edge coverage in the foot of the row (its lowest `footFraction`), capped by the
    /// whole line's coverage so a label's short edge at the foot does not count alone.
    public var footWeight: Double
    public var footFraction: Double
    /// A boundary must score above this to be worth a cut; the DP pays it for every cut it makes.
    public var boundaryThreshold: Double
    /// Width prior: spine width over row height is log-normal around this median...
    public var widthRatioMedian: Double
    /// ...with this spread in natural-log units...
    public var widthRatioLogSigma: Double
    /// ...and this weight against boundary evidence.
    public var widthPriorWeight: Double
    /// Segments narrower than this fraction of the row height are impossible.
    public var minWidthRatio: Double
    /// Boundary candidates are local maxima over this many working pixels either side.
    public var peakRadius: Double
    /// Pieces narrower than this are the gap between two books, not a spine.
    public var gapMaxWidthRatio: Double
    /// Pieces whose two sides differ in lean by more than this are wedge-shaped gaps, not books.
    public var maxSideAngleDegrees: Double
    /// Segments wider than this are not a standing spine: a gap, a bookend, or a lying stack.
    public var maxWidthRatio: Double
    /// Wide segments whose horizontal-edge coverage beats vertical by this factor are split as lying stacks.
    public var lyingDominance: Double
    /// ...and their horizontal-edge density (per pixel of the row) is at least this.
    public var lyingMinEdgeDensity: Double
    /// Boundary threshold between lying books (edge coverage alone, so lower than `boundaryThreshold`).
    public var lyingBoundaryThreshold: Double
    /// Lying stacks longer than this times the row height are not books (planks, grain). Absent: no limit.
    public var lyingMaxLengthRatio: Double?
    /// Lying books: thickness over stack width, as the standing width prior but turned.
    public var lyingThicknessRatioMedian: Double
    /// Spine tops are searched up to this fraction of the row height above the row's band (tall books
    /// stand out of a band found by edge density), never above the row before.
    public var topReach: Double
    /// Weight of side-edge continuity when placing a spine's top; 0 takes the highest strong edge.
    public var topSideWeight: Double
    /// A horizontal edge across at least this fraction of a spine's width marks its top.
    public var topEdgeCoverage: Double
    /// A piece is blank (wall, gap) when its luma spread and edge density are both below these.
    public var blankMaxLumaSD: Double
    public var blankMaxEdgeDensity: Double
    /// When above 0, a row's boundary threshold is at most this fraction of the `rowReferenceQuantile`
    /// quantile of its boundary peak scores.
    public var relativeThreshold: Double
    public var rowReferenceQuantile: Double
    /// Peaks scoring under this fraction of `boundaryThreshold` are left out of that quantile.
    public var relativeFloor: Double
    /// A piece wider than maxWidthRatio that is not a lying stack is cut again with the boundary
    /// threshold times this.
    public var wideRetryThresholdFactor: Double
    /// Spines whose confidence falls below this are dropped.
    public var minConfidence: Double
    /// A row whose median standing-spine confidence is below this is not a row of books (a floor, a
    /// pavement, a wall): all its spines are dropped. Absent (older parameter files): no row is dropped.
    public var rowMinSupport: Double?
    /// A spine's foot is searched down to this fraction of the row height below the row's band (books
    /// standing forward or on a board seen in perspective). Absent: the foot is the band's bottom.
    public var footReach: Double?
    /// Logistic weights (bias first, then one per `SpineDetector.confidenceCueNames`) that turn a spine's
    /// cues into its confidence, fitted by scripts/fit-confidence.py so that confidence reads as the
    /// chance the box is a right one. Absent: the raw boundary strength is the confidence.
    public var confidenceModel: [Double]?
    /// Boxes whose calibrated confidence is below this are dropped: on the fitting data they are almost
    /// all wrong. Absent: none is dropped.
    public var minCalibratedConfidence: Double?
    /// Weight of the colour change across a candidate spine top (the spine's own colour below it, the
    /// wall or the gap above): a short book's side lines run on up as its taller neighbours' sides, so
    /// side continuity alone lets its top climb into the back wall. Absent: colour is not weighed.
    public var topColourWeight: Double?
    /// The confidence model used when text evidence was given (same layout as `confidenceModel`, fitted on
    /// boxes measured with the text cue): print is strong evidence, but only where the cue ran, so without
    /// it detection keeps the model fitted without print. Absent: `confidenceModel` serves both.
    public var textConfidenceModel: [Double]?
    /// Long side, in pixels, the text detector runs its network at when it supplies the text cue: the
    /// titles of thin spines on a shelf seen whole are a few pixels high at 640, and a spine whose print
    /// the detector cannot see reads as unprinted. Absent: the text cue's default (`TextCue.defaultLongSide`).
    public var textCueLongSide: Int?
    /// The floor `minCalibratedConfidence` plays for `textConfidenceModel`; absent: that floor.
    public var textMinCalibratedConfidence: Double?
    /// Two neighbouring boxes a text line along them crosses from one into the other are joined as one
    /// spine (see `TextSupport.joiningSplits`). Absent or false: not joined.
    public var textJoinsSplits: Bool?
    /// A title line up a spine no box covers seeds a spine along it (see `TextSupport.seeded`). Absent or
    /// false: no spine is seeded.
    public var textSeedsSpines: Bool?
    /// Boxes the confidence floor will drop do not keep a title's seed out: the seed replaces them (see
    /// `TextSupport.seeded`). Absent or false: a seed is laid only where no box is.
    public var textSeedsOverDropped: Bool?
    /// A seeding title line is at least this many times as long as it is thick (absent: 3). A short title in
    /// large type on a wide book is only about twice as long.
    public var textSeedMinAspect: Double?
    /// A box wider than the row's typical spine holding two title lines side by side with a clear edge
    /// between them is split along it (see `TextSupport.splittingMerges`). Absent or false: not split.
    public var textSplitsMerges: Bool?
    /// The share of a title line's thickness, on either side, that the split takes for the text detector's margin
    /// rather than print: two neighbouring books' title boxes touch or overlap by that much, their letters do not.
    /// Absent: 0 (the boxes' whole extent).
    public var textSplitMargin: Double?
    /// How many times one box may be split (three books boxed together take two cuts). Absent: 1.
    public var textSplitCuts: Int?
    /// Lying books found from print (LyingBooks): text lines within this many degrees of horizontal
    /// that no standing box holds are grouped into one book's (or one stack's) print. Absent: the
    /// lying-book finder is off.
    public var lyingTextMaxAngle: Double?
    /// Its outline is searched outward from the print's hull up to this times the hull's larger side.
    public var lyingOutlineReach: Double?
    /// Its boxes whose confidence is below this are dropped.
    public var lyingMinConfidence: Double?
    /// A row's box whose print shows a stack seen spine-on is cut into its lying books (see
    /// `TextSupport.splittingStacks`). Absent or false: the box stands.
    public var lyingStacksByPrint: Bool?
    /// A band of vertical edges that runs into the photo's bottom edge has no board under it in view: it is
    /// a floor, a pavement or a radiator below the cabinet, or books cut off above their feet (partial,
    /// which no one can file whole). Such a band is not searched for spines. Absent or false: it is.
    public var rowsNeedVisibleFeet: Bool?
    /// Such a band is searched all the same when it spans at least this share of the photo's height: one row
    /// photographed close up, its board a thin strip at the photo's edge or just out of view. A floor or a
    /// pavement under a cabinet is the lower part of a photo of the whole cabinet (at most 0.42 of its height
    /// on every set measured here; close-ups of one row 0.78 to 0.97). Absent: never.
    public var footlessRowMinHeight: Double?
    /// Such a band is searched all the same when the text cue found at least this many lines of print running
    /// up it: the spines of a row the photo's bottom edge cuts off (the lower shelf of a bookcase photographed
    /// from close by, a library's rows seen one frame at a time), whose titles are in view. A floor, a pavement
    /// or a radiator carries no such print. Absent: never.
    public var footlessRowMinPrintLines: Int?
    /// Where the text cue ran, a band running out of the photo's bottom is searched for its print alone
    /// (`footlessRowMinPrintLines`), whatever its height: a close-up of one row carries its titles, while the floor
    /// under a bookcase fills more than half of a photo that cuts the bookcase off above its lowest shelf. Without
    /// the cue, `footlessRowMinHeight` decides as before. Absent or false: either keeps the band.
    public var closeUpRowsNeedPrint: Bool?
    /// A row the photo's top edge cuts off (its band starts at the top, the books' tops out of view) stands as tall
    /// as the photo's whole rows, as one the bottom edge cuts off does: its spines' widths are judged against that
    /// height, not the part in view. Absent or false: against the part in view.
    public var topCutRows: Bool?
    /// In a row the photo's top edge cuts off, a box's top may be the photo's edge, where its sides run up to it
    /// (see `RowSpines.verticalExtent`). Absent or false: the strongest line across the box is its top.
    public var topsAtPhotoEdge: Bool?
    /// The row finder's smoothing and closed gaps scale with nine sixteenths of a photo's width where that is more
    /// than its height (see `RowFinder.rowScale`). Absent or false: with its height.
    public var rowScaleByWidth: Bool?
    /// A cut row's boxes (either edge) are scored with their widths against the height its books stand, as they
    /// were cut, not against the part in view, which makes every whole spine in it look too wide to be one; a
    /// piece of a book lying under print running across it keeps the part in view's. Absent or false: the part
    /// in view's.
    public var cutRowsScoredWhole: Bool?
    /// A picture frame standing in a row, cut by the row finder into its two sides and its picture, is dropped
    /// whole (see `SpineDetector.framedPictures`). Absent or false: its pieces are scored as spines.
    public var dropsFramedPictures: Bool?
    /// A box whose print starts far below its top has its top searched again above the print, and lowered when
    /// above the new top one of its sides is weaker than this times below it (see `TextSupport.loweringTops`).
    /// Absent or 0: tops stay where the row finder put them.
    public var textLowersTops: Double?
    /// The file under models/detection holding the `BoxClassifier` that scores boxes when the text cue ran, in
    /// place of `textConfidenceModel`. Absent, or the file not shipped: the logistic model scores them.
    public var boxClassifier: String?
    /// The floor `textMinCalibratedConfidence` plays for the classifier's chances: a box is kept when the
    /// classifier finds it at least this likely to be a book (0.5: more likely one than not; chosen on the
    /// training sets, where 0.4 to 0.6 were compared).
    public var boxClassifierFloor: Double?
    /// A piece at least this wide (over the row's height) but not wide enough to be searched as a stack by
    /// `maxWidthRatio` is tried as one too, and cut into lying books when its long horizontal lines dominate
    /// (see `RowSpines.lyingStack`). Absent: only pieces wider than `maxWidthRatio` are.
    public var narrowStackMinWidthRatio: Double?
    /// Where the classifier scores boxes, the stretches of a row no kept box covers are searched for books leaning
    /// past the row's tilt search (see `LeaningBooks`). Absent or false: they are not.
    public var leaningBooks: Bool?
    /// A standing box the classifier dropped, at least this wide for its row's height, is cut again as a short
    /// stack of lying books (nil: never).
    public var stacksInDroppedMinWidthRatio: Double?
    /// A box gets a twin with its top lowered to the clearest full-width horizontal edge (at least this coverage)
    /// below its own, when the classifier dropped it or scores it under `lowerTopBelowConfidence` (nil: never).
    public var lowerTopMinCoverage: Double?
    public var lowerTopBelowConfidence: Double?
    /// Above the lowered top, the box's edge density is at most this times that below it (wall, not book).
    public var lowerTopMaxTextureAbove: Double?
    /// A row too weakly supported to keep its standing boxes (`rowMinSupport`) keeps the lying books its stack
    /// search cut: a board of stacks and face-out pictures has no standing spines to support it, only the
    /// stray pieces cut between the pictures. Absent or false: the whole row is dropped.
    public var weakRowsKeepLying: Bool?
    /// A board holding print but no row (books lying on a painted back's board) becomes a row of lying books
    /// (see `LyingBooks.boardBands`). Absent or false: its books are left to the print alone.
    public var boardRows: Bool?
    /// A stack lying in front of a row, across several of its boxes, ends the boxes behind it at its top and is
    /// cut into its books (see `RowSpines.inFront`). Absent or false: the row's boxes run down through it.
    public var stacksInFront: Bool?

    /// The parameters shipped in models/detection, or the compiled-in defaults if the file is missing.
    public static let bundled: DetectorParameters = (try? load(file: "detector-v2.json")) ?? .fallback

    public static func load(file: String) throws -> DetectorParameters {
        try JSONDecoder().decode(DetectorParameters.self, from: ShelfModels.data(file, in: "detection"))
    }

    /// Identical to detector-v2.json (version detector-v2.28); used only when the resource bundle cannot be found.
    public static let fallback = DetectorParameters(
        version: "detector-v2.28", workingLongSide: 640, edgeCap: 24, maxSkewDegrees: 12, skewStepDegrees: 0.25, minSkewDegrees: 0.75, skewMinGain: 1.1, contrastMaxGain: 3, edgeFloor: 6, rowVerticalEdgeFraction: 0.3,
        rowMinEdgeFraction: 0.01, minRowHeight: 0.08, maxTiltDegrees: 14, tiltStepDegrees: 1, maxRowLeanDegrees: 40, tiltPenalty: 0.6,
        darkGapWeight: 0.44, colourChangeWeight: 0.28, footWeight: 0.98, footFraction: 0.2,
        boundaryThreshold: 1.67, widthRatioMedian: 0.09,
        widthRatioLogSigma: 0.6, widthPriorWeight: 0.08, minWidthRatio: 0.015, peakRadius: 3, gapMaxWidthRatio: 0.025,
        maxSideAngleDegrees: 3, maxWidthRatio: 0.8, lyingDominance: 1.5, lyingMinEdgeDensity: 0.015,
        lyingBoundaryThreshold: 0.6, lyingMaxLengthRatio: 1.5, lyingThicknessRatioMedian: 0.12, topReach: 0.15, topSideWeight: 1,
        topEdgeCoverage: 0.3, blankMaxLumaSD: 6, blankMaxEdgeDensity: 0.02, relativeThreshold: 0.65,
        rowReferenceQuantile: 0.9, relativeFloor: 0.5, wideRetryThresholdFactor: 0.8, minConfidence: 0.05,
        rowMinSupport: 0.4, footReach: 0.2,
        confidenceModel: [-7.2041, 11.6084, 9.1782, -3.3546, -1.8669, -3.8071, -8.5142, 0.0000, 0.0000, 0.1082, 4.1191, 0.0000, 0.0000, 0.0000, 0.0000, -0.4906, -3.6349],
        minCalibratedConfidence: 0.3, topColourWeight: 0.6, textConfidenceModel: [-4.9216, 7.8433, 10.4514, -2.2043, -2.0748, -3.3036, -6.6103, 0.0000, 0.0000, 0.0790, 2.8499, 1.6159, -3.2344, -1.6296, -0.7206, -0.7551, -2.9217],
        textCueLongSide: 736, textMinCalibratedConfidence: 0.4, textJoinsSplits: true, textSeedsSpines: true, textSeedsOverDropped: true, textSeedMinAspect: 2, textSplitsMerges: true,
        textSplitMargin: 0.1, textSplitCuts: 2,
        lyingTextMaxAngle: 35, lyingOutlineReach: 1, lyingMinConfidence: 0.5, lyingStacksByPrint: true,
        rowsNeedVisibleFeet: true, footlessRowMinHeight: 0.5, footlessRowMinPrintLines: 2, closeUpRowsNeedPrint: true, topCutRows: true, topsAtPhotoEdge: true, rowScaleByWidth: true, cutRowsScoredWhole: true, dropsFramedPictures: true, textLowersTops: 0.7,
        boxClassifier: "box-classifier-v1.json", boxClassifierFloor: 0.5, narrowStackMinWidthRatio: 0.4, leaningBooks: true,
        stacksInDroppedMinWidthRatio: 0.25, lowerTopMinCoverage: 0.6, lowerTopBelowConfidence: 0.9, lowerTopMaxTextureAbove: 0.6,
        weakRowsKeepLying: true, boardRows: true, stacksInFront: true)
}
