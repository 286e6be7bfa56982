import BookModel
import Foundation

/// Where a job is in its life. Raw values are BooksTrack's.
public enum JobStatus: String, Sendable, Codable, Equatable {
    case queued, processing, completed, failed, canceled

    public var isTerminal: Bool { self == .completed || self == .failed || self == .canceled }
}

/// Which door a job came in by: it decides nothing about scanning, only how progress is spoken.
public enum JobAPI: String, Sendable, Codable { case v3, v1 }

/// BooksTrack's structured error (`failed` events, `error` WebSocket messages, a failed job's status).
public struct JobError: Sendable, Codable, Equatable {
    public var code: String
    public var message: String
    public var retryable: Bool
}

/// One detected book as BooksTrack's clients read it, with ShelfScan's own fields beside theirs.
///
/// `boundingBox` is normalized 0...1 of the upright photo, origin top-left; `polygon` is the spine's
/// quad in the same space (top-left first, clockwise), for tilted spines. `title`/`author` are absent for an
/// unread spine: JSON carries data, and `work.title` keeps the placeholder seed 004 requires.
public struct ScanBook: Sendable, Codable, Equatable {
    public var title: String?
    public var author: String?
    public var isbn: String?
    public var confidence: Double
    public var boundingBox: BoundingBoxDTO
    /// BooksTrack's words: `pending` (no provider asked), `success`, `not_found`, `error`.
    public var enrichmentStatus: String
    public var polygon: [[Double]]?
    public var work: WorkDTO
    public var edition: EditionDTO
    public var authors: [AuthorDTO]?
    /// The library's Work for this spine (nil when nothing was filed), its live review status, and its crop.
    public var workId: Int64?
    public var reviewStatus: ReviewStatus
    public var cropUrl: String?
    /// Index of the photo in the job's upload order.
    public var photoIndex: Int
    /// Why an unread spine has no title (the pipeline's `unreadReason`); absent when it was read.
    public var unreadReason: String? = nil
    /// ShelfScan's own enrichment outcome behind `enrichmentStatus`, when a provider was asked.
    public var enrichment: EnrichmentStatus? = nil
    /// true once a reviewer rejected the spine (its Work is gone from the library); absent otherwise.
    public var rejected: Bool? = nil
}

/// What happened to one uploaded photo.
public struct PhotoResult: Sendable, Codable, Equatable {
    public enum Outcome: String, Sendable, Codable { case scanned, alreadyFiled, failed }
    public var outcome: Outcome
    public var reason: String?
    public var width: Int?
    public var height: Int?
    public var books: [ScanBook]
}

/// One uploaded photo of a job, as persisted beside the library.
public struct JobPhoto: Sendable, Codable, Equatable {
    /// File name inside the job's folder.
    public var file: String
    /// The name the client gave the part, if any (never used as a path).
    public var originalName: String?
    public var bytes: Int
    public var contentHash: String
    public var result: PhotoResult?
}

/// An accepted scan job: written to disk before the 202 goes out, rewritten after each photo, so a
/// restarted server finishes it (photos already filed are recognized by content hash, never filed twice).
public struct ScanJob: Sendable, Codable, Equatable {
    public var id: UUID
    public var api: JobAPI
    /// SHA-256 (hex) of the job's own token: the token is a capability for this job's routes and is never stored.
    public var tokenHash: String
    public var status: JobStatus
    public var createdAt: Date
    public var startedAt: Date?
    public var completedAt: Date?
    public var photos: [JobPhoto]
    public var error: JobError?
    /// How many times a server started this job (1 normally; more after restarts).
    public var attempts: Int

    public var processedCount: Int { photos.filter { $0.result != nil }.count }
    public var totalCount: Int { photos.count }
    public var progress: Double {
        guard totalCount > 0 else { return 0 }
        return (Double(processedCount) / Double(totalCount) * 1000).rounded() / 1000
    }
    public var books: [ScanBook] { photos.flatMap { $0.result?.books ?? [] } }
}

/// `GET /v3/jobs/scans/{jobId}`: BooksTrack's status object.
public struct JobStatusDTO: Sendable, Codable, Equatable {
    public var jobId: String
    public var status: JobStatus
    public var progress: Double
    public var processedCount: Int
    public var totalCount: Int
    public var startTime: String
    public var completedTime: String?
    public var error: JobError?
    public var pipeline: String

    public init(_ job: ScanJob) {
        jobId = job.id.uuidString.lowercased()
        status = job.status
        progress = job.progress
        processedCount = job.processedCount
        totalCount = job.totalCount
        startTime = ISO8601.string(from: job.startedAt ?? job.createdAt)
        completedTime = job.completedAt.map(ISO8601.string(from:))
        error = job.error
        pipeline = "ai_scan"
    }
}

/// `GET /v3/jobs/scans/{jobId}/results` and `GET /v1/scan/results/{jobId}`: BooksTrack's results object.
/// `approved` counts books a reviewer has accepted (verified or edited), `needsReview` those still pending.
public struct JobResultsDTO: Sendable, Codable, Equatable {
    public var jobId: String
    public var status: JobStatus
    public var totalDetected: Int
    public var approved: Int
    public var needsReview: Int
    public var photos: [PhotoSummary]
    public var books: [ScanBook]

    public struct PhotoSummary: Sendable, Codable, Equatable {
        public var index: Int
        public var contentHash: String
        public var outcome: PhotoResult.Outcome?
        public var reason: String?
        public var width: Int?
        public var height: Int?
        public var booksDetected: Int
    }

    init(_ job: ScanJob, books: [ScanBook]) {
        jobId = job.id.uuidString.lowercased()
        status = job.status
        self.books = books
        totalDetected = books.count
        approved = books.filter { $0.reviewStatus == .verified || $0.reviewStatus == .userEdited }.count
        needsReview = books.filter { $0.reviewStatus == .needsReview && $0.rejected != true }.count
        photos = job.photos.enumerated().map { index, photo in
            PhotoSummary(index: index, contentHash: photo.contentHash, outcome: photo.result?.outcome, reason: photo.result?.reason,
                         width: photo.result?.width, height: photo.result?.height, booksDetected: photo.result?.books.count ?? 0)
        }
    }
}
