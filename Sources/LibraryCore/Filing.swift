import BookModel
import Foundation

/// One photo's worth of spines, as the pipeline hands it to `LibraryStore.file(_:replacePending:)`.
public struct PhotoFiling: Sendable {
    /// SHA-256 of the photo's bytes, lowercase hex: the photo's identity, so re-scans are idempotent.
    public var contentHash: String
    public var originalImagePath: String
    public var imageWidth: Int
    public var imageHeight: Int
    public var spines: [SpineFiling]

    public init(contentHash: String, originalImagePath: String, imageWidth: Int, imageHeight: Int, spines: [SpineFiling]) {
        self.contentHash = contentHash; self.originalImagePath = originalImagePath
        self.imageWidth = imageWidth; self.imageHeight = imageHeight; self.spines = spines
    }
}

/// One spine: where it is (normalized to the upright photo, origin top-left), what was read, and its crop.
public struct SpineFiling: Sendable {
    /// nil or blank when nothing could be read; the Work is filed anyway, titled `Work.unreadTitle`.
    public var title: String?
    public var authors: [String]
    public var boundingBox: BoundingBox
    /// [[x, y]] x 4, normalized, top-left first, clockwise.
    public var polygon: [[Double]]
    public var row: Int
    public var position: Int
    public var lying: Bool
    public var detectionConfidence: Double
    public var readingConfidence: Double?
    public var rawText: String?
    public var reader: String?
    public var model: String?
    public var promptVersion: String?
    public var readError: String?
    public var isbn: String?
    public var callNumber: String?
    public var catalogScore: Double?
    /// The upright spine crop, JPEG-encoded; stored as a file beside the library.
    public var cropJPEG: [UInt8]
    /// A provider's book accepted for this spine (`--enrich`): folded into the filed Work, which still
    /// waits for review.
    public var enrichment: EnrichmentRecord?
    /// Why the spine was or was not enriched; nil when enrichment was not asked for.
    public var enrichmentStatus: EnrichmentStatus?
    /// The title runs bottom to top up the standing spine, as the reader found; nil when it did not say.
    public var textRunsUp: Bool?

    public init(title: String?, authors: [String] = [], boundingBox: BoundingBox, polygon: [[Double]] = [], row: Int,
                position: Int, lying: Bool = false, detectionConfidence: Double, readingConfidence: Double? = nil,
                rawText: String? = nil, reader: String? = nil, model: String? = nil, promptVersion: String? = nil,
                readError: String? = nil, isbn: String? = nil, callNumber: String? = nil, catalogScore: Double? = nil,
                cropJPEG: [UInt8] = [], enrichment: EnrichmentRecord? = nil, enrichmentStatus: EnrichmentStatus? = nil,
                textRunsUp: Bool? = nil) {
        self.title = title; self.authors = authors; self.boundingBox = boundingBox; self.polygon = polygon
        self.row = row; self.position = position; self.lying = lying; self.detectionConfidence = detectionConfidence
        self.readingConfidence = readingConfidence; self.rawText = rawText; self.reader = reader; self.model = model
        self.promptVersion = promptVersion; self.readError = readError; self.isbn = isbn; self.callNumber = callNumber
        self.catalogScore = catalogScore; self.cropJPEG = cropJPEG; self.enrichment = enrichment
        self.enrichmentStatus = enrichmentStatus; self.textRunsUp = textRunsUp
    }
}

/// What the library already knows about a photo.
public struct FiledPhotoStatus: Sendable, Equatable {
    public var photoID: Int64
    public var contentHash: String
    public var originalImagePath: String
    public var filedAt: Date
    /// Works from this photo still in the library, and how many of those wait for review.
    public var workCount: Int
    public var pendingCount: Int

    public init(photoID: Int64, contentHash: String, originalImagePath: String, filedAt: Date, workCount: Int, pendingCount: Int) {
        self.photoID = photoID; self.contentHash = contentHash; self.originalImagePath = originalImagePath
        self.filedAt = filedAt; self.workCount = workCount; self.pendingCount = pendingCount
    }
}

extension Work {
    /// The Work a scan files for one spine: the filing rule's, so a photo files the same on each engine.
    static func filed(_ spine: SpineFiling, photo: PhotoFiling, crop: String?, date: Date) -> Work {
        let title = spine.title?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        var w = Work(title: title.isEmpty ? Work.unreadTitle : String(title.prefix(Rules.titleMaxLength)),
                     reviewStatus: .needsReview, dateCreated: date)
        w.setAuthorNames(spine.authors.map { String($0.prefix(Rules.authorNameMaxLength)) }
            .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }, at: date)
        w.originalImagePath = photo.originalImagePath
        w.boundingBox = spine.boundingBox
        w.primaryProvider = spine.reader
        w.spine = SpineProvenance(photoContentHash: photo.contentHash, row: spine.row, position: spine.position,
                                  lying: spine.lying, polygon: spine.polygon, detectionConfidence: spine.detectionConfidence,
                                  readingConfidence: spine.readingConfidence, rawText: spine.rawText, reader: spine.reader,
                                  model: spine.model, promptVersion: spine.promptVersion, readError: spine.readError,
                                  callNumber: spine.callNumber, catalogScore: spine.catalogScore, cropFile: crop,
                                  enrichmentStatus: spine.enrichmentStatus, textRunsUp: spine.textRunsUp)
        if let isbn = spine.isbn.flatMap(ISBN.valid) {
            w.editions = [Edition(isbn: isbn, dateCreated: date)]
        }
        if let enrichment = spine.enrichment { w.applyEnrichment(enrichment, at: date) }
        w.lastModified = date
        return w
    }
}
