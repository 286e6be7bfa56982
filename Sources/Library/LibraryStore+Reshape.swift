import BookModel
import Foundation
import GRDB
import LibraryCore

extension LibraryStore {
    /// The pending Work beside `id` on its shelf row (the next one to the right, or to the left), if any.
    public func pendingNeighbour(of id: Work.ID, toTheRight: Bool = true) async throws -> Work? {
        try await read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT photoId, spineRow, spinePosition FROM work WHERE id = ?", arguments: [id]),
                  let photo: Int64 = row["photoId"], let shelf: Int = row["spineRow"], let position: Int = row["spinePosition"] else { return nil }
            let sql = toTheRight
                ? "SELECT id FROM work WHERE photoId = ? AND spineRow = ? AND reviewStatus = 'needsReview' AND id != ? AND spinePosition >= ? ORDER BY spinePosition, id LIMIT 1"
                : "SELECT id FROM work WHERE photoId = ? AND spineRow = ? AND reviewStatus = 'needsReview' AND id != ? AND spinePosition <= ? ORDER BY spinePosition DESC, id DESC LIMIT 1"
            guard let other = try Int64.fetchOne(db, sql: sql, arguments: [photo, shelf, id, position]) else { return nil }
            return try WorkGraph.load(db, id: other)
        }
    }

    /// The pending Works of one photo (and shelf row, when given), left to right, row by row.
    public func pendingWorks(photoContentHash: String, row: Int? = nil) async throws -> [Work] {
        try await read { db in
            let records = try WorkRecord.fetchAll(db, sql: """
                SELECT * FROM work WHERE photoContentHash = ? AND reviewStatus = 'needsReview' AND (? IS NULL OR spineRow = ?)
                ORDER BY spineRow, spinePosition, id
                """, arguments: [photoContentHash, row, row])
            return try WorkGraph.loadAll(db, records)
        }
    }
}
