import Foundation

/// The abstract book (seed 002): what a reader means by "Middlemarch", whatever the printing.
///
/// A value: relationships are held as values too. `credits` are the people (with roles, seed 003),
/// `editions` the printings, `libraryEntry` the reader's own record (at most one: seed 002's invariant is a
/// type here). `Library` maps this to rows and back; nothing here knows about SQL.
public struct Work: Sendable, Equatable, Codable {
    public typealias ID = Int64

    /// The title a spine gets when nothing could be read from it. Seeds 000-002 require a non-empty title,
    /// and seed 004's synthetic Works use a placeholder too ('Unknown'); a recognizable one keeps every row
    /// valid while `needsReview`, and `validationIssues(forVerification: true)` refuses to verify it.
    public static let unreadTitle = "Unread spine"

    public var id: ID?
    public var title: String
    public var originalLanguage: String?
    public var firstPublicationYear: Int?
    public var subjectTags: [String]
    public var description: String?

    public var openLibraryID: String?
    public var openLibraryWorkID: String?
    public var isbndbID: String?
    public var googleBooksVolumeID: String?
    public var goodreadsID: String?
    public var goodreadsWorkIDs: [String]
    public var amazonASINs: [String]
    public var librarythingIDs: [String]
    public var googleBooksVolumeIDs: [String]

    /// Seed 004 provenance: inferred from an Edition, which provider, who enriched it.
    public var synthetic: Bool
    public var primaryProvider: String?
    public var contributors: [String]

    public var reviewStatus: ReviewStatus
    public var originalImagePath: String?
    public var boundingBox: BoundingBox?
    public var spine: SpineProvenance?

    public var credits: [Credit]
    public var editions: [Edition]
    public var libraryEntry: UserLibraryEntry?

    public var dateCreated: Date
    public var lastModified: Date
    public var lastISBNDBSync: Date?
    public var isbndbQuality: Int
    /// Bumped by the store on every write. A decision names the revision it was made on, so two review
    /// sessions cannot silently overwrite each other (optimistic concurrency).
    public var revision: Int

    public init(id: ID? = nil, title: String, authors: [String] = [], originalLanguage: String? = nil,
                firstPublicationYear: Int? = nil, subjectTags: [String] = [], description: String? = nil,
                reviewStatus: ReviewStatus = .verified, dateCreated: Date = Date()) {
        self.id = id; self.title = title; self.originalLanguage = originalLanguage
        self.firstPublicationYear = firstPublicationYear; self.subjectTags = subjectTags; self.description = description
        goodreadsWorkIDs = []; amazonASINs = []; librarythingIDs = []; googleBooksVolumeIDs = []
        synthetic = false; contributors = []
        self.reviewStatus = reviewStatus
        credits = authors.map { Credit(author: Author(name: $0, dateCreated: dateCreated)) }
        editions = []
        self.dateCreated = dateCreated; lastModified = dateCreated; isbndbQuality = 0; revision = 0
    }

    public mutating func touch(at date: Date = Date()) { lastModified = date }

    // MARK: People

    /// People credited with the `.author` role, in credit order.
    public var authors: [Author] { credits.filter { $0.roles.contains(.author) }.map(\.author) }
    public var authorNames: String { authors.map(\.name).joined(separator: ", ") }
    public var primaryAuthor: Author? { authors.first }
    public var culturalRegion: CulturalRegion? { primaryAuthor?.culturalRegion }

    public func people(withRole role: ContributorRole) -> [Author] {
        credits.filter { $0.roles.contains(role) }.map(\.author)
    }

    /// Adds a role for a person, merging with an existing credit of the same (normalized) name.
    public mutating func addAuthor(_ author: Author, role: ContributorRole = .author, at date: Date = Date()) {
        let key = TextNormalization.normalize(author.name)
        if let i = credits.firstIndex(where: { TextNormalization.normalize($0.author.name) == key }) {
            guard !credits[i].roles.contains(role) else { return }
            credits[i].roles.insert(role)
        } else {
            credits.append(Credit(author: author, roles: [role]))
        }
        touch(at: date)
    }

    /// Removes one role (or, with nil, every role) of a person; the person is dropped when no role is left.
    public mutating func removeAuthor(named name: String, role: ContributorRole? = nil, at date: Date = Date()) {
        let key = TextNormalization.normalize(name)
        guard let i = credits.firstIndex(where: { TextNormalization.normalize($0.author.name) == key }) else { return }
        if let role { credits[i].roles.remove(role) } else { credits[i].roles.removeAll() }
        if credits[i].roles.isEmpty { credits.remove(at: i) }
        touch(at: date)
    }

    /// Replaces the `.author` credits by these names, keeping other roles and known people's details.
    public mutating func setAuthorNames(_ names: [String], at date: Date = Date()) {
        let old = credits
        credits = credits.compactMap { c in
            var c = c
            c.roles.remove(.author)
            return c.roles.isEmpty ? nil : c
        }
        for name in names {
            let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
            let known = old.first { TextNormalization.normalize($0.author.name) == TextNormalization.normalize(trimmed) }?.author
            addAuthor(known ?? Author(name: trimmed, dateCreated: date), role: .author, at: date)
        }
        touch(at: date)
    }

    // MARK: Library state

    public var isInLibrary: Bool { libraryEntry != nil }
    public var isOwned: Bool { libraryEntry?.isOwned ?? false }
    public var isOnWishlist: Bool { libraryEntry?.isWishlist ?? false }

    /// The spine could not be read: the title is still the placeholder.
    public var hasUnreadTitle: Bool { title == Work.unreadTitle }

    /// Every ISBN of every edition, primary ones first.
    public var isbns: [String] {
        var out: [String] = []
        for e in editions { appendUnique(e.isbns + [e.isbn].compactMap { $0 }, to: &out) }
        return out
    }

    // MARK: External IDs

    /// Seed 002: union the array IDs, fill the single legacy IDs we lack, take the better quality score.
    public mutating func mergeExternalIDs(from other: Work, at date: Date = Date()) {
        var changed = false
        changed = fillMissing(&openLibraryID, from: other.openLibraryID) || changed
        changed = fillMissing(&openLibraryWorkID, from: other.openLibraryWorkID) || changed
        changed = fillMissing(&isbndbID, from: other.isbndbID) || changed
        changed = fillMissing(&googleBooksVolumeID, from: other.googleBooksVolumeID) || changed
        changed = fillMissing(&goodreadsID, from: other.goodreadsID) || changed
        changed = appendUnique(other.goodreadsWorkIDs, to: &goodreadsWorkIDs) || changed
        changed = appendUnique(other.amazonASINs, to: &amazonASINs) || changed
        changed = appendUnique(other.librarythingIDs, to: &librarythingIDs) || changed
        changed = appendUnique(other.googleBooksVolumeIDs, to: &googleBooksVolumeIDs) || changed
        if other.isbndbQuality > isbndbQuality { isbndbQuality = other.isbndbQuality; changed = true }
        if changed { touch(at: date) }
    }

    public mutating func addGoodreadsWorkID(_ id: String, at date: Date = Date()) {
        if appendUnique([id], to: &goodreadsWorkIDs) { touch(at: date) }
    }
    public mutating func addAmazonASIN(_ id: String, at date: Date = Date()) {
        if appendUnique([id], to: &amazonASINs) { touch(at: date) }
    }
    public mutating func addLibraryThingID(_ id: String, at date: Date = Date()) {
        if appendUnique([id], to: &librarythingIDs) { touch(at: date) }
    }
    public mutating func addGoogleBooksVolumeID(_ id: String, at date: Date = Date()) {
        if appendUnique([id], to: &googleBooksVolumeIDs) { touch(at: date) }
    }

    /// Every external ID as "kind:value" strings; two Works sharing one are the same Work (seed 004 rule 2).
    public var externalIDKeys: Set<String> {
        var keys = Set<String>()
        for (k, v) in [("ol", openLibraryID), ("olw", openLibraryWorkID), ("isbndb", isbndbID),
                       ("gb", googleBooksVolumeID), ("gr", goodreadsID)] {
            if let v, !v.isEmpty { keys.insert("\(k):\(v)") }
        }
        for v in goodreadsWorkIDs { keys.insert("gr:\(v)") }
        for v in amazonASINs { keys.insert("asin:\(v)") }
        for v in librarythingIDs { keys.insert("lt:\(v)") }
        for v in googleBooksVolumeIDs { keys.insert("gb:\(v)") }
        return keys
    }

    public var externalIDsDictionary: [String: [String]] {
        var d: [String: [String]] = ["goodreadsWorkIDs": goodreadsWorkIDs, "amazonASINs": amazonASINs,
                                     "librarythingIDs": librarythingIDs, "googleBooksVolumeIDs": googleBooksVolumeIDs]
        d["openLibraryWorkID"] = openLibraryWorkID.map { [$0] }
        d["isbndbID"] = isbndbID.map { [$0] }
        return d
    }

    // MARK: Series

    /// Seed 001's `getSeriesInfo()`: the series named in the title, if any.
    public var seriesInfo: SeriesInfo? { SeriesInfo.parse(title: title) }

    // MARK: Validation

    /// Every broken rule. A pending Work only needs a well-formed title and well-formed names; a Work being
    /// verified also needs a real (read or typed) title and at least one author.
    public func validationIssues(forVerification: Bool = false) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        if let t = Rules.title(title) { issues.append(t) }
        if forVerification && hasUnreadTitle {
            issues.append(ValidationIssue(field: "title", message: "the spine was not read; type its title"))
        }
        let required = forVerification || reviewStatus != .needsReview
        if let a = Rules.authors(authors.map(\.name), required: required) { issues.append(a) }
        if let d = Rules.description(description) { issues.append(d) }
        if let g = Rules.genres(subjectTags) { issues.append(g) }
        for e in editions { issues += e.validationIssues() }
        if let entry = libraryEntry { issues += entry.validationIssues() }
        if let box = boundingBox, !box.isNormalized {
            issues.append(ValidationIssue(field: "boundingBox", message: "must lie within 0...1 of the photo"))
        }
        return issues
    }

    public func validate(forVerification: Bool = false) throws(ValidationError) {
        let issues = validationIssues(forVerification: forVerification)
        if !issues.isEmpty { throw ValidationError(issues) }
    }
}
