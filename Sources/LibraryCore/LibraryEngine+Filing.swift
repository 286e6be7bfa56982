import BookModel
import Foundation

/// Filing a scanned photo, on either engine.
extension LibraryEngine {
    /// Files one photo: the photo row and one pending Work per spine, with their crops, in a single transaction,
    /// so a photo is filed whole or not at all, and exactly once whatever several workers do (the photo row's
    /// unique content hash is the filing's identity).
    ///
    /// Filing a photo already filed changes nothing and returns `[]`, unless `replacePending` is true (a
    /// rescan): then its still-pending Works are replaced, and verified or edited ones are kept untouched.
    /// - Returns: the new Works' IDs, in spine order.
    @discardableResult
    public func file(_ photo: PhotoFiling, replacePending: Bool, date: Date) async throws -> [Work.ID] {
        // A folder scanned again is mostly photos filed already: a read says so without taking a write lock.
        if !replacePending, try await photoStatus(contentHash: photo.contentHash) != nil { return [] }
        return try await writingOnce { tx in
            var photoID = try tx.insertPhoto(photo, date: date)
            var keptBoxes: [BoundingBox] = []
            if photoID == nil {
                guard replacePending else { return [] }
                let id = try tx.refilePhoto(contentHash: photo.contentHash, originalImagePath: photo.originalImagePath)
                photoID = id
                let pending = try tx.pendingWorks(photoID: id)
                for work in pending { try tx.deleteWork(work.id) }
                try tx.removeCrops(pending)
                keptBoxes = try tx.boxes(photoID: id)
            }
            var ids: [Work.ID] = []
            // A spine a reviewer already verified or edited stays as it is; the rescan does not file it again
            // as a new pending Work beside it.
            for spine in photo.spines where !keptBoxes.contains(where: { $0.iou(spine.boundingBox) >= 0.5 }) {
                let crop: String? = spine.cropJPEG.isEmpty ? nil
                    : "\(photo.contentHash.prefix(16))-r\(spine.row)-p\(spine.position)-\(UUID().uuidString.prefix(8).lowercased()).jpg"
                let saved = try tx.saveWork(Work.filed(spine, photo: photo, crop: crop, date: date), photoID: photoID,
                                            bump: false, insertWithID: false, ownFirstEdition: false)
                if let crop { try tx.storeCrop(spine.cropJPEG, named: crop, workID: saved.id!) }
                ids.append(saved.id!)
            }
            try tx.releasePhotoClaims(contentHash: photo.contentHash)
            return ids
        }
    }
}
