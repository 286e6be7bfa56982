import BookModel
import Foundation
import GRDB
import LibraryCore

/// The library's rules (`LibraryEngine`, in `LibraryCore`) on SQLite: every store method that is a rule runs
/// there; this store gives it GRDB transactions and the steps below.
extension LibraryStore: LibraryStoring, LibraryEngine {
    public var locationDescription: String { path ?? ":memory:" }

    package func reading<T: Sendable>(_ body: @escaping @Sendable (SQLiteTransaction) throws -> T) async throws -> T {
        let cropsDirectory = cropsDirectory
        return try await read { db in try body(SQLiteTransaction(db: db, cropsDirectory: cropsDirectory, crops: CropFiles())) }
    }

    /// GRDB's write transaction, with the crops it wrote removed again if it fails and the ones it let go
    /// removed once it commits: files cannot roll back with the database, so they follow it.
    package func writing<T: Sendable>(replay: WriteReplay, _ body: @escaping @Sendable (SQLiteTransaction) throws -> T) async throws -> T {
        let crops = CropFiles()
        let cropsDirectory = cropsDirectory
        do {
            let result = try await run { db in try body(SQLiteTransaction(db: db, cropsDirectory: cropsDirectory, crops: crops)) }
            for url in crops.obsolete { try? FileManager.default.removeItem(at: url) }
            return result
        } catch {
            for url in crops.written { try? FileManager.default.removeItem(at: url) }
            throw error
        }
    }

    /// A commit on SQLite is never in doubt (no connection to lose), so nothing is ever sent twice.
    package func writingOnce<T: Codable & Sendable>(_ body: @escaping @Sendable (SQLiteTransaction) throws -> T) async throws -> T {
        try await writing(replay: .never, body)
    }

    /// The plain queue, nothing held: a single-file library has one reviewer at a time, and a second session's
    /// stale decision is still refused by the revision check. A read, so it never waits for a writer.
    package func claimPending(reviewer: String, lease: TimeInterval, after: Work.ID?) async throws -> Work.ID? {
        try await reading { tx in try tx.pendingID(after: after ?? 0) ?? tx.pendingID(after: 0) }
    }

    /// One SQLite file has one scanning process at a time in practice, and a second one is kept honest by the
    /// content-hash unique index: filing twice changes nothing. So every claim succeeds.
    public func claimPhoto(contentHash: String, worker: String, lease: TimeInterval) async throws -> Bool { true }
    public func releasePhoto(contentHash: String, worker: String) async throws {}
}

/// The crop files one transaction wrote, and the ones it let go.
/// @unchecked Sendable: filled on GRDB's queue by the one transaction that owns it, read only once it has ended.
package final class CropFiles: @unchecked Sendable {
    var written: [URL] = []
    var obsolete: [URL] = []
}

/// One GRDB transaction as the rules see it. Nobody holds Works or photos on SQLite (one file, one reviewer and
/// one scanner at a time), so the claim steps find and release nothing.
package struct SQLiteTransaction: LibraryTransaction {
    let db: Database
    let cropsDirectory: URL
    let crops: CropFiles

    package func loadWork(_ id: Work.ID, forUpdate: Bool) throws -> Work? { try WorkGraph.load(db, id: id) }

    package func saveWork(_ work: Work, photoID: Int64?, bump: Bool, insertWithID: Bool, ownFirstEdition: Bool) throws -> Work {
        try WorkGraph.save(db, work, photoId: photoID, bump: bump, insertWithID: insertWithID, ownFirstEdition: ownFirstEdition)
    }

    package func deleteWork(_ id: Work.ID) throws { try WorkGraph.delete(db, id: id) }

    package func revision(of id: Work.ID, forUpdate: Bool) throws -> Int? {
        try Int.fetchOne(db, sql: "SELECT revision FROM work WHERE id = ?", arguments: [id])
    }

    package func photoID(ofWork id: Work.ID) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT photoId FROM work WHERE id = ?", arguments: [id])
    }

    package func photoID(contentHash: String) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT id FROM photo WHERE contentHash = ?", arguments: [contentHash])
    }

    package func shift(_ move: ShelfRowShift) throws {
        try db.execute(sql: "UPDATE work SET spinePosition = spinePosition + ? WHERE photoContentHash = ? AND spineRow = ? AND spinePosition > ?",
                       arguments: [move.by, move.photoContentHash, move.row, move.after])
    }

    // MARK: The review queue

    package func pendingID(after: Work.ID) throws -> Work.ID? {
        try Int64.fetchOne(db, sql: "SELECT id FROM work WHERE reviewStatus = 'needsReview' AND id > ? ORDER BY id LIMIT 1", arguments: [after])
    }

    package func pendingID(before: Work.ID) throws -> Work.ID? {
        try Int64.fetchOne(db, sql: "SELECT id FROM work WHERE reviewStatus = 'needsReview' AND id < ? ORDER BY id DESC LIMIT 1",
                           arguments: [before])
    }

    package func queuePlace(of id: Work.ID) throws -> QueuePlace {
        let pending = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM work WHERE reviewStatus = 'needsReview'")!
        let before = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM work WHERE reviewStatus = 'needsReview' AND id < ?", arguments: [id])!
        let photoId = try photoID(ofWork: id)
        let photos = try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT photoId) FROM work WHERE reviewStatus = 'needsReview'")!
        var photoPosition = 0
        if let photoId {
            photoPosition = 1 + (try Int.fetchOne(db, sql: """
                SELECT COUNT(DISTINCT photoId) FROM work WHERE reviewStatus = 'needsReview' AND id < ? AND photoId != ?
                """, arguments: [id, photoId])!)
        }
        return QueuePlace(pending: pending, before: before, photos: photos, photoPosition: photoPosition)
    }

    package func cropURL(for work: Work) -> URL? { LibraryStore.cropURL(for: work, in: cropsDirectory) }

    // MARK: The journal

    package func appendJournal(_ entry: JournalDraft) throws -> Int64 {
        var record = JournalRecord(id: nil, session: entry.session, kind: entry.kind, workId: entry.workID, summary: entry.summary,
                                   decidedAt: entry.decidedAt, before: entry.before, afterRevisions: entry.afterRevisions, undoneAt: nil)
        try record.insert(db)
        return record.id!
    }

    package func latestUndoable(session: String?) throws -> UndoableDecision? {
        let request = session.map { JournalRecord.filter(Column("undoneAt") == nil && Column("session") == $0) }
            ?? JournalRecord.filter(Column("undoneAt") == nil)
        return try request.order(Column("id").desc).fetchOne(db).map {
            UndoableDecision(id: $0.id!, summary: $0.summary, before: $0.before, afterRevisions: $0.afterRevisions)
        }
    }

    package func markUndone(_ journalID: Int64, at date: Date) throws {
        try db.execute(sql: "UPDATE journal SET undoneAt = ? WHERE id = ?", arguments: [date, journalID])
    }

    package func latestLiveDecision(naming workID: Work.ID, before journalID: Int64) throws -> (id: Int64, afterRevisions: String)? {
        try Row.fetchOne(db, sql: """
            SELECT id, afterRevisions FROM journal WHERE undoneAt IS NULL AND id < ? AND afterRevisions LIKE ?
            ORDER BY id DESC LIMIT 1
            """, arguments: [journalID, afterRevisionsPattern(workID)]).map { ($0["id"], $0["afterRevisions"]) }
    }

    package func setAfterRevisions(_ journalID: Int64, to afterRevisions: String) throws {
        try db.execute(sql: "UPDATE journal SET afterRevisions = ? WHERE id = ?", arguments: [afterRevisions, journalID])
    }

    // MARK: Claims

    package func otherReviewer(holding id: Work.ID, session: String) throws -> String? { nil }
    package func releaseReviewClaim(workID: Work.ID) throws {}
    package func releasePhotoClaims(contentHash: String) throws {}

    // MARK: Photos and crops

    package func insertPhoto(_ photo: PhotoFiling, date: Date) throws -> Int64? {
        guard try PhotoRecord.filter(Column("contentHash") == photo.contentHash).fetchCount(db) == 0 else { return nil }
        var record = PhotoRecord(contentHash: photo.contentHash, originalImagePath: photo.originalImagePath,
                                 imageWidth: photo.imageWidth, imageHeight: photo.imageHeight, filedAt: date)
        try record.insert(db)
        return record.id
    }

    package func refilePhoto(contentHash: String, originalImagePath: String) throws -> Int64 {
        var record = try PhotoRecord.filter(Column("contentHash") == contentHash).fetchOne(db)!
        record.originalImagePath = originalImagePath
        try record.update(db)
        return record.id!
    }

    package func pendingWorks(photoID: Int64) throws -> [(id: Work.ID, cropFile: String?)] {
        try Row.fetchAll(db, sql: "SELECT id, cropFile FROM work WHERE photoId = ? AND reviewStatus = 'needsReview'", arguments: [photoID])
            .map { ($0[0], $0[1]) }
    }

    package func boxes(photoID: Int64) throws -> [BoundingBox] {
        try Row.fetchAll(db, sql: """
            SELECT boundingBoxX, boundingBoxY, boundingBoxWidth, boundingBoxHeight FROM work
            WHERE photoId = ? AND boundingBoxX IS NOT NULL
            """, arguments: [photoID]).map {
                BoundingBox(x: $0["boundingBoxX"], y: $0["boundingBoxY"], width: $0["boundingBoxWidth"], height: $0["boundingBoxHeight"])
            }
    }

    /// Written to a temporary name, then renamed, so no half-written JPEG is ever visible.
    package func storeCrop(_ jpeg: [UInt8], named name: String, workID: Work.ID) throws {
        let url = cropsDirectory.appendingPathComponent(name)
        let tmp = cropsDirectory.appendingPathComponent(".\(name).tmp")
        do {
            try Data(jpeg).write(to: tmp)
            if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
            try FileManager.default.moveItem(at: tmp, to: url)
        } catch {
            try? FileManager.default.removeItem(at: tmp)
            throw LibraryError.cropNotWritten(path: url.path, reason: (error as NSError).localizedDescription)
        }
        crops.written.append(url)
    }

    package func removeCrops(_ works: [(id: Work.ID, cropFile: String?)]) throws {
        crops.obsolete += works.compactMap(\.cropFile).map { cropsDirectory.appendingPathComponent($0) }
    }

    // MARK: Imports

    package func inSavepoint(_ body: () throws -> Void) throws -> String? {
        do {
            try db.inSavepoint { try body(); return .commit }
            return nil
        } catch {
            return "\(error)"
        }
    }
}
