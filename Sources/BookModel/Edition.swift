import Foundation

/// One published version of a Work (seed 002): its ISBNs, format and publisher.
public struct Edition: Sendable, Equatable, Hashable, Codable {
    public typealias ID = Int64
    public var id: ID?
    /// Primary ISBN kept for seed 002's backward compatibility; `isbns` holds all of them.
    public var isbn: String?
    public var isbns: [String]
    public var title: String?
    public var publisher: String?
    public var publicationDate: String?
    public var pageCount: Int?
    public var format: EditionFormat
    public var coverImageURL: String?
    public var editionTitle: String?
    public var description: String?
    public var language: String?
    public var primaryProvider: String?
    public var contributors: [String]
    public var openLibraryID: String?
    public var openLibraryEditionID: String?
    public var isbndbID: String?
    public var googleBooksVolumeID: String?
    public var goodreadsID: String?
    public var amazonASINs: [String]
    public var googleBooksVolumeIDs: [String]
    public var librarythingIDs: [String]
    public var lastISBNDBSync: Date?
    public var isbndbQuality: Int
    public var dateCreated: Date
    public var lastModified: Date

    public init(id: ID? = nil, isbn: String? = nil, isbns: [String] = [], title: String? = nil, publisher: String? = nil,
                publicationDate: String? = nil, pageCount: Int? = nil, format: EditionFormat = .paperback,
                coverImageURL: String? = nil, editionTitle: String? = nil, description: String? = nil,
                language: String? = nil, primaryProvider: String? = nil, contributors: [String] = [],
                openLibraryID: String? = nil, openLibraryEditionID: String? = nil, isbndbID: String? = nil,
                googleBooksVolumeID: String? = nil, goodreadsID: String? = nil, amazonASINs: [String] = [],
                googleBooksVolumeIDs: [String] = [], librarythingIDs: [String] = [], lastISBNDBSync: Date? = nil,
                isbndbQuality: Int = 0, dateCreated: Date = Date(), lastModified: Date? = nil) {
        self.id = id; self.isbn = isbn; self.isbns = isbns; self.title = title; self.publisher = publisher
        self.publicationDate = publicationDate; self.pageCount = pageCount; self.format = format
        self.coverImageURL = coverImageURL; self.editionTitle = editionTitle; self.description = description
        self.language = language; self.primaryProvider = primaryProvider; self.contributors = contributors
        self.openLibraryID = openLibraryID; self.openLibraryEditionID = openLibraryEditionID; self.isbndbID = isbndbID
        self.googleBooksVolumeID = googleBooksVolumeID; self.goodreadsID = goodreadsID; self.amazonASINs = amazonASINs
        self.googleBooksVolumeIDs = googleBooksVolumeIDs; self.librarythingIDs = librarythingIDs
        self.lastISBNDBSync = lastISBNDBSync; self.isbndbQuality = isbndbQuality
        self.dateCreated = dateCreated; self.lastModified = lastModified ?? dateCreated
        if let isbn, !self.isbns.contains(isbn) { self.isbns.insert(isbn, at: 0) }
    }

    public mutating func touch(at date: Date = Date()) { lastModified = date }

    /// The best ISBN: a 13-digit one first, then a 10-digit one, then whatever we have (seed 002).
    public var primaryISBN: String? {
        let all = (isbn.map { [$0] } ?? []) + isbns
        return all.first { $0.count == 13 } ?? all.first { $0.count == 10 } ?? all.first
    }

    /// Adds a normalized ISBN once; the first one added also becomes `isbn`.
    public mutating func addISBN(_ raw: String, at date: Date = Date()) {
        guard let n = ISBN.normalize(raw), !isbns.contains(n) else { return }
        isbns.append(n)
        if isbn == nil { isbn = n }
        touch(at: date)
    }

    public mutating func removeISBN(_ raw: String, at date: Date = Date()) {
        guard let n = ISBN.normalize(raw), isbns.contains(n) || isbn == n else { return }
        isbns.removeAll { $0 == n }
        if isbn == n { isbn = primaryISBN }
        touch(at: date)
    }

    /// Compares ISBN-10 and ISBN-13 forms of the same book as equal.
    public func hasISBN(_ raw: String) -> Bool {
        guard let n = ISBN.normalize(raw) else { return false }
        let target = ISBN.toISBN13(n) ?? n
        return ((isbn.map { [$0] } ?? []) + isbns).contains { $0 == n || (ISBN.toISBN13($0) ?? $0) == target }
    }

    /// "The Left Hand of Darkness (50th Anniversary Edition)".
    public func displayTitle(workTitle: String) -> String {
        guard let editionTitle, !editionTitle.isEmpty else { return title ?? workTitle }
        return "\(title ?? workTitle) (\(editionTitle))"
    }

    public var coverURL: URL? { coverImageURL.flatMap(URL.init(string:)) }

    public mutating func mergeExternalIDs(from other: Edition, at date: Date = Date()) {
        var changed = false
        for i in [other.isbn].compactMap({ $0 }) + other.isbns where !isbns.contains(i) { isbns.append(i); changed = true }
        if isbn == nil, let p = primaryISBN { isbn = p; changed = true }
        changed = fillMissing(&openLibraryID, from: other.openLibraryID) || changed
        changed = fillMissing(&openLibraryEditionID, from: other.openLibraryEditionID) || changed
        changed = fillMissing(&isbndbID, from: other.isbndbID) || changed
        changed = fillMissing(&googleBooksVolumeID, from: other.googleBooksVolumeID) || changed
        changed = fillMissing(&goodreadsID, from: other.goodreadsID) || changed
        changed = appendUnique(other.amazonASINs, to: &amazonASINs) || changed
        changed = appendUnique(other.googleBooksVolumeIDs, to: &googleBooksVolumeIDs) || changed
        changed = appendUnique(other.librarythingIDs, to: &librarythingIDs) || changed
        if other.isbndbQuality > isbndbQuality { isbndbQuality = other.isbndbQuality; changed = true }
        if changed { touch(at: date) }
    }

    public var externalIDsDictionary: [String: [String]] {
        var d: [String: [String]] = ["isbns": isbns, "amazonASINs": amazonASINs,
                                     "googleBooksVolumeIDs": googleBooksVolumeIDs, "librarythingIDs": librarythingIDs]
        d["openLibraryEditionID"] = openLibraryEditionID.map { [$0] }
        d["isbndbID"] = isbndbID.map { [$0] }
        return d
    }

    public func validationIssues() -> [ValidationIssue] {
        var issues = [Rules.pageCount(pageCount), Rules.description(description)].compactMap { $0 }
        for i in (isbn.map { [$0] } ?? []) + isbns { if let issue = Rules.isbn(i) { issues.append(issue); break } }
        return issues
    }
}
