import Foundation

/// The reader's own record of one Work (seed 002). A Work has at most one (`Work.libraryEntry` is optional,
/// and the store has a unique index on it). No edition means wishlist; an edition means owned.
public struct UserLibraryEntry: Sendable, Equatable, Hashable, Codable {
    public typealias ID = Int64
    public var id: ID?
    /// The owned copy; nil for a wishlist entry, or after that edition was deleted (nullify rule).
    public var editionID: Edition.ID?
    public var dateAdded: Date
    public private(set) var readingStatus: ReadingStatus
    public var currentPage: Int
    /// 0...1, derived from `currentPage` by `updateReadingProgress(pageCount:)`.
    public var readingProgress: Double
    public var rating: Int?
    public var personalRating: Double?
    public var notes: String?
    public var tags: [String]
    public var dateStarted: Date?
    public var dateCompleted: Date?
    public var estimatedFinishDate: Date?
    public var lastModified: Date

    public init(id: ID? = nil, editionID: Edition.ID? = nil, readingStatus: ReadingStatus = .toRead,
                dateAdded: Date = Date(), currentPage: Int = 0, readingProgress: Double = 0, rating: Int? = nil,
                personalRating: Double? = nil, notes: String? = nil, tags: [String] = [], dateStarted: Date? = nil,
                dateCompleted: Date? = nil, estimatedFinishDate: Date? = nil, lastModified: Date? = nil) {
        self.id = id; self.editionID = editionID; self.readingStatus = readingStatus; self.dateAdded = dateAdded
        self.currentPage = currentPage; self.readingProgress = readingProgress; self.rating = rating
        self.personalRating = personalRating; self.notes = notes; self.tags = tags; self.dateStarted = dateStarted
        self.dateCompleted = dateCompleted; self.estimatedFinishDate = estimatedFinishDate
        self.lastModified = lastModified ?? dateAdded
    }

    /// Seed 002's wishlist entry: no edition, status `.wishlist`.
    public static func createWishlistEntry(at date: Date = Date()) -> UserLibraryEntry {
        UserLibraryEntry(readingStatus: .wishlist, dateAdded: date)
    }

    /// An owned copy, `toRead` unless told otherwise.
    public static func createOwnedEntry(edition: Edition.ID, status: ReadingStatus = .toRead, at date: Date = Date()) -> UserLibraryEntry {
        var entry = UserLibraryEntry(editionID: edition, readingStatus: .toRead, dateAdded: date)
        entry.setStatus(status == .wishlist ? .toRead : status, at: date)
        return entry
    }

    public var isWishlist: Bool { editionID == nil && readingStatus == .wishlist }
    public var isOwned: Bool { editionID != nil }

    public mutating func touch(at date: Date = Date()) { lastModified = date }

    /// Changes the status and applies seed 000's date rules: `.reading` fills `dateStarted` if empty,
    /// `.read` fills `dateCompleted` and makes sure `dateStarted` is set.
    public mutating func setStatus(_ status: ReadingStatus, at date: Date = Date()) {
        readingStatus = status
        switch status {
        case .reading:
            if dateStarted == nil { dateStarted = date }
        case .read:
            if dateStarted == nil { dateStarted = date }
            dateCompleted = date
        default:
            break
        }
        touch(at: date)
    }

    /// toRead (or onHold, wishlist) → reading.
    public mutating func startReading(at date: Date = Date()) {
        guard readingStatus != .reading, readingStatus != .read else { return }
        setStatus(.reading, at: date)
    }

    /// Status read, dates filled, progress 100 % and the current page at the end of the book (seed 001).
    public mutating func markAsCompleted(pageCount: Int? = nil, at date: Date = Date()) {
        setStatus(.read, at: date)
        readingProgress = 1.0
        if let pageCount, pageCount > 0 { currentPage = pageCount }
        estimatedFinishDate = nil
    }

    /// Recomputes progress from the current page; reaching the last page completes the book (seed 002).
    public mutating func updateReadingProgress(pageCount: Int?, at date: Date = Date()) {
        guard let pageCount, pageCount > 0 else { touch(at: date); return }
        readingProgress = min(1.0, max(0.0, Double(currentPage) / Double(pageCount)))
        if readingProgress >= 1.0 {
            markAsCompleted(pageCount: pageCount, at: date)
        } else {
            if currentPage > 0 && readingStatus != .reading { startReading(at: date) }
            touch(at: date)
        }
    }

    /// Wishlist → owned: keeps `dateAdded` (the history), sets the edition and a reading status (seed 002).
    public mutating func acquireEdition(_ edition: Edition.ID, status: ReadingStatus = .toRead, at date: Date = Date()) {
        editionID = edition
        if readingStatus == .wishlist || status != .toRead { setStatus(status == .wishlist ? .toRead : status, at: date) }
        touch(at: date)
    }

    /// Pages per day since `dateStarted`, counting a part-day as a whole one; nil before any page is read.
    public func readingPace(now: Date = Date()) -> Double? {
        guard let started = dateStarted, currentPage > 0 else { return nil }
        let days = max(1.0, (now.timeIntervalSince(started) / 86_400).rounded(.up))
        return Double(currentPage) / days
    }

    /// When the remaining pages will be read at the current pace; stores and returns it.
    @discardableResult
    public mutating func calculateEstimatedFinishDate(pageCount: Int?, now: Date = Date()) -> Date? {
        guard readingStatus == .reading, let pageCount, pageCount > currentPage, let pace = readingPace(now: now), pace > 0 else {
            estimatedFinishDate = nil
            return nil
        }
        let days = (Double(pageCount - currentPage) / pace).rounded(.up)
        estimatedFinishDate = now.addingTimeInterval(days * 86_400)
        return estimatedFinishDate
    }

    public func validationIssues() -> [ValidationIssue] {
        var issues = [Rules.rating(rating), Rules.personalRating(personalRating), Rules.notes(notes), Rules.tags(tags)]
            .compactMap { $0 }
        if readingStatus == .wishlist && editionID != nil {
            issues.append(ValidationIssue(field: "readingStatus", message: "an owned copy cannot be on the wishlist; pick toRead or another status"))
        }
        if currentPage < 0 { issues.append(ValidationIssue(field: "currentPage", message: "must not be negative")) }
        return issues
    }
}
