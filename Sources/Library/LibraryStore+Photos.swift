import BookModel
import Foundation
import GRDB
import LibraryCore

extension LibraryStore {
    /// The Works filed from one photo (by content hash), in spine order: what a scan of that photo filed
    /// earlier, for a server answering a photo it has already seen.
    public func works(photoContentHash: String) async throws -> [Work] {
        try await read { db in
            let records = try WorkRecord.fetchAll(db, sql: """
                SELECT * FROM work WHERE photoContentHash = ? ORDER BY spineRow, spinePosition, id
                """, arguments: [photoContentHash])
            return try WorkGraph.loadAll(db, records)
        }
    }

    /// The review status of each Work that still exists; a rejected (deleted) Work is absent.
    public func reviewStatuses(ids: [Work.ID]) async throws -> [Work.ID: ReviewStatus] {
        guard !ids.isEmpty else { return [:] }
        return try await read { db in
            var statuses: [Work.ID: ReviewStatus] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT id, reviewStatus FROM work WHERE id IN (\(ids.map { String($0) }.joined(separator: ",")))")
            while let row = try rows.next() {
                statuses[row[0]] = ReviewStatus(rawValue: row[1]) ?? .needsReview
            }
            return statuses
        }
    }
}
