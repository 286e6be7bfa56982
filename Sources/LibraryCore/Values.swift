import BookModel
import Foundation

/// One line of a queue or library listing: enough to show, cheap to fetch by the ten thousand.
public struct WorkSummary: Sendable, Equatable, Codable {
    public var id: Work.ID
    public var title: String
    public var authors: [String]
    public var reviewStatus: ReviewStatus
    public var readingConfidence: Double?
    public var detectionConfidence: Double?
    public var photoContentHash: String?
    public var row: Int?
    public var position: Int?
    public var revision: Int

    public init(id: Work.ID, title: String, authors: [String], reviewStatus: ReviewStatus, readingConfidence: Double?,
                detectionConfidence: Double?, photoContentHash: String?, row: Int?, position: Int?, revision: Int) {
        self.id = id; self.title = title; self.authors = authors; self.reviewStatus = reviewStatus
        self.readingConfidence = readingConfidence; self.detectionConfidence = detectionConfidence
        self.photoContentHash = photoContentHash; self.row = row; self.position = position; self.revision = revision
    }
}

/// The Work under review and where it sits, for "12 of 140 pending · photo 3 of 12, shelf 2, spine 7".
public struct ReviewItem: Sendable, Equatable {
    public var work: Work
    public var cropURL: URL?
    /// 1-based place in the pending queue, and the queue's length.
    public var queuePosition: Int
    public var pendingCount: Int
    /// 1-based photo among the photos that still have pending spines, and how many those are.
    public var photoPosition: Int
    public var photoCount: Int

    public init(work: Work, cropURL: URL?, queuePosition: Int, pendingCount: Int, photoPosition: Int, photoCount: Int) {
        self.work = work; self.cropURL = cropURL; self.queuePosition = queuePosition; self.pendingCount = pendingCount
        self.photoPosition = photoPosition; self.photoCount = photoCount
    }
}

public struct LibraryStats: Sendable, Equatable, Codable {
    public var works: Int
    public var pending: Int
    public var verified: Int
    public var userEdited: Int
    public var authors: Int
    public var editions: Int
    public var photos: Int
    public var owned: Int
    public var wishlist: Int
    /// Library entries per reading status (raw values).
    public var byReadingStatus: [String: Int]
    public var decisions: Int

    public init(works: Int, pending: Int, verified: Int, userEdited: Int, authors: Int, editions: Int, photos: Int, owned: Int,
                wishlist: Int, byReadingStatus: [String: Int], decisions: Int) {
        self.works = works; self.pending = pending; self.verified = verified; self.userEdited = userEdited
        self.authors = authors; self.editions = editions; self.photos = photos; self.owned = owned
        self.wishlist = wishlist; self.byReadingStatus = byReadingStatus; self.decisions = decisions
    }
}

extension LibraryStats {
    /// Both engines count with the same SQL, so `library stats` means the same on SQLite and PostgreSQL.
    public static let byReadingStatusSQL = "SELECT readingStatus, COUNT(*) FROM libraryEntry GROUP BY readingStatus"

    /// `count` runs one `SELECT COUNT(*)` on the store's engine.
    public init(counting count: (String) throws -> Int, byReadingStatus: [String: Int]) rethrows {
        self.init(
            works: try count("SELECT COUNT(*) FROM work"),
            pending: try count("SELECT COUNT(*) FROM work WHERE reviewStatus = 'needsReview'"),
            verified: try count("SELECT COUNT(*) FROM work WHERE reviewStatus = 'verified'"),
            userEdited: try count("SELECT COUNT(*) FROM work WHERE reviewStatus = 'userEdited'"),
            authors: try count("SELECT COUNT(*) FROM author"),
            editions: try count("SELECT COUNT(*) FROM edition"),
            photos: try count("SELECT COUNT(*) FROM photo"),
            owned: try count("SELECT COUNT(*) FROM libraryEntry WHERE editionId IS NOT NULL"),
            wishlist: try count("SELECT COUNT(*) FROM libraryEntry WHERE editionId IS NULL AND readingStatus = 'wishlist'"),
            byReadingStatus: byReadingStatus,
            decisions: try count("SELECT COUNT(*) FROM journal WHERE undoneAt IS NULL"))
    }
}

public struct ImportReport: Sendable, Equatable, Codable {
    public struct RowProblem: Sendable, Equatable, Codable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
        public init(line: Int, message: String) { self.line = line; self.message = message }
    }
    public var format: ImportFormat
    /// New Works added to the library.
    public var imported: Int
    /// Rows that were a book already in the library (or earlier in the file): its IDs were merged in.
    public var merged: Int
    /// Rows skipped, with the line they start on and why.
    public var skipped: [RowProblem]
}

/// `library export --format json`: one entry per Work, seed-004 DTOs plus the reader's own entry.
public struct LibraryExport: Sendable, Codable, Equatable {
    public struct Entry: Sendable, Codable, Equatable {
        public var readingStatus: ReadingStatus
        public var owned: Bool
        public var dateAdded: String
        public var dateStarted: String?
        public var dateCompleted: String?
        public var currentPage: Int
        public var readingProgress: Double
        public var rating: Int?
        public var personalRating: Double?
        public var notes: String?
        public var tags: [String]
    }
    public struct Item: Sendable, Codable, Equatable {
        public var id: Int64
        public var work: WorkDTO
        public var authors: [AuthorDTO]
        /// People in other roles: name → roles ("translator", "illustrator", "editor").
        public var otherContributors: [String: [ContributorRole]]?
        public var editions: [EditionDTO]
        public var libraryEntry: Entry?
    }
    public var works: [Item]
}

/// A box as a reviewer redraws it: one piece of a split box, or the whole of two joined ones. The geometry
/// is normalized to the upright photo, origin top-left, like the detector's.
public struct SpinePiece: Sendable, Equatable {
    public var boundingBox: BoundingBox
    /// [[x, y]] x 4, top-left first, clockwise.
    public var polygon: [[Double]]
    /// The piece's upright crop, JPEG-encoded (cut by the caller, which has the pixels).
    public var cropJPEG: [UInt8]
    /// What is known of the book in this box; nil files it unread, for the reviewer to type.
    public var title: String?
    public var authors: [String]
    public var rawText: String?

    public init(boundingBox: BoundingBox, polygon: [[Double]], cropJPEG: [UInt8], title: String? = nil, authors: [String] = [],
                rawText: String? = nil) {
        self.boundingBox = boundingBox; self.polygon = polygon; self.cropJPEG = cropJPEG
        self.title = title; self.authors = authors; self.rawText = rawText
    }
}

extension SpinePiece {
    /// The pending Work a split or join files for one piece, by the reshape rule, on either engine. It keeps the
    /// photo, reader and shelf place of `first` (the leftmost Work replaced), `offset` places along the shelf from it.
    public static func work(_ piece: SpinePiece, replacing first: Work, offset: Int, cropFile: String, date: Date) -> Work {
        let title = piece.title?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        var w = Work(title: title.isEmpty ? Work.unreadTitle : String(title.prefix(Rules.titleMaxLength)),
                     reviewStatus: .needsReview, dateCreated: date)
        w.setAuthorNames(piece.authors.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }, at: date)
        w.originalImagePath = first.originalImagePath
        w.boundingBox = piece.boundingBox
        w.primaryProvider = first.primaryProvider
        if var spine = first.spine {
            spine.position += offset
            spine.polygon = piece.polygon
            spine.rawText = piece.rawText
            spine.readingConfidence = title.isEmpty ? nil : spine.readingConfidence
            spine.readError = nil
            spine.cropFile = cropFile
            w.spine = spine
        }
        w.lastModified = date
        return w
    }
}

/// How a split or a join moves the books after it along their shelf row: a box cut in two takes one place
/// more, two boxes joined one fewer, so every book keeps a place of its own, in order. Without it the right
/// piece of a split shared the next book's place, and joining that piece picked the book instead of the
/// other piece. The reshape rule moves the row by this, and undo moves it back.
public struct ShelfRowShift: Sendable, Equatable {
    public var photoContentHash: String
    public var row: Int
    /// The books at places after this one move.
    public var after: Int
    public var by: Int

    /// The move a reshape of `originals` (one shelf row's boxes) into `pieces` boxes makes; nil when none moves.
    public static func reshape(_ originals: [Work], pieces: Int) -> ShelfRowShift? {
        guard pieces > 0, pieces != originals.count, let spine = originals.first?.spine else { return nil }
        // After the last box replaced: a book between two joined boxes (decided, so not joined) keeps its place.
        let last = originals.compactMap { $0.spine?.position }.max() ?? spine.position
        return ShelfRowShift(photoContentHash: spine.photoContentHash, row: spine.row, after: last, by: pieces - originals.count)
    }

    /// The move taken back, once the pieces are gone: the books it moved now sit after `after + by`.
    public var undone: ShelfRowShift { ShelfRowShift(photoContentHash: photoContentHash, row: row, after: after + by, by: -by) }
}

public struct ReshapeReceipt: Sendable, Equatable, Codable {
    public var journalID: Int64
    public var replaced: [Work.ID]
    public var created: [Work.ID]
    public var summary: String

    public init(journalID: Int64, replaced: [Work.ID], created: [Work.ID], summary: String) {
        self.journalID = journalID; self.replaced = replaced; self.created = created; self.summary = summary
    }
}

/// JSON with sorted keys, as the journal keeps Works and revisions on both engines: the same value is the same text.
package func encodeJSON(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}
