import Foundation

/// Raw values are seed 004's TypeScript strings, so the JSON we write is readable by its clients unchanged.
public enum EditionFormat: String, Sendable, Codable, CaseIterable {
    case hardcover = "Hardcover"
    case paperback = "Paperback"
    case ebook = "E-book"
    case audiobook = "Audiobook"
    case massMarket = "Mass Market"

    public var displayName: String { rawValue }
    public var shortName: String {
        switch self {
        case .hardcover: "HC"
        case .paperback: "PB"
        case .ebook: "eBook"
        case .audiobook: "Audio"
        case .massMarket: "MM"
        }
    }
}

public enum AuthorGender: String, Sendable, Codable, CaseIterable {
    case female = "Female"
    case male = "Male"
    case nonBinary = "Non-binary"
    case other = "Other"
    case unknown = "Unknown"

    public var displayName: String { rawValue }
}

public enum CulturalRegion: String, Sendable, Codable, CaseIterable {
    case africa = "Africa"
    case asia = "Asia"
    case europe = "Europe"
    case northAmerica = "North America"
    case southAmerica = "South America"
    case oceania = "Oceania"
    case middleEast = "Middle East"
    case caribbean = "Caribbean"
    case centralAsia = "Central Asia"
    case indigenous = "Indigenous"
    case international = "International"

    public var displayName: String { rawValue }

    /// Regions seed 002 counts as under-represented in publishing (everything but Europe, North America and
    /// "International", which says nothing about the author).
    public var isUnderrepresented: Bool {
        switch self {
        case .europe, .northAmerica, .international: false
        default: true
        }
    }
}

/// Where a Work stands in the human-in-the-loop queue. Raw values are seed 004's strings.
public enum ReviewStatus: String, Sendable, Codable, CaseIterable {
    case verified
    case needsReview
    case userEdited

    public var isPending: Bool { self == .needsReview }
}

/// Seed 002's reading states. Raw values are the case names (stable in the database and JSON); the seed-001
/// labels are `displayName`.
public enum ReadingStatus: String, Sendable, Codable, CaseIterable {
    case wishlist
    case toRead
    case reading
    case read
    case onHold
    case dnf

    public var displayName: String {
        switch self {
        case .wishlist: "Wishlist"
        case .toRead: "TBR - To Be Read"
        case .reading: "Reading"
        case .read: "Read"
        case .onHold: "On Hold"
        case .dnf: "DNF - Did Not Finish"
        }
    }
}

/// Seed 003: a person may hold several roles on one work (author and illustrator, say).
public enum ContributorRole: String, Sendable, Codable, CaseIterable, Comparable {
    case author
    case translator
    case illustrator
    case editor

    public static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
