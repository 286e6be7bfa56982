import BookModel
import Foundation
import GRDB

extension LibraryStore {
    /// nil when this photo (by content hash) was never filed.
    public func photoStatus(contentHash: String) throws -> FiledPhotoStatus? {
        try read { db in
            guard let p = try PhotoRecord.filter(Column("contentHash") == contentHash).fetchOne(db), let id = p.id else { return nil }
            let counts = try Row.fetchOne(db, sql: """
                SELECT COUNT(*) AS total, COALESCE(SUM(reviewStatus = 'needsReview'), 0) AS pending FROM work WHERE photoId = ?
                """, arguments: [id])!
            return FiledPhotoStatus(photoID: id, contentHash: p.contentHash, originalImagePath: p.originalImagePath,
                                    filedAt: p.filedAt, workCount: counts["total"], pendingCount: counts["pending"])
        }
    }

    /// Files one photo: the photo row and one pending Work per spine, in a single transaction.
    ///
    /// Crops are written first (each to a temporary name, then renamed, so no half-written JPEG is ever
    /// visible); if the transaction fails they are removed again, so a failure leaves nothing behind.
    /// Filing a photo already filed changes nothing and returns `[]`, unless `replacePending` is true (a
    /// rescan): then its still-pending Works are replaced, and verified or edited ones are kept untouched.
    /// - Returns: the new Works' IDs, in spine order.
    @discardableResult
    public func file(_ photo: PhotoFiling, replacePending: Bool = false, date: Date = Date()) throws -> [Work.ID] {
        if !replacePending, try photoStatus(contentHash: photo.contentHash) != nil { return [] }
        var written: [URL] = []
        var cropNames: [String?] = []
        do {
            for spine in photo.spines {
                guard !spine.cropJPEG.isEmpty else { cropNames.append(nil); continue }
                let name = "\(photo.contentHash.prefix(16))-r\(spine.row)-p\(spine.position)-\(UUID().uuidString.prefix(8).lowercased()).jpg"
                let url = cropsDirectory.appendingPathComponent(name)
                try writeAtomically(spine.cropJPEG, to: url)
                written.append(url)
                cropNames.append(name)
            }
            var replacedCrops: [String] = []
            var keptBoxes: [BoundingBox] = []
            let ids: [Work.ID] = try run { db in
                var photoRecord: PhotoRecord
                if let existing = try PhotoRecord.filter(Column("contentHash") == photo.contentHash).fetchOne(db) {
                    guard replacePending else { return [] }
                    photoRecord = existing
                    photoRecord.originalImagePath = photo.originalImagePath
                    try photoRecord.update(db)
                    replacedCrops = try String.fetchAll(db, sql: """
                        SELECT cropFile FROM work WHERE photoId = ? AND reviewStatus = 'needsReview' AND cropFile IS NOT NULL
                        """, arguments: [existing.id])
                    let pending = try Int64.fetchAll(db, sql: "SELECT id FROM work WHERE photoId = ? AND reviewStatus = 'needsReview'",
                                                     arguments: [existing.id])
                    for id in pending { try WorkGraph.delete(db, id: id) }
                    keptBoxes = try Row.fetchAll(db, sql: """
                        SELECT boundingBoxX, boundingBoxY, boundingBoxWidth, boundingBoxHeight FROM work
                        WHERE photoId = ? AND boundingBoxX IS NOT NULL
                        """, arguments: [existing.id]).map {
                            BoundingBox(x: $0["boundingBoxX"], y: $0["boundingBoxY"], width: $0["boundingBoxWidth"], height: $0["boundingBoxHeight"])
                        }
                } else {
                    photoRecord = PhotoRecord(contentHash: photo.contentHash, originalImagePath: photo.originalImagePath,
                                              imageWidth: photo.imageWidth, imageHeight: photo.imageHeight, filedAt: date)
                    try photoRecord.insert(db)
                }
                var ids: [Work.ID] = []
                // A spine a reviewer already verified or edited stays as it is; the rescan does not file it
                // again as a new pending Work beside it.
                for (spine, crop) in zip(photo.spines, cropNames) {
                    if keptBoxes.contains(where: { $0.iou(spine.boundingBox) >= 0.5 }) {
                        if let crop { replacedCrops.append(crop) }
                        continue
                    }
                    let saved = try WorkGraph.save(db, WorkRows.filedWork(spine, photo: photo, crop: crop, date: date),
                                                   photoId: photoRecord.id, bump: false)
                    ids.append(saved.id!)
                }
                return ids
            }
            for name in replacedCrops { try? FileManager.default.removeItem(at: cropsDirectory.appendingPathComponent(name)) }
            return ids
        } catch {
            for url in written { try? FileManager.default.removeItem(at: url) }
            throw error
        }
    }

    private func writeAtomically(_ bytes: [UInt8], to url: URL) throws {
        let tmp = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp")
        do {
            try Data(bytes).write(to: tmp)
            if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
            try FileManager.default.moveItem(at: tmp, to: url)
        } catch {
            try? FileManager.default.removeItem(at: tmp)
            throw LibraryError.cropNotWritten(path: url.path, reason: (error as NSError).localizedDescription)
        }
    }
}
