/// Seed 004's canonical contracts, field for field. Optional TypeScript fields (`x?: T`) are Swift optionals,
/// which `Codable` omits when nil, so the JSON has exactly the seed's shape.
public struct BoundingBoxDTO: Sendable, Equatable, Codable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public init(x: Double, y: Double, width: Double, height: Double) { self.x = x; self.y = y; self.width = width; self.height = height }
}

public struct WorkDTO: Sendable, Equatable, Codable {
    public var title: String
    public var subjectTags: [String]
    public var originalLanguage: String?
    public var firstPublicationYear: Int?
    public var description: String?
    public var synthetic: Bool?
    public var primaryProvider: String?
    public var contributors: [String]?
    public var openLibraryID: String?
    public var openLibraryWorkID: String?
    public var isbndbID: String?
    public var googleBooksVolumeID: String?
    public var goodreadsID: String?
    public var goodreadsWorkIDs: [String]
    public var amazonASINs: [String]
    public var librarythingIDs: [String]
    public var googleBooksVolumeIDs: [String]
    /// ISO 8601.
    public var lastISBNDBSync: String?
    public var isbndbQuality: Int
    public var reviewStatus: ReviewStatus
    public var originalImagePath: String?
    public var boundingBox: BoundingBoxDTO?

    public init(title: String, subjectTags: [String] = [], originalLanguage: String? = nil, firstPublicationYear: Int? = nil,
                description: String? = nil, synthetic: Bool? = nil, primaryProvider: String? = nil,
                contributors: [String]? = nil, openLibraryID: String? = nil, openLibraryWorkID: String? = nil,
                isbndbID: String? = nil, googleBooksVolumeID: String? = nil, goodreadsID: String? = nil,
                goodreadsWorkIDs: [String] = [], amazonASINs: [String] = [], librarythingIDs: [String] = [],
                googleBooksVolumeIDs: [String] = [], lastISBNDBSync: String? = nil, isbndbQuality: Int = 0,
                reviewStatus: ReviewStatus = .verified, originalImagePath: String? = nil, boundingBox: BoundingBoxDTO? = nil) {
        self.title = title; self.subjectTags = subjectTags; self.originalLanguage = originalLanguage
        self.firstPublicationYear = firstPublicationYear; self.description = description; self.synthetic = synthetic
        self.primaryProvider = primaryProvider; self.contributors = contributors; self.openLibraryID = openLibraryID
        self.openLibraryWorkID = openLibraryWorkID; self.isbndbID = isbndbID; self.googleBooksVolumeID = googleBooksVolumeID
        self.goodreadsID = goodreadsID; self.goodreadsWorkIDs = goodreadsWorkIDs; self.amazonASINs = amazonASINs
        self.librarythingIDs = librarythingIDs; self.googleBooksVolumeIDs = googleBooksVolumeIDs
        self.lastISBNDBSync = lastISBNDBSync; self.isbndbQuality = isbndbQuality; self.reviewStatus = reviewStatus
        self.originalImagePath = originalImagePath; self.boundingBox = boundingBox
    }
}

public struct EditionDTO: Sendable, Equatable, Codable {
    public var isbn: String?
    public var isbns: [String]
    public var title: String?
    public var publisher: String?
    /// YYYY-MM-DD or YYYY.
    public var publicationDate: String?
    public var pageCount: Int?
    public var format: EditionFormat
    public var coverImageURL: String?
    public var editionTitle: String?
    public var description: String?
    public var language: String?
    public var primaryProvider: String?
    public var contributors: [String]?
    public var openLibraryID: String?
    public var openLibraryEditionID: String?
    public var isbndbID: String?
    public var googleBooksVolumeID: String?
    public var goodreadsID: String?
    public var amazonASINs: [String]
    public var googleBooksVolumeIDs: [String]
    public var librarythingIDs: [String]
    public var lastISBNDBSync: String?
    public var isbndbQuality: Int

    public init(isbn: String? = nil, isbns: [String] = [], title: String? = nil, publisher: String? = nil,
                publicationDate: String? = nil, pageCount: Int? = nil, format: EditionFormat = .paperback,
                coverImageURL: String? = nil, editionTitle: String? = nil, description: String? = nil, language: String? = nil,
                primaryProvider: String? = nil, contributors: [String]? = nil, openLibraryID: String? = nil,
                openLibraryEditionID: String? = nil, isbndbID: String? = nil, googleBooksVolumeID: String? = nil,
                goodreadsID: String? = nil, amazonASINs: [String] = [], googleBooksVolumeIDs: [String] = [],
                librarythingIDs: [String] = [], lastISBNDBSync: String? = nil, isbndbQuality: Int = 0) {
        self.isbn = isbn; self.isbns = isbns; self.title = title; self.publisher = publisher
        self.publicationDate = publicationDate; self.pageCount = pageCount; self.format = format
        self.coverImageURL = coverImageURL; self.editionTitle = editionTitle; self.description = description
        self.language = language; self.primaryProvider = primaryProvider; self.contributors = contributors
        self.openLibraryID = openLibraryID; self.openLibraryEditionID = openLibraryEditionID; self.isbndbID = isbndbID
        self.googleBooksVolumeID = googleBooksVolumeID; self.goodreadsID = goodreadsID; self.amazonASINs = amazonASINs
        self.googleBooksVolumeIDs = googleBooksVolumeIDs; self.librarythingIDs = librarythingIDs
        self.lastISBNDBSync = lastISBNDBSync; self.isbndbQuality = isbndbQuality
    }
}

public struct AuthorDTO: Sendable, Equatable, Codable {
    public var name: String
    public var gender: AuthorGender
    public var culturalRegion: CulturalRegion?
    public var nationality: String?
    public var birthYear: Int?
    public var deathYear: Int?
    public var openLibraryID: String?
    public var isbndbID: String?
    public var googleBooksID: String?
    public var goodreadsID: String?
    public var bookCount: Int?

    public init(name: String, gender: AuthorGender = .unknown, culturalRegion: CulturalRegion? = nil,
                nationality: String? = nil, birthYear: Int? = nil, deathYear: Int? = nil, openLibraryID: String? = nil,
                isbndbID: String? = nil, googleBooksID: String? = nil, goodreadsID: String? = nil, bookCount: Int? = nil) {
        self.name = name; self.gender = gender; self.culturalRegion = culturalRegion; self.nationality = nationality
        self.birthYear = birthYear; self.deathYear = deathYear; self.openLibraryID = openLibraryID
        self.isbndbID = isbndbID; self.googleBooksID = googleBooksID; self.goodreadsID = goodreadsID; self.bookCount = bookCount
    }
}

// MARK: Domain responses

public struct BookSearchResponse: Sendable, Equatable, Codable {
    public var works: [WorkDTO]
    public var authors: [AuthorDTO]
    public var totalResults: Int?
    public init(works: [WorkDTO], authors: [AuthorDTO], totalResults: Int? = nil) {
        self.works = works; self.authors = authors; self.totalResults = totalResults
    }
}

public struct EnrichmentJobResponse: Sendable, Equatable, Codable {
    public var jobId: String
    public var queuedCount: Int
    public var estimatedDuration: Int?
    public var websocketUrl: String
    public init(jobId: String, queuedCount: Int, estimatedDuration: Int? = nil, websocketUrl: String) {
        self.jobId = jobId; self.queuedCount = queuedCount; self.estimatedDuration = estimatedDuration; self.websocketUrl = websocketUrl
    }
}

/// One spine found on a photo: seed 004's `{work, edition, confidence}` plus `polygon`, the tilted quad
/// normalized to the upright photo ([[x, y]] x 4, top-left first, clockwise), which `boundingBox` alone loses.
public struct DetectedBook: Sendable, Equatable, Codable {
    public var work: WorkDTO
    public var edition: EditionDTO
    /// 0.0-1.0.
    public var confidence: Double
    public var polygon: [[Double]]?
    /// The reading's authors beside `work`, as seed 004's search responses carry them (WorkDTO has none).
    public var authors: [AuthorDTO]?
    /// Why the spine has no title (`work.title` is then empty): a script can tell an unread spine from a
    /// book by this field, never by a display string. Omitted when the spine was read.
    public var unreadReason: String?
    /// With `--enrich`: whether a provider's book was applied to `work`/`edition`/`authors`, or why not.
    public var enrichmentStatus: EnrichmentStatus?
    public init(work: WorkDTO, edition: EditionDTO, confidence: Double, polygon: [[Double]]? = nil, authors: [AuthorDTO]? = nil,
                unreadReason: String? = nil, enrichmentStatus: EnrichmentStatus? = nil) {
        self.work = work; self.edition = edition; self.confidence = confidence; self.polygon = polygon; self.authors = authors
        self.unreadReason = unreadReason; self.enrichmentStatus = enrichmentStatus
    }
}

/// `websocketUrl` is required in seed 004's TypeScript, but a command-line scan has no progress socket: it is
/// optional here, omitted when nil, and decoded when a server sends it.
public struct BookshelfScanResponse: Sendable, Equatable, Codable {
    public var jobId: String
    public var detectedBooks: [DetectedBook]
    public var websocketUrl: String?
    public init(jobId: String, detectedBooks: [DetectedBook], websocketUrl: String? = nil) {
        self.jobId = jobId; self.detectedBooks = detectedBooks; self.websocketUrl = websocketUrl
    }
}
