import Foundation

/// Turns a candidate's features into a probability that it is the book read: logistic regression over the
/// ranker's softmax share (as log-odds: how clearly it beats the other works) and how much of the reading and
/// of the entry's fields it covers.
public struct CatalogCalibration: Sendable, Hashable {
    /// One weight per `CatalogCalibration.inputs(_:)` entry; the first is the bias.
    public var weights: [Double]
    /// Probability at or above which a match is accepted.
    public var acceptThreshold: Double

    public static let names = ["bias", "logit(share)", "query", "title", "author", "tag", "tagExact"]

    public init(weights: [Double], acceptThreshold: Double) {
        precondition(weights.count == Self.names.count, "one weight per calibration input")
        self.weights = weights
        self.acceptThreshold = acceptThreshold
    }

    /// Fitted on the public training half of the Library Dataset (`swift run -c release eval-catalog --fit`);
    /// the threshold is the lowest score at which that half shows precision >= 95% with 95% confidence, so
    /// unseen shelves of the same kind stay at 95% rather than at 95% give or take sampling noise.
    public static let standard = CatalogCalibration(
        weights: [-0.5891, 0.5146, 1.9151, -1.1132, -0.4298, 0.8055, -0.8693],
        acceptThreshold: 0.4179)

    public static func inputs(_ f: MatchFeatures) -> [Double] {
        [1, logit(f.share), f.query, f.title, f.author, f.tag, f.tagExact ? 1 : 0]
    }

    /// Log-odds, clipped so a share of exactly 0 or 1 stays finite.
    public static func logit(_ p: Double) -> Double {
        let q = min(max(p, 1e-6), 1 - 1e-6)
        return log(q / (1 - q))
    }

    public func probability(_ f: MatchFeatures) -> Double {
        var z = 0.0
        for (w, x) in zip(weights, Self.inputs(f)) { z += w * x }
        return 1 / (1 + exp(-z))
    }
}
