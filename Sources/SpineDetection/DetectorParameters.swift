import Foundation
import ShelfModels

/// The detector's tunable numbers, loaded from `models/detection/detector-v1.json` so that a change is a
/// reviewed, versioned diff that `eval-detection` measures, never a literal hidden in the code.
///
/// Lengths named "…Width" or "…Search" are fractions of the shelf row's height (spines scale with the
/// row, not with the photo); row-finding lengths are fractions of the image height.
public struct DetectorParameters: Sendable, Codable, Equatable {
    public var version: String
    /// Window of the moving average over the row profile.
    public var rowProfileSmoothing: Double
    /// A row is where vertical structure exceeds this share of the profile's 90th percentile.
    public var rowThreshold: Double
    /// A seeded row grows while its vertical structure stays above this share of the 90th percentile.
    public var rowGrowThreshold: Double
    public var minRowHeight: Double
    /// Each row band is opened upwards by this share of its height before spine tops are searched.
    public var rowTopReach: Double
    /// Row bands closer than this are one row (a label or a dark gap can break a row's profile).
    public var maxRowGap: Double
    /// Boundaries are searched at tilts up to this many degrees from vertical, in steps of `tiltStepDegrees`.
    public var maxTiltDegrees: Double
    public var tiltStepDegrees: Double
    /// Edge strength (Sobel/4, 8-bit units) that counts fully; weaker edges count in proportion.
    public var edgeSaturation: Double
    /// Boundary peaks closer than this (fraction of row height) are one peak.
    public var boundaryPeakRadius: Double
    /// Hard lower bound on a spine's width: two boundaries closer than this are a label or a shadow's two sides.
    public var minSpineWidth: Double
    public var typicalSpineWidth: Double
    /// Wider segments are gaps or bookends, not books.
    public var maxSpineWidth: Double
    /// Weight of the log-width prior against boundary evidence in the row segmentation.
    public var widthPenalty: Double
    public var boundaryGain: Double
    /// Boundary candidates whose saturated edge covers less of the row than this are not considered.
    public var minBoundaryScore: Double
    /// A spine's top edge is searched in this upper share of the row.
    public var topSearch: Double
    /// The top edge must be this many times the row's median horizontal-edge strength to count.
    public var topEdgeRatio: Double
    /// A flat, textureless segment is a book only if its colour is this far (RGB distance) from the back panel's.
    public var panelColorDistance: Double
    /// Spines below this confidence are dropped.
    public var minConfidence: Double

    /// The parameters shipped in models/detection.
    public static let bundled: DetectorParameters = {
        do {
            return try load(file: "detector-v1.json")
        } catch {
            // The file ships inside the binary's resource bundle; without it the build itself is broken.
            preconditionFailure("models/detection/detector-v1.json is missing or invalid: \(error)")
        }
    }()

    public static func load(file: String) throws -> DetectorParameters {
        try JSONDecoder().decode(DetectorParameters.self, from: ShelfModels.data(file, in: "detection"))
    }
}
