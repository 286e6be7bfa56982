import BookModel
import Foundation
import LibraryCore
import NIOCore
import PostgresNIO

/// The library's rules (`LibraryEngine`, in `LibraryCore`) on PostgreSQL: this store gives them its
/// transactions (a lost COMMIT never applies a decision twice) and the SQL steps below.
extension PostgresLibraryStore {
    package func reading<T>(_ body: (PostgresTransaction) throws -> T) throws -> T {
        try read { try body(PostgresTransaction(store: self)) }
    }

    package func writing<T>(replay: WriteReplay, _ body: (PostgresTransaction) throws -> T) throws -> T {
        try transaction(replay: replay) { try body(PostgresTransaction(store: self)) }
    }

    package func writingOnce<T: Codable>(_ body: (PostgresTransaction) throws -> T) throws -> T {
        try transactionOnce { try body(PostgresTransaction(store: self)) }
    }
}

/// One transaction on the store's connection, which the store holds (its lock) while a rule runs. A team shares
/// the library: Works and photos are held by claims with an expiry, and rows a rule checks and then writes are
/// locked (`FOR UPDATE`) so two sessions never both act on what they saw.
package struct PostgresTransaction: LibraryTransaction {
    let store: PostgresLibraryStore

    package func loadWork(_ id: Work.ID, forUpdate: Bool) throws -> Work? { try store.loadWork(id, lock: forUpdate) }

    package func saveWork(_ work: Work, photoID: Int64?, bump: Bool, insertWithID: Bool, ownFirstEdition: Bool) throws -> Work {
        try store.saveWork(work, photoId: photoID, bump: bump, insertWithID: insertWithID, ownFirstEdition: ownFirstEdition)
    }

    package func deleteWork(_ id: Work.ID) throws { try store.deleteWork(id) }

    package func revision(of id: Work.ID, forUpdate: Bool) throws -> Int? {
        forUpdate ? try store.scalar("SELECT revision FROM work WHERE id = \(id) FOR UPDATE", as: Int.self)
            : try store.scalar("SELECT revision FROM work WHERE id = \(id)", as: Int.self)
    }

    package func photoID(ofWork id: Work.ID) throws -> Int64? {
        try store.scalar("SELECT photoId FROM work WHERE id = \(id)", as: Int64?.self) ?? nil
    }

    package func photoID(contentHash: String) throws -> Int64? {
        try store.scalar("SELECT id FROM photo WHERE contentHash = \(contentHash)", as: Int64.self)
    }

    package func shift(_ move: ShelfRowShift) throws {
        try store.query("""
            UPDATE work SET spinePosition = spinePosition + \(move.by)
            WHERE photoContentHash = \(move.photoContentHash) AND spineRow = \(move.row) AND spinePosition > \(move.after)
            """)
    }

    // MARK: The review queue

    /// A Work this process holds counts as free: it is the one in front of this reviewer.
    package func pendingID(after: Work.ID) throws -> Work.ID? {
        try store.scalar("""
            SELECT w.id FROM work w LEFT JOIN reviewClaim c ON c.workId = w.id
            WHERE w.reviewStatus = 'needsReview' AND w.id > \(after)
              AND (c.workId IS NULL OR c.expiresAt < now() OR c.reviewer = \(store.holder))
            ORDER BY w.id LIMIT 1
            """, as: Int64.self)
    }

    package func pendingID(before: Work.ID) throws -> Work.ID? {
        try store.scalar("""
            SELECT w.id FROM work w LEFT JOIN reviewClaim c ON c.workId = w.id
            WHERE w.reviewStatus = 'needsReview' AND w.id < \(before)
              AND (c.workId IS NULL OR c.expiresAt < now() OR c.reviewer = \(store.holder))
            ORDER BY w.id DESC LIMIT 1
            """, as: Int64.self)
    }

    /// One round trip for the four counts.
    package func queuePlace(of id: Work.ID) throws -> QueuePlace {
        let row = try store.query("""
            SELECT COUNT(*), COUNT(*) FILTER (WHERE id < \(id)), COUNT(DISTINCT photoId),
                   COUNT(DISTINCT photoId) FILTER (WHERE id < \(id) AND photoId IS DISTINCT FROM (SELECT photoId FROM work WHERE id = \(id)))
            FROM work WHERE reviewStatus = 'needsReview'
            """).first!
        let (pending, before, photos, photosBefore) = try row.decode((Int64, Int64, Int64, Int64).self)
        return QueuePlace(pending: Int(pending), before: Int(before), photos: Int(photos), photoPosition: Int(photosBefore) + 1)
    }

    package func cropURL(for work: Work) -> URL? { store.cropURLLocked(work) }

    // MARK: The journal

    package func appendJournal(_ entry: JournalDraft) throws -> Int64 {
        try store.scalar("""
            INSERT INTO journal (session, kind, workId, summary, decidedAt, before, afterRevisions)
            VALUES (\(entry.session), \(entry.kind), \(entry.workID), \(entry.summary), \(entry.decidedAt), \(entry.before), \(entry.afterRevisions))
            RETURNING id
            """, as: Int64.self)!
    }

    /// The journal row is locked, so two people pressing undo at once undo two decisions, not one twice.
    package func latestUndoable(session: String?) throws -> UndoableDecision? {
        guard let row = try store.query("""
            SELECT id, summary, before, afterRevisions FROM journal
            WHERE undoneAt IS NULL AND (\(session)::text IS NULL OR session = \(session))
            ORDER BY id DESC LIMIT 1 FOR UPDATE
            """).first else { return nil }
        let (id, summary, before, after) = try row.decode((Int64, String, String, String).self)
        return UndoableDecision(id: id, summary: summary, before: before, afterRevisions: after)
    }

    package func markUndone(_ journalID: Int64, at date: Date) throws {
        try store.query("UPDATE journal SET undoneAt = \(date) WHERE id = \(journalID)")
    }

    package func liveDecisions(naming workID: Work.ID, before journalID: Int64) throws -> [(id: Int64, afterRevisions: String)] {
        try store.query("""
            SELECT id, afterRevisions FROM journal WHERE undoneAt IS NULL AND id < \(journalID)
              AND afterRevisions LIKE \(afterRevisionsPattern(workID))
            ORDER BY id DESC FOR UPDATE
            """).map { row in try row.decode((Int64, String).self) }
    }

    package func setAfterRevisions(_ journalID: Int64, to afterRevisions: String) throws {
        try store.query("UPDATE journal SET afterRevisions = \(afterRevisions) WHERE id = \(journalID)")
    }

    // MARK: Claims

    package func otherReviewer(holding id: Work.ID, session: String) throws -> String? {
        try store.scalar("""
            SELECT reviewer FROM reviewClaim WHERE workId = \(id) AND expiresAt > now()
              AND reviewer != \(session) AND reviewer != \(store.holder)
            """, as: String.self)
    }

    package func releaseReviewClaim(workID: Work.ID) throws {
        try store.query("DELETE FROM reviewClaim WHERE workId = \(workID)")
    }

    package func releasePhotoClaims(contentHash: String) throws {
        try store.query("DELETE FROM photoClaim WHERE contentHash = \(contentHash)")
    }

    // MARK: Photos and crops

    /// The unique content hash makes a second worker's insert a no-op, so a photo is filed exactly once.
    package func insertPhoto(_ photo: PhotoFiling, date: Date) throws -> Int64? {
        try store.scalar("""
            INSERT INTO photo (contentHash, originalImagePath, imageWidth, imageHeight, filedAt)
            VALUES (\(photo.contentHash), \(photo.originalImagePath), \(photo.imageWidth), \(photo.imageHeight), \(date))
            ON CONFLICT (contentHash) DO NOTHING RETURNING id
            """, as: Int64.self)
    }

    package func refilePhoto(contentHash: String, originalImagePath: String) throws -> Int64 {
        let id = try store.scalar("SELECT id FROM photo WHERE contentHash = \(contentHash) FOR UPDATE", as: Int64.self)!
        try store.query("UPDATE photo SET originalImagePath = \(originalImagePath) WHERE id = \(id)")
        return id
    }

    package func pendingWorks(photoID: Int64) throws -> [(id: Work.ID, cropFile: String?)] {
        try store.query("SELECT id, cropFile FROM work WHERE photoId = \(photoID) AND reviewStatus = 'needsReview'")
            .map { try $0.decode((Int64, String?).self) }
    }

    package func boxes(photoID: Int64) throws -> [BoundingBox] {
        try store.query("""
            SELECT boundingBoxX, boundingBoxY, boundingBoxWidth, boundingBoxHeight FROM work
            WHERE photoId = \(photoID) AND boundingBoxX IS NOT NULL
            """).map {
                let (x, y, w, h) = try $0.decode((Double, Double, Double, Double).self)
                return BoundingBox(x: x, y: y, width: w, height: h)
            }
    }

    package func storeCrop(_ jpeg: [UInt8], named name: String, workID: Work.ID) throws {
        try store.storeCrop(jpeg, workID: workID)
    }

    package func removeCrops(_ works: [(id: Work.ID, cropFile: String?)]) throws {
        try store.rows("DELETE FROM cropImage WHERE workId = ANY($1)", works.map(\.id))
    }

    // MARK: Imports

    package func inSavepoint(_ body: () throws -> Void) throws -> String? {
        try store.query("SAVEPOINT importrow")
        do {
            try body()
            try store.query("RELEASE SAVEPOINT importrow")
            return nil
        } catch where !PostgresLibraryStore.isConnectionLost(error) {
            try store.query("ROLLBACK TO SAVEPOINT importrow")
            return error is PSQLError ? PostgresLibraryStore.reason(error) : "\(error)"
        }
    }
}
