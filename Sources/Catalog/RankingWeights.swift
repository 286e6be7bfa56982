/// How the coverage features combine into the ranking score: a linear model fitted (listwise softmax over each
/// reading's candidates) on the public training half of the Library Dataset, `eval-catalog --fit`.
public struct CatalogRanking: Sendable, Hashable {
    /// One weight per entry of `MatchFeatures.vector`.
    public var weights: [Double]

    public init(weights: [Double]) {
        precondition(weights.count == MatchFeatures.names.count, "one weight per feature")
        self.weights = weights
    }

    public static let standard = CatalogRanking(weights: [5.2391, 0.9991, 0.6266, -0.4023, 1.6310, 3.5565, 12.9931, -0.7348])

    public func score(_ f: MatchFeatures) -> Double {
        var s = 0.0
        for (w, x) in zip(weights, f.vector) { s += w * x }
        return s
    }
}

extension MatchFeatures {
    public static let names = ["title", "subtitle", "author", "hasAuthor", "tag", "tagExact", "query", "disorder"]

    public var vector: [Double] {
        [title, subtitle, author, hasAuthor ? 1 : 0, tag, tagExact ? 1 : 0, query, disorder]
    }
}
