import BookModel
import Foundation

/// Where a book stands on the shelves the library was filed from, from what the library already stores:
/// the photo, the shelf row, the place in the row and the spine's outline. Data only; `words` says it.
public struct ShelfPlace: Sendable, Equatable, Codable {
    /// 1-based number of the photo, in the order the library's photos were filed (their first Work's ID),
    /// so "photo 3" is the third photo scanned among those that still hold books.
    public var photoNumber: Int
    /// Where the photo was when it was scanned; it may have moved since.
    public var photoPath: String?
    public var photoContentHash: String
    /// 1-based shelf row, counted from the top of the photo.
    public var shelf: Int
    /// 1-based place in the row, counted from the left.
    public var fromLeft: Int
    /// A book lying flat rather than standing.
    public var lying: Bool
    /// The spine's quad, normalized to the upright photo (origin top-left): [[x, y]] x 4, clockwise.
    public var polygon: [[Double]]
    public var boundingBox: BoundingBox?

    /// Where `work` stands, or nil when it was not filed from a photo.
    public init?(_ work: Work, photoNumber: Int) {
        guard let spine = work.spine else { return nil }
        self.init(photoNumber: photoNumber, photoPath: work.originalImagePath, photoContentHash: spine.photoContentHash,
                  shelf: spine.row + 1, fromLeft: spine.position + 1, lying: spine.lying, polygon: spine.polygon,
                  boundingBox: work.boundingBox ?? BoundingBox(enclosing: spine.polygon))
    }

    public init(photoNumber: Int, photoPath: String?, photoContentHash: String, shelf: Int, fromLeft: Int, lying: Bool,
                polygon: [[Double]], boundingBox: BoundingBox?) {
        self.photoNumber = photoNumber; self.photoPath = photoPath; self.photoContentHash = photoContentHash
        self.shelf = shelf; self.fromLeft = fromLeft; self.lying = lying; self.polygon = polygon; self.boundingBox = boundingBox
    }

    /// The outline to draw: the polygon, or the box's corners for a spine filed without one (imports,
    /// older scans), clockwise from the top-left, normalized.
    public var corners: [[Double]] {
        let points = polygon.filter { $0.count == 2 }
        if points.count >= 3 { return points }
        guard let b = boundingBox else { return [] }
        return [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height], [b.x, b.y + b.height]]
    }

    /// "photo 3, shelf 2, 7th from the left" (English, as every message of the command line and pages).
    public var words: String {
        "photo \(photoNumber), shelf \(shelf), \(Self.ordinal(fromLeft)) from the left" + (lying ? " (lying flat)" : "")
    }

    /// 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st.
    public static func ordinal(_ n: Int) -> String {
        let tens = (n / 10) % 10, ones = n % 10
        let suffix = tens == 1 ? "th" : ones == 1 ? "st" : ones == 2 ? "nd" : ones == 3 ? "rd" : "th"
        return "\(n)\(suffix)"
    }
}

/// A Work whose title or author matched, and where it stands (nil when it was not filed from a photo:
/// imported from a CSV, or typed in).
public struct FoundBook: Sendable, Equatable {
    public var work: Work
    public var place: ShelfPlace?

    public init(work: Work, place: ShelfPlace?) {
        self.work = work
        self.place = place
    }
}

/// "Where is my book": title and author words matched against the whole library, verified and pending, one
/// rule for `shelfscan find`, the review's `/` search and the server's find page.
public enum BookFinder {
    /// How well `query`'s words match a title and its authors: nil unless every query word is a prefix of a
    /// word there ("dispo le gu" finds The Dispossessed by Ursula K. Le Guin). Whole-word matches rank above
    /// prefixes, shorter titles above longer ones.
    public static func score(_ words: [String], title: String, authors: [String]) -> Double? {
        guard !words.isEmpty else { return nil }
        let tokens = TextNormalization.tokens(([title] + authors).joined(separator: " "))
        guard words.allSatisfy({ w in tokens.contains { $0.hasPrefix(w) } }) else { return nil }
        let whole = words.filter { tokens.contains($0) }.count
        return (Double(words.count) + Double(whole)) / Double(2 * words.count) - Double(tokens.count) * 0.001
    }

    /// The Works among `works` matching `query`, best first (ties in filing order), each with its place.
    /// - Parameters:
    ///   - works: every Work of the library in filing order (ID order), as `works(includePending: true)` gives
    ///     them: photo numbers are counted over all of them, not only the matches.
    ///   - limit: at most this many; nil for all.
    public static func find(_ query: String, in works: [Work], limit: Int? = nil) -> [FoundBook] {
        let words = TextNormalization.tokens(query)
        guard !words.isEmpty else { return [] }
        let numbers = photoNumbers(works)
        let hits = works.enumerated().compactMap { index, work -> (Double, Int, Work)? in
            guard work.title != Work.unreadTitle || !work.authors.isEmpty,
                  let s = score(words, title: work.title == Work.unreadTitle ? "" : work.title, authors: work.authors.map(\.name))
            else { return nil }
            return (s, index, work)
        }
        let sorted = hits.sorted { $0.0 != $1.0 ? $0.0 > $1.0 : $0.1 < $1.1 }
        return sorted.prefix(limit ?? sorted.count).map { FoundBook(work: $0.2, place: place(of: $0.2, photoNumbers: numbers)) }
    }

    /// Each photo's 1-based number, in the order its first Work was filed.
    static func photoNumbers(_ works: [Work]) -> [String: Int] {
        var numbers: [String: Int] = [:]
        for work in works.sorted(by: { ($0.id ?? 0) < ($1.id ?? 0) }) {
            guard let hash = work.spine?.photoContentHash, numbers[hash] == nil else { continue }
            numbers[hash] = numbers.count + 1
        }
        return numbers
    }

    static func place(of work: Work, photoNumbers: [String: Int]) -> ShelfPlace? {
        guard let hash = work.spine?.photoContentHash, let number = photoNumbers[hash] else { return nil }
        return ShelfPlace(work, photoNumber: number)
    }
}

extension LibraryStoring {
    /// The library's books (verified and pending) whose title or author match `query`, each with its place.
    /// Loads every Work once: one query per search, fine for a home or team library of tens of thousands.
    public func find(_ query: String, limit: Int? = nil) async throws -> [FoundBook] {
        BookFinder.find(query, in: try await works(includePending: true), limit: limit)
    }

    /// Where one Work stands, numbered among the library's photos as `find` numbers them.
    public func place(of work: Work) async throws -> ShelfPlace? {
        guard work.spine != nil else { return nil }
        return BookFinder.place(of: work, photoNumbers: BookFinder.photoNumbers(try await works(includePending: true)))
    }
}
