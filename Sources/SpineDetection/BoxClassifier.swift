import Foundation
import ShelfModels

/// A classifier of "this box is a book", over a box's confidence cues and its appearance (`BoxAppearance`):
/// boosted trees plus a linear term, both summed into log-odds. Where the logistic confidence model can only add
/// the cues up, the trees weigh them against what the box looks like, which is what tells a gap, a wall, a plant
/// or a cabinet side from a plain book; the linear term (a logistic model's share) keeps the chance rising with the
/// evidence where the trees, which do not extrapolate, meet a shelf unlike any they were fitted on. Fitted by
/// scripts/fit-box-classifier.py (scikit-learn's histogram gradient boosting, exported as plain trees) on a
/// stated split; shipped under models/detection like the detector's other parameters, so a refit is a reviewed
/// diff.
public struct BoxClassifier: Codable, Sendable, Equatable {
    public var version: String
    /// The inputs, in order: `SpineDetector.confidenceCueNames`, then `BoxAppearance.names`. Checked on load so
    /// that a file fitted on other features is refused rather than misread.
    public var features: [String]
    /// The log-odds every tree adds to.
    public var baseline: Double
    /// Bias, then one weight per input, added to the log-odds. Absent: trees alone.
    public var linear: [Double]?
    /// Each tree's nodes, the root first: `[feature, threshold, left, right, value]`; a leaf has feature -1 and
    /// adds its value. A split sends a box left when its feature is at most the threshold.
    public var trees: [[[Double]]]

    /// The chance that the box with these inputs is a book.
    public func probability(_ x: [Double]) -> Double {
        var z = baseline + (linear.map { SpineDetector.logOdds(x, $0) } ?? 0)
        for tree in trees {
            var k = 0
            while k < tree.count {
                let node = tree[k]
                let f = Int(node[0])
                if f < 0 { z += node[4]; break }
                k = Int(f < x.count && x[f] <= node[1] ? node[2] : node[3])
            }
        }
        return 1 / (1 + exp(-z))
    }

    /// The features this detector measures, in the order the trees read them.
    public static var expectedFeatures: [String] { SpineDetector.confidenceCueNames + BoxAppearance.names }

    /// Reads models/detection/`file`; nil when it is not shipped, does not parse, or was fitted on other features.
    public static func load(file: String) -> BoxClassifier? {
        (try? ShelfModels.data(file, in: "detection")).flatMap(decoded)
    }

    /// The classifier in `data`, or nil when it does not parse, was fitted on other features (or its linear term
    /// on another number of them), or a tree's walk could fail to end.
    static func decoded(_ data: Data) -> BoxClassifier? {
        guard let c = try? JSONDecoder().decode(BoxClassifier.self, from: data), c.features == expectedFeatures,
              c.trees.allSatisfy(wellFormed), c.linear.map({ $0.count == c.features.count + 1 }) ?? true else { return nil }
        return c
    }

    /// `load(file:)`, read once per file for the process: a detector is made per photo, the file is ~110 KB.
    static func shipped(_ file: String) -> BoxClassifier? {
        cache.lock.lock()
        defer { cache.lock.unlock() }
        if let hit = cache.loaded[file] { return hit }
        let c = load(file: file)
        cache.loaded[file] = c
        return c
    }
    private final class Cache: @unchecked Sendable { let lock = NSLock(); var loaded: [String: BoxClassifier?] = [:] }
    private static let cache = Cache()

    /// Every node has five numbers and every child index points forward inside its tree, so a walk ends.
    static func wellFormed(_ tree: [[Double]]) -> Bool {
        !tree.isEmpty && tree.enumerated().allSatisfy { k, n in
            n.count == 5 && (n[0] < 0 || (Int(n[2]) > k && Int(n[2]) < tree.count && Int(n[3]) > k && Int(n[3]) < tree.count))
        }
    }
}
