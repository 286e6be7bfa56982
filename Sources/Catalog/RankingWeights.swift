/// How the coverage features combine into the ranking score: a linear model fitted (listwise softmax over each
/// reading's candidates) on the public training half of the Library Dataset, `eval-catalog --fit`.
public struct CatalogRanking: Sendable, Hashable {
    /// One weight per entry of `MatchFeatures.vector`.
    public var weights: [Double]

    public init(weights: [Double]) {
        precondition(weights.count == MatchFeatures.names.count, "one weight per feature")
        self.weights = weights
    }

    public static let standard = CatalogRanking(weights: [
        2.5402, 0.4754, 1.5475, -0.3291, 2.1368, 2.9087, 7.3948, -1.1657, -1.2168, -1.3011, 3.4698, 5.5325, 0.3711,
        -0.5039, 3.3382,
    ])

    public func score(_ f: MatchFeatures) -> Double {
        var s = 0.0
        for (w, x) in zip(weights, f.vector) { s += w * x }
        return s
    }
}

extension MatchFeatures {
    public static let names = ["title", "subtitle", "author", "hasAuthor", "tag", "tagExact", "query", "disorder",
                               "title*author", "title*tag", "title^2", "query^2", "series", "hasSubtitle", "queryByTitle"]

    /// The ranker is linear in these; the products let it learn that evidence from two fields reinforces.
    public var vector: [Double] {
        [title, subtitle, author, hasAuthor ? 1 : 0, tag, tagExact ? 1 : 0, query, disorder,
         title * author, title * tag, title * title, query * query, series, hasSubtitle ? 1 : 0, queryByTitle]
    }
}
