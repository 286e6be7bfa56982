import Foundation

extension BoundingBox {
    public var dto: BoundingBoxDTO { BoundingBoxDTO(x: x, y: y, width: width, height: height) }
    public init(_ dto: BoundingBoxDTO) { self.init(x: dto.x, y: dto.y, width: dto.width, height: dto.height) }
}

extension Work {
    public var dto: WorkDTO {
        WorkDTO(title: title, subjectTags: subjectTags, originalLanguage: originalLanguage,
                firstPublicationYear: firstPublicationYear, description: description, synthetic: synthetic ? true : nil,
                primaryProvider: primaryProvider, contributors: contributors.isEmpty ? nil : contributors,
                openLibraryID: openLibraryID, openLibraryWorkID: openLibraryWorkID, isbndbID: isbndbID,
                googleBooksVolumeID: googleBooksVolumeID, goodreadsID: goodreadsID, goodreadsWorkIDs: goodreadsWorkIDs,
                amazonASINs: amazonASINs, librarythingIDs: librarythingIDs, googleBooksVolumeIDs: googleBooksVolumeIDs,
                lastISBNDBSync: lastISBNDBSync.map(ISO8601.string(from:)), isbndbQuality: isbndbQuality,
                reviewStatus: reviewStatus, originalImagePath: originalImagePath, boundingBox: boundingBox?.dto)
    }

    /// A Work from a DTO; authors come separately in seed 004 (BookSearchResponse.authors).
    public init(_ dto: WorkDTO, authors: [Author] = [], date: Date = Date()) {
        self.init(title: dto.title, originalLanguage: dto.originalLanguage, firstPublicationYear: dto.firstPublicationYear,
                  subjectTags: dto.subjectTags, description: dto.description, reviewStatus: dto.reviewStatus, dateCreated: date)
        synthetic = dto.synthetic ?? false
        primaryProvider = dto.primaryProvider
        contributors = dto.contributors ?? []
        openLibraryID = dto.openLibraryID; openLibraryWorkID = dto.openLibraryWorkID; isbndbID = dto.isbndbID
        googleBooksVolumeID = dto.googleBooksVolumeID; goodreadsID = dto.goodreadsID
        goodreadsWorkIDs = dto.goodreadsWorkIDs; amazonASINs = dto.amazonASINs; librarythingIDs = dto.librarythingIDs
        googleBooksVolumeIDs = dto.googleBooksVolumeIDs
        lastISBNDBSync = dto.lastISBNDBSync.flatMap(ISO8601.date(from:))
        isbndbQuality = dto.isbndbQuality
        originalImagePath = dto.originalImagePath
        boundingBox = dto.boundingBox.map(BoundingBox.init)
        credits = authors.map { Credit(author: $0) }
    }
}

extension Edition {
    public var dto: EditionDTO {
        EditionDTO(isbn: isbn, isbns: isbns, title: title, publisher: publisher, publicationDate: publicationDate,
                   pageCount: pageCount, format: format, coverImageURL: coverImageURL, editionTitle: editionTitle,
                   description: description, language: language, primaryProvider: primaryProvider,
                   contributors: contributors.isEmpty ? nil : contributors, openLibraryID: openLibraryID,
                   openLibraryEditionID: openLibraryEditionID, isbndbID: isbndbID, googleBooksVolumeID: googleBooksVolumeID,
                   goodreadsID: goodreadsID, amazonASINs: amazonASINs, googleBooksVolumeIDs: googleBooksVolumeIDs,
                   librarythingIDs: librarythingIDs, lastISBNDBSync: lastISBNDBSync.map(ISO8601.string(from:)),
                   isbndbQuality: isbndbQuality)
    }

    public init(_ dto: EditionDTO, date: Date = Date()) {
        self.init(isbn: dto.isbn, isbns: dto.isbns, title: dto.title, publisher: dto.publisher,
                  publicationDate: dto.publicationDate, pageCount: dto.pageCount, format: dto.format,
                  coverImageURL: dto.coverImageURL, editionTitle: dto.editionTitle, description: dto.description,
                  language: dto.language, primaryProvider: dto.primaryProvider, contributors: dto.contributors ?? [],
                  openLibraryID: dto.openLibraryID, openLibraryEditionID: dto.openLibraryEditionID, isbndbID: dto.isbndbID,
                  googleBooksVolumeID: dto.googleBooksVolumeID, goodreadsID: dto.goodreadsID, amazonASINs: dto.amazonASINs,
                  googleBooksVolumeIDs: dto.googleBooksVolumeIDs, librarythingIDs: dto.librarythingIDs,
                  lastISBNDBSync: dto.lastISBNDBSync.flatMap(ISO8601.date(from:)), isbndbQuality: dto.isbndbQuality,
                  dateCreated: date)
    }
}

extension Author {
    public var dto: AuthorDTO {
        AuthorDTO(name: name, gender: gender, culturalRegion: culturalRegion, nationality: nationality,
                  birthYear: birthYear, deathYear: deathYear, openLibraryID: openLibraryID, isbndbID: isbndbID,
                  googleBooksID: googleBooksID, goodreadsID: goodreadsID, bookCount: bookCount)
    }

    public init(_ dto: AuthorDTO, date: Date = Date()) {
        self.init(name: dto.name, nationality: dto.nationality, gender: dto.gender, culturalRegion: dto.culturalRegion,
                  birthYear: dto.birthYear, deathYear: dto.deathYear, openLibraryID: dto.openLibraryID,
                  isbndbID: dto.isbndbID, googleBooksID: dto.googleBooksID, goodreadsID: dto.goodreadsID,
                  bookCount: dto.bookCount ?? 0, dateCreated: date)
    }
}

/// Seed 004's edge-case rules, as pure functions over DTOs.
public enum CanonicalRules {
    /// The year of "2004-05-01", "2004" or "May 2004"; nil when there is none.
    public static func extractYear(fromDate text: String?) -> Int? {
        guard let text else { return nil }
        var digits = ""
        for ch in text {
            if ch.isASCII, ch.isNumber { digits.append(ch); if digits.count == 4 { return Int(digits) } } else { digits = "" }
        }
        return nil
    }

    /// Rule 1, never an orphaned Edition: a synthetic Work made from the Edition's own data.
    public static func ensureWorkForEdition(_ edition: EditionDTO, provider: String) -> WorkDTO {
        WorkDTO(title: edition.title ?? "Unknown", subjectTags: [],
                firstPublicationYear: extractYear(fromDate: edition.publicationDate), synthetic: true,
                primaryProvider: provider, googleBooksVolumeIDs: edition.googleBooksVolumeIDs,
                isbndbQuality: edition.isbndbQuality, reviewStatus: .verified)
    }

    /// Rule 2's merge: the first Work wins field by field; ID arrays and contributors are unioned in order
    /// (librarythingIDs too, which the seed's sketch forgot); the better quality score is kept.
    public static func mergeWorks(_ a: WorkDTO, _ b: WorkDTO) -> WorkDTO {
        func union(_ x: [String], _ y: [String]) -> [String] { var out = x; appendUnique(y, to: &out); return out }
        var m = a
        m.title = a.title.isEmpty ? b.title : a.title
        m.firstPublicationYear = a.firstPublicationYear ?? b.firstPublicationYear
        m.originalLanguage = a.originalLanguage ?? b.originalLanguage
        m.description = a.description ?? b.description
        m.openLibraryID = a.openLibraryID ?? b.openLibraryID
        m.openLibraryWorkID = a.openLibraryWorkID ?? b.openLibraryWorkID
        m.isbndbID = a.isbndbID ?? b.isbndbID
        m.googleBooksVolumeID = a.googleBooksVolumeID ?? b.googleBooksVolumeID
        m.goodreadsID = a.goodreadsID ?? b.goodreadsID
        m.goodreadsWorkIDs = union(a.goodreadsWorkIDs, b.goodreadsWorkIDs)
        m.amazonASINs = union(a.amazonASINs, b.amazonASINs)
        m.googleBooksVolumeIDs = union(a.googleBooksVolumeIDs, b.googleBooksVolumeIDs)
        m.librarythingIDs = union(a.librarythingIDs, b.librarythingIDs)
        m.subjectTags = union(a.subjectTags, b.subjectTags)
        m.isbndbQuality = max(a.isbndbQuality, b.isbndbQuality)
        let contributors = union(a.contributors ?? [], b.contributors ?? [])
        m.contributors = contributors.isEmpty ? nil : contributors
        return m
    }

    /// Rule 2's test on DTOs: any shared external ID, else title+author similarity >= 0.90.
    public static func isSameWork(_ a: WorkDTO, authors aAuthors: [String], _ b: WorkDTO, authors bAuthors: [String]) -> Bool {
        DuplicateRule.match(Work(a, authors: aAuthors.map { Author(name: $0) }),
                            Work(b, authors: bAuthors.map { Author(name: $0) })) != nil
    }
}

extension Work {
    /// Folds `other` into this Work (the kept one): IDs, missing metadata, credits, editions (seed 004 rule 2).
    /// The library entry stays ours; if we have none we take theirs.
    public mutating func absorb(_ other: Work, at date: Date = Date()) {
        mergeExternalIDs(from: other, at: date)
        if firstPublicationYear == nil { firstPublicationYear = other.firstPublicationYear }
        if originalLanguage == nil { originalLanguage = other.originalLanguage }
        if description == nil { description = other.description }
        appendUnique(other.subjectTags, to: &subjectTags)
        appendUnique(other.contributors, to: &contributors)
        for c in other.credits { for r in c.roles.sorted() { addAuthor(c.author, role: r, at: date) } }
        for e in other.editions {
            if let i = editions.firstIndex(where: { mine in e.isbns.contains { mine.hasISBN($0) } }) {
                editions[i].mergeExternalIDs(from: e, at: date)
            } else {
                editions.append(e)
            }
        }
        if libraryEntry == nil { libraryEntry = other.libraryEntry }
        touch(at: date)
    }
}
