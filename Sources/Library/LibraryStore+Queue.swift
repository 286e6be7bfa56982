import BookModel
import Foundation
import GRDB
import LibraryCore

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

    public func pendingCount() async throws -> Int {
        try await read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM work WHERE reviewStatus = 'needsReview'")! }
    }

    /// The pending queue in filing order (photo by photo, shelf by shelf, left to right).
    public func pendingSummaries(limit: Int? = nil, offset: Int = 0) async throws -> [WorkSummary] {
        try await read { db in
            try Self.summaries(db, where: "w.reviewStatus = 'needsReview'", order: "w.id", limit: limit, offset: offset)
        }
    }

    /// Reviewed Works (verified or edited), by title.
    public func librarySummaries(limit: Int? = nil, offset: Int = 0) async throws -> [WorkSummary] {
        try await read { db in
            try Self.summaries(db, where: "w.reviewStatus != 'needsReview'", order: "w.normalizedTitle, w.id", limit: limit, offset: offset)
        }
    }

    public func work(id: Work.ID) async throws -> Work? {
        try await read { db in try WorkGraph.load(db, id: id) }
    }

    /// Full Works (with credits, editions and entry), for export.
    public func works(includePending: Bool = false) async throws -> [Work] {
        try await read { db in
            let records = try WorkRecord.fetchAll(db, sql: includePending
                ? "SELECT * FROM work ORDER BY id" : "SELECT * FROM work WHERE reviewStatus != 'needsReview' ORDER BY id")
            return try WorkGraph.loadAll(db, records)
        }
    }

    // MARK: Resume

    /// Remembers where a review session stands, so the next one starts there.
    public func saveCursor(_ workID: Work.ID?, session: String = "default", date: Date = Date()) async throws {
        try await run { db in
            try db.execute(sql: """
                INSERT INTO reviewCursor (session, workId, updatedAt) VALUES (?, ?, ?)
                ON CONFLICT(session) DO UPDATE SET workId = excluded.workId, updatedAt = excluded.updatedAt
                """, arguments: [session, workID, date])
        }
    }

    public func cursor(session: String = "default") async throws -> Work.ID? {
        try await read { db in try Int64.fetchOne(db, sql: "SELECT workId FROM reviewCursor WHERE session = ?", arguments: [session]) }
    }
}
