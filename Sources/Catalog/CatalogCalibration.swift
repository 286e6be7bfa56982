import Foundation

/// Turns a candidate's features into a probability that it is the book read, with a logistic model
/// over the ranker's softmax share (as a logit), the ranking score, and the title and reading coverage.
public struct CatalogCalibration: Sendable, Hashable {
    public var bias: Double
    public var rawWeight: Double
    public var shareWeight: Double
    public var titleWeight: Double
    public var queryWeight: Double
    /// Probability at or above which a match is accepted.
    public var acceptThreshold: Double

    public init(bias: Double, rawWeight: Double, shareWeight: Double, titleWeight: Double, queryWeight: Double,
                acceptThreshold: Double) {
        self.bias = bias
        self.rawWeight = rawWeight
        self.shareWeight = shareWeight
        self.titleWeight = titleWeight
        self.queryWeight = queryWeight
        self.acceptThreshold = acceptThreshold
    }

    /// Fitted on the public training half of the Library Dataset (`swift run -c release eval-catalog --fit`).
    public static let standard = CatalogCalibration(
        bias: -0.0908, rawWeight: -0.2095, shareWeight: 0.5874, titleWeight: -0.3357, queryWeight: 5.1837,
        acceptThreshold: 0.3044)

    public func linear(_ f: MatchFeatures) -> Double {
        bias + rawWeight * f.raw + shareWeight * Self.logit(f.share) + titleWeight * f.title + queryWeight * f.query
    }

    /// Log-odds, clipped so a share of exactly 0 or 1 stays finite.
    public static func logit(_ p: Double) -> Double {
        let q = min(max(p, 1e-6), 1 - 1e-6)
        return log(q / (1 - q))
    }

    public func probability(_ f: MatchFeatures) -> Double {
        1 / (1 + exp(-linear(f)))
    }
}
