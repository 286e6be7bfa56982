import BookModel
import Foundation
import GRDB

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

extension LibraryStore {
    static let summarySQL = """
        SELECT w.id, w.title, w.reviewStatus, w.readingConfidence, w.detectionConfidence, w.photoContentHash,
               w.spineRow, w.spinePosition, w.revision
        FROM work w
        """

    /// Summaries plus their author names, fetched in one more query rather than one per row.
    static func summaries(_ db: Database, where clause: String, order: String, limit: Int?, offset: Int) throws -> [WorkSummary] {
        var list: [WorkSummary] = []
        let cursor = try Row.fetchCursor(db, sql: summarySQL + " WHERE \(clause) ORDER BY \(order) LIMIT ? OFFSET ?",
                                         arguments: [limit ?? -1, offset])
        while let row = try cursor.next() { list.append(summary(row)) }
        guard !list.isEmpty else { return list }
        let ids = list.map(\.id)
        let range = limit == nil && offset == 0 ? "" : "AND c.workId IN (\(ids.map { String($0) }.joined(separator: ",")))"
        var names: [Int64: [String]] = [:]
        let rows = try Row.fetchCursor(db, sql: """
            SELECT c.workId, a.name FROM credit c JOIN author a ON a.id = c.authorId
            WHERE c.role = 'author' \(range) ORDER BY c.workId, c.position
            """)
        while let row = try rows.next() { names[row[0], default: []].append(row[1]) }
        for i in list.indices { list[i].authors = names[list[i].id] ?? [] }
        return list
    }

    /// Columns by index: this runs ten thousand times per listing.
    static func summary(_ row: Row) -> WorkSummary {
        WorkSummary(id: row[0], title: row[1], authors: [],
                           reviewStatus: ReviewStatus(rawValue: row[2]) ?? .needsReview,
                           readingConfidence: row[3], detectionConfidence: row[4],
                           photoContentHash: row[5], row: row[6], position: row[7],
                           revision: row[8])
    }

    public func pendingCount() throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM work WHERE reviewStatus = 'needsReview'")! }
    }

    /// The pending queue in filing order (photo by photo, shelf by shelf, left to right).
    public func pendingSummaries(limit: Int? = nil, offset: Int = 0) throws -> [WorkSummary] {
        try read { db in
            try Self.summaries(db, where: "w.reviewStatus = 'needsReview'", order: "w.id", limit: limit, offset: offset)
        }
    }

    /// Reviewed Works (verified or edited), by title.
    public func librarySummaries(limit: Int? = nil, offset: Int = 0) throws -> [WorkSummary] {
        try read { db in
            try Self.summaries(db, where: "w.reviewStatus != 'needsReview'", order: "w.normalizedTitle, w.id", limit: limit, offset: offset)
        }
    }

    public func work(id: Work.ID) throws -> Work? {
        try read { db in try WorkGraph.load(db, id: id) }
    }

    /// Full Works (with credits, editions and entry), for export.
    public func works(includePending: Bool = false) throws -> [Work] {
        try read { db in
            let records = try WorkRecord.fetchAll(db, sql: includePending
                ? "SELECT * FROM work ORDER BY id" : "SELECT * FROM work WHERE reviewStatus != 'needsReview' ORDER BY id")
            return try WorkGraph.loadAll(db, records)
        }
    }

    /// The next pending Work after `after` in queue order, wrapping to the front (skipped ones come back).
    public func nextPending(after: Work.ID? = nil, wrap: Bool = true) throws -> ReviewItem? {
        try read { db in
            var id = try Int64.fetchOne(db, sql: "SELECT id FROM work WHERE reviewStatus = 'needsReview' AND id > ? ORDER BY id LIMIT 1",
                                        arguments: [after ?? 0])
            if id == nil && wrap {
                id = try Int64.fetchOne(db, sql: "SELECT id FROM work WHERE reviewStatus = 'needsReview' ORDER BY id LIMIT 1")
            }
            guard let id else { return nil }
            return try item(db, id: id)
        }
    }

    /// The pending Work before `before`, for stepping back through skipped ones.
    public func previousPending(before: Work.ID) throws -> ReviewItem? {
        try read { db in
            guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM work WHERE reviewStatus = 'needsReview' AND id < ? ORDER BY id DESC LIMIT 1",
                                              arguments: [before]) else { return nil }
            return try item(db, id: id)
        }
    }

    public func reviewItem(id: Work.ID) throws -> ReviewItem? {
        try read { db in try item(db, id: id) }
    }

    private func item(_ db: Database, id: Work.ID) throws -> ReviewItem? {
        guard let work = try WorkGraph.load(db, id: id) else { return nil }
        let pending = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM work WHERE reviewStatus = 'needsReview'")!
        let before = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM work WHERE reviewStatus = 'needsReview' AND id < ?", arguments: [id])!
        let photoId = try Int64.fetchOne(db, sql: "SELECT photoId FROM work WHERE id = ?", arguments: [id])
        let photos = try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT photoId) FROM work WHERE reviewStatus = 'needsReview'")!
        var photoPosition = 0
        if let photoId {
            photoPosition = 1 + (try Int.fetchOne(db, sql: """
                SELECT COUNT(DISTINCT photoId) FROM work WHERE reviewStatus = 'needsReview' AND id < ? AND photoId != ?
                """, arguments: [id, photoId])!)
        }
        let onQueue = work.reviewStatus == .needsReview
        return ReviewItem(work: work, cropURL: cropURL(for: work), queuePosition: onQueue ? before + 1 : 0,
                          pendingCount: pending, photoPosition: photoPosition, photoCount: photos)
    }

    // MARK: Resume

    /// Remembers where a review session stands, so the next one starts there.
    public func saveCursor(_ workID: Work.ID?, session: String = "default", date: Date = Date()) throws {
        try run { db in
            try db.execute(sql: """
                INSERT INTO reviewCursor (session, workId, updatedAt) VALUES (?, ?, ?)
                ON CONFLICT(session) DO UPDATE SET workId = excluded.workId, updatedAt = excluded.updatedAt
                """, arguments: [session, workID, date])
        }
    }

    public func cursor(session: String = "default") throws -> Work.ID? {
        try read { db in try Int64.fetchOne(db, sql: "SELECT workId FROM reviewCursor WHERE session = ?", arguments: [session]) }
    }

    /// Where a session should start: the remembered Work if still pending, else the next one after it.
    public func resumeItem(session: String = "default") throws -> ReviewItem? {
        guard let id = try cursor(session: session) else { return try nextPending() }
        if let item = try reviewItem(id: id), item.work.reviewStatus == .needsReview { return item }
        return try nextPending(after: id)
    }
}
