import BookModel
import Foundation
import GRDB
import LibraryCore

extension LibraryStore {
    /// nil when this photo (by content hash) was never filed.
    public func photoStatus(contentHash: String) async throws -> FiledPhotoStatus? {
        try await read { db in
            guard let p = try PhotoRecord.filter(Column("contentHash") == contentHash).fetchOne(db), let id = p.id else { return nil }
            let counts = try Row.fetchOne(db, sql: """
                SELECT COUNT(*) AS total, COALESCE(SUM(reviewStatus = 'needsReview'), 0) AS pending FROM work WHERE photoId = ?
                """, arguments: [id])!
            return FiledPhotoStatus(photoID: id, contentHash: p.contentHash, originalImagePath: p.originalImagePath,
                                    filedAt: p.filedAt, workCount: counts["total"], pendingCount: counts["pending"])
        }
    }
}
