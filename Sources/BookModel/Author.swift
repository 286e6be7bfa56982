import Foundation

/// A person credited on works (seed 002), with the diversity fields of seed 004's AuthorDTO.
public struct Author: Sendable, Equatable, Hashable, Codable {
    public typealias ID = Int64
    /// Assigned by the store; nil until saved.
    public var id: ID?
    public var name: String
    public var nationality: String?
    public var gender: AuthorGender
    public var culturalRegion: CulturalRegion?
    public var birthYear: Int?
    public var deathYear: Int?
    public var openLibraryID: String?
    public var isbndbID: String?
    public var googleBooksID: String?
    public var goodreadsID: String?
    public var bookCount: Int
    public var dateCreated: Date
    public var lastModified: Date

    public init(id: ID? = nil, name: String, nationality: String? = nil, gender: AuthorGender = .unknown,
                culturalRegion: CulturalRegion? = nil, birthYear: Int? = nil, deathYear: Int? = nil,
                openLibraryID: String? = nil, isbndbID: String? = nil, googleBooksID: String? = nil,
                goodreadsID: String? = nil, bookCount: Int = 0, dateCreated: Date = Date(), lastModified: Date? = nil) {
        self.id = id; self.name = name; self.nationality = nationality; self.gender = gender
        self.culturalRegion = culturalRegion; self.birthYear = birthYear; self.deathYear = deathYear
        self.openLibraryID = openLibraryID; self.isbndbID = isbndbID; self.googleBooksID = googleBooksID
        self.goodreadsID = goodreadsID; self.bookCount = bookCount
        self.dateCreated = dateCreated; self.lastModified = lastModified ?? dateCreated
    }

    public mutating func touch(at date: Date = Date()) { lastModified = date }

    /// "Ursula K. Le Guin (1929-2018)", "Zadie Smith (b. 1975)", or the bare name.
    public var displayName: String {
        switch (birthYear, deathYear) {
        case let (b?, d?): "\(name) (\(b)-\(d))"
        case let (b?, nil): "\(name) (b. \(b))"
        case let (nil, d?): "\(name) (d. \(d))"
        default: name
        }
    }

    /// Seed 002: a non-male author, or one from an under-represented region.
    public func representsMarginalizedVoices() -> Bool {
        if gender == .female || gender == .nonBinary || gender == .other { return true }
        return culturalRegion?.isUnderrepresented ?? false
    }

    public func representsIndigenousVoices() -> Bool { culturalRegion == .indigenous }

    public mutating func updateStatistics(bookCount: Int, at date: Date = Date()) {
        guard bookCount != self.bookCount else { return }
        self.bookCount = bookCount
        touch(at: date)
    }

    /// Authors hold one ID per platform: fill the ones we lack, never overwrite ours (seed 002).
    public mutating func mergeExternalIDs(from other: Author, at date: Date = Date()) {
        var changed = false
        func fill(_ mine: inout String?, _ theirs: String?) {
            if (mine ?? "").isEmpty, let theirs, !theirs.isEmpty { mine = theirs; changed = true }
        }
        fill(&openLibraryID, other.openLibraryID)
        fill(&isbndbID, other.isbndbID)
        fill(&googleBooksID, other.googleBooksID)
        fill(&goodreadsID, other.goodreadsID)
        if changed { touch(at: date) }
    }

    public var externalIDsDictionary: [String: String] {
        var d: [String: String] = [:]
        d["openLibraryID"] = openLibraryID; d["isbndbID"] = isbndbID
        d["googleBooksID"] = googleBooksID; d["goodreadsID"] = goodreadsID
        return d
    }
}

/// One person's part in one work. Several roles at once are normal (seed 003): written and illustrated by.
public struct Credit: Sendable, Equatable, Hashable, Codable {
    public var author: Author
    public var roles: Set<ContributorRole>
    public init(author: Author, roles: Set<ContributorRole> = [.author]) { self.author = author; self.roles = roles }
}
