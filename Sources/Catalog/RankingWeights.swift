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
        2.6219, 0.7947, 1.6018, -0.3007, 2.4696, 4.0202, 7.2816, -1.0606, -0.9444, -1.2210, 3.5088, 5.2147, 0.6684,
        -0.4043, 3.1912,
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
