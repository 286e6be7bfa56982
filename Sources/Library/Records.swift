import BookModel
import Foundation
import GRDB
import LibraryCore

// Row types: the database's view of BookModel's values. They stay inside `Library`; callers only see
// `Work`, `Edition`, `Author` and `UserLibraryEntry`.

struct AuthorRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "author"
    var id: Int64?
    var name: String
    var normalizedName: String
    var nationality: String?
    var gender: String
    var culturalRegion: String?
    var birthYear: Int?
    var deathYear: Int?
    var openLibraryID: String?
    var isbndbID: String?
    var googleBooksID: String?
    var goodreadsID: String?
    var bookCount: Int
    var dateCreated: Date
    var lastModified: Date

    init(_ a: Author) {
        id = a.id; name = a.name.trimmingCharacters(in: .whitespacesAndNewlines)
        normalizedName = TextNormalization.normalize(a.name); nationality = a.nationality; gender = a.gender.rawValue
        culturalRegion = a.culturalRegion?.rawValue; birthYear = a.birthYear; deathYear = a.deathYear
        openLibraryID = a.openLibraryID; isbndbID = a.isbndbID; googleBooksID = a.googleBooksID
        goodreadsID = a.goodreadsID; bookCount = a.bookCount; dateCreated = a.dateCreated; lastModified = a.lastModified
    }

    var model: Author {
        Author(id: id, name: name, nationality: nationality, gender: AuthorGender(rawValue: gender) ?? .unknown,
               culturalRegion: culturalRegion.flatMap(CulturalRegion.init(rawValue:)), birthYear: birthYear,
               deathYear: deathYear, openLibraryID: openLibraryID, isbndbID: isbndbID, googleBooksID: googleBooksID,
               goodreadsID: goodreadsID, bookCount: bookCount, dateCreated: dateCreated, lastModified: lastModified)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

struct CreditRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "credit"
    var workId: Int64
    var authorId: Int64
    var role: String
    var position: Int
}

struct EditionRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "edition"
    var id: Int64?
    var workId: Int64?
    var isbn: String?
    var isbns: [String]
    var title: String?
    var publisher: String?
    var publicationDate: String?
    var pageCount: Int?
    var format: String
    var coverImageURL: String?
    var editionTitle: String?
    var description: String?
    var language: String?
    var primaryProvider: String?
    var contributors: [String]
    var openLibraryID: String?
    var openLibraryEditionID: String?
    var isbndbID: String?
    var googleBooksVolumeID: String?
    var goodreadsID: String?
    var amazonASINs: [String]
    var googleBooksVolumeIDs: [String]
    var librarythingIDs: [String]
    var lastISBNDBSync: Date?
    var isbndbQuality: Int
    var dateCreated: Date
    var lastModified: Date

    init(_ e: Edition, workId: Int64?) {
        id = e.id; self.workId = workId; isbn = e.isbn; isbns = e.isbns; title = e.title; publisher = e.publisher
        publicationDate = e.publicationDate; pageCount = e.pageCount; format = e.format.rawValue
        coverImageURL = e.coverImageURL; editionTitle = e.editionTitle; description = e.description
        language = e.language; primaryProvider = e.primaryProvider; contributors = e.contributors
        openLibraryID = e.openLibraryID; openLibraryEditionID = e.openLibraryEditionID; isbndbID = e.isbndbID
        googleBooksVolumeID = e.googleBooksVolumeID; goodreadsID = e.goodreadsID; amazonASINs = e.amazonASINs
        googleBooksVolumeIDs = e.googleBooksVolumeIDs; librarythingIDs = e.librarythingIDs
        lastISBNDBSync = e.lastISBNDBSync; isbndbQuality = e.isbndbQuality; dateCreated = e.dateCreated
        lastModified = e.lastModified
    }

    var model: Edition {
        Edition(id: id, isbn: isbn, isbns: isbns, title: title, publisher: publisher, publicationDate: publicationDate,
                pageCount: pageCount, format: EditionFormat(rawValue: format) ?? .paperback, coverImageURL: coverImageURL,
                editionTitle: editionTitle, description: description, language: language,
                primaryProvider: primaryProvider, contributors: contributors, openLibraryID: openLibraryID,
                openLibraryEditionID: openLibraryEditionID, isbndbID: isbndbID, googleBooksVolumeID: googleBooksVolumeID,
                goodreadsID: goodreadsID, amazonASINs: amazonASINs, googleBooksVolumeIDs: googleBooksVolumeIDs,
                librarythingIDs: librarythingIDs, lastISBNDBSync: lastISBNDBSync, isbndbQuality: isbndbQuality,
                dateCreated: dateCreated, lastModified: lastModified)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

struct EntryRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "libraryEntry"
    var id: Int64?
    var workId: Int64
    var editionId: Int64?
    var dateAdded: Date
    var readingStatus: String
    var currentPage: Int
    var readingProgress: Double
    var rating: Int?
    var personalRating: Double?
    var notes: String?
    var tags: [String]
    var dateStarted: Date?
    var dateCompleted: Date?
    var estimatedFinishDate: Date?
    var lastModified: Date

    init(_ e: UserLibraryEntry, workId: Int64) {
        id = e.id; self.workId = workId; editionId = e.editionID; dateAdded = e.dateAdded
        readingStatus = e.readingStatus.rawValue; currentPage = e.currentPage; readingProgress = e.readingProgress
        rating = e.rating; personalRating = e.personalRating; notes = e.notes; tags = e.tags
        dateStarted = e.dateStarted; dateCompleted = e.dateCompleted; estimatedFinishDate = e.estimatedFinishDate
        lastModified = e.lastModified
    }

    var model: UserLibraryEntry {
        UserLibraryEntry(id: id, editionID: editionId, readingStatus: ReadingStatus(rawValue: readingStatus) ?? .toRead,
                         dateAdded: dateAdded, currentPage: currentPage, readingProgress: readingProgress, rating: rating,
                         personalRating: personalRating, notes: notes, tags: tags, dateStarted: dateStarted,
                         dateCompleted: dateCompleted, estimatedFinishDate: estimatedFinishDate, lastModified: lastModified)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

struct WorkRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "work"
    var id: Int64?
    var title: String
    var normalizedTitle: String
    var originalLanguage: String?
    var firstPublicationYear: Int?
    var subjectTags: [String]
    var description: String?
    var openLibraryID: String?
    var openLibraryWorkID: String?
    var isbndbID: String?
    var googleBooksVolumeID: String?
    var goodreadsID: String?
    var goodreadsWorkIDs: [String]
    var amazonASINs: [String]
    var librarythingIDs: [String]
    var googleBooksVolumeIDs: [String]
    var synthetic: Bool
    var primaryProvider: String?
    var contributors: [String]
    var reviewStatus: String
    var originalImagePath: String?
    var boundingBoxX: Double?
    var boundingBoxY: Double?
    var boundingBoxWidth: Double?
    var boundingBoxHeight: Double?
    var dateCreated: Date
    var lastModified: Date
    var lastISBNDBSync: Date?
    var isbndbQuality: Int
    var revision: Int
    var photoId: Int64?
    var photoContentHash: String?
    var spineRow: Int?
    var spinePosition: Int?
    var spineLying: Bool?
    var polygon: [[Double]]?
    var detectionConfidence: Double?
    var readingConfidence: Double?
    var rawText: String?
    var reader: String?
    var model: String?
    var promptVersion: String?
    var readError: String?
    var callNumber: String?
    var catalogScore: Double?
    var cropFile: String?
    var enrichmentStatus: EnrichmentStatus?
    var spineTextRunsUp: Bool?

    init(_ w: Work, photoId: Int64?) {
        id = w.id; title = w.title.trimmingCharacters(in: .whitespacesAndNewlines)
        normalizedTitle = TextNormalization.normalize(w.title); originalLanguage = w.originalLanguage
        firstPublicationYear = w.firstPublicationYear; subjectTags = w.subjectTags; description = w.description
        openLibraryID = w.openLibraryID; openLibraryWorkID = w.openLibraryWorkID; isbndbID = w.isbndbID
        googleBooksVolumeID = w.googleBooksVolumeID; goodreadsID = w.goodreadsID; goodreadsWorkIDs = w.goodreadsWorkIDs
        amazonASINs = w.amazonASINs; librarythingIDs = w.librarythingIDs; googleBooksVolumeIDs = w.googleBooksVolumeIDs
        synthetic = w.synthetic; primaryProvider = w.primaryProvider; contributors = w.contributors
        reviewStatus = w.reviewStatus.rawValue; originalImagePath = w.originalImagePath
        boundingBoxX = w.boundingBox?.x; boundingBoxY = w.boundingBox?.y
        boundingBoxWidth = w.boundingBox?.width; boundingBoxHeight = w.boundingBox?.height
        dateCreated = w.dateCreated; lastModified = w.lastModified; lastISBNDBSync = w.lastISBNDBSync
        isbndbQuality = w.isbndbQuality; revision = w.revision; self.photoId = photoId
        let s = w.spine
        photoContentHash = s?.photoContentHash; spineRow = s?.row; spinePosition = s?.position; spineLying = s?.lying
        polygon = s?.polygon; detectionConfidence = s?.detectionConfidence; readingConfidence = s?.readingConfidence
        rawText = s?.rawText; reader = s?.reader; model = s?.model; promptVersion = s?.promptVersion
        readError = s?.readError; callNumber = s?.callNumber; catalogScore = s?.catalogScore; cropFile = s?.cropFile
        enrichmentStatus = s?.enrichmentStatus; spineTextRunsUp = s?.textRunsUp
    }

    /// The Work without its relationships (the store adds credits, editions and entry).
    var bareModel: Work {
        var w = Work(id: id, title: title, originalLanguage: originalLanguage, firstPublicationYear: firstPublicationYear,
                     subjectTags: subjectTags, description: description,
                     reviewStatus: ReviewStatus(rawValue: reviewStatus) ?? .needsReview, dateCreated: dateCreated)
        w.openLibraryID = openLibraryID; w.openLibraryWorkID = openLibraryWorkID; w.isbndbID = isbndbID
        w.googleBooksVolumeID = googleBooksVolumeID; w.goodreadsID = goodreadsID; w.goodreadsWorkIDs = goodreadsWorkIDs
        w.amazonASINs = amazonASINs; w.librarythingIDs = librarythingIDs; w.googleBooksVolumeIDs = googleBooksVolumeIDs
        w.synthetic = synthetic; w.primaryProvider = primaryProvider; w.contributors = contributors
        w.originalImagePath = originalImagePath
        if let x = boundingBoxX, let y = boundingBoxY, let bw = boundingBoxWidth, let bh = boundingBoxHeight {
            w.boundingBox = BoundingBox(x: x, y: y, width: bw, height: bh)
        }
        w.lastModified = lastModified; w.lastISBNDBSync = lastISBNDBSync; w.isbndbQuality = isbndbQuality
        w.revision = revision
        if let hash = photoContentHash {
            w.spine = SpineProvenance(photoContentHash: hash, row: spineRow ?? 0, position: spinePosition ?? 0,
                                      lying: spineLying ?? false, polygon: polygon ?? [],
                                      detectionConfidence: detectionConfidence ?? 0, readingConfidence: readingConfidence,
                                      rawText: rawText, reader: reader, model: model, promptVersion: promptVersion,
                                      readError: readError, callNumber: callNumber, catalogScore: catalogScore,
                                      cropFile: cropFile, enrichmentStatus: enrichmentStatus, textRunsUp: spineTextRunsUp)
        }
        return w
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

struct PhotoRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "photo"
    var id: Int64?
    var contentHash: String
    var originalImagePath: String
    var imageWidth: Int
    var imageHeight: Int
    var filedAt: Date
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

struct JournalRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "journal"
    var id: Int64?
    var session: String
    var kind: String
    var workId: Int64
    var summary: String
    var decidedAt: Date
    /// JSON of `[Work]`: every Work the decision touched, as it was before.
    var before: String
    /// JSON of `[String: Int]`: work ID → revision right after the decision (absent = deleted).
    var afterRevisions: String
    var undoneAt: Date?
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
