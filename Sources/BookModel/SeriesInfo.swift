import Foundation

/// A series named inside a title (seed 001's `getSeriesInfo()`): "The Fellowship of the Ring (The Lord of
/// the Rings, #1)", "Dune Messiah (Dune #2)", "Discworld 12: Witches Abroad", "Book 3 of the Expanse".
public struct SeriesInfo: Sendable, Equatable, CustomStringConvertible {
    public var name: String
    /// Fractional numbers exist (novellas numbered 2.5).
    public var number: Double?

    public init(name: String, number: Double?) { self.name = name; self.number = number }

    public var description: String {
        guard let number else { return name }
        let n = number == number.rounded() ? String(Int(number)) : String(number)
        return "\(name) #\(n)"
    }

    /// The patterns, most specific first. Each has a `name` group and an optional `num` group.
    private static let patterns: [String] = [
        #"\((?<name>[^()#]+?),?\s*#\s*(?<num>\d+(?:\.\d+)?)\)"#,                       // (Series, #3) / (Series #3)
        #"\((?<name>[^()]+?),?\s+(?:Book|Vol\.?|Volume|Part)\s+(?<num>\d+(?:\.\d+)?)\)"#, // (Series, Book 3)
        #"^(?<name>[^:]+?)\s+(?:Book|Vol\.?|Volume|Part)\s+(?<num>\d+(?:\.\d+)?)\s*[:\-–—]"#, // Series Book 3: Title
        #"(?:Book|Volume|Part)\s+(?<num>\d+(?:\.\d+)?)\s+(?:of|in)\s+(?:the\s+)?(?<name>.+?)\s*$"#, // Book 3 of the X
        #"^(?<name>[^:]+?)\s+(?<num>\d+(?:\.\d+)?)\s*:\s*\S"#,                           // Series 12: Title
        #"\((?<name>[^()]+?)\s+(?:Series|Trilogy|Saga|Chronicles|Cycle)\)"#,             // (X Trilogy)
    ]

    public static func parse(title: String) -> SeriesInfo? {
        for pattern in patterns {
            guard let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else { continue }
            let ns = title as NSString
            guard let m = regex.firstMatch(in: title, range: NSRange(location: 0, length: ns.length)) else { continue }
            let nameRange = m.range(withName: "name")
            guard nameRange.location != NSNotFound else { continue }
            var name = ns.substring(with: nameRange).trimmingCharacters(in: .whitespacesAndNewlines.union(.punctuationCharacters))
            if pattern.contains("Series|Trilogy") { name = ns.substring(with: m.range).trimmingCharacters(in: CharacterSet(charactersIn: "() ")) }
            guard !name.isEmpty else { continue }
            let numRange = m.range(withName: "num")
            let number = numRange.location == NSNotFound ? nil : Double(ns.substring(with: numRange))
            return SeriesInfo(name: name, number: number)
        }
        return nil
    }
}
