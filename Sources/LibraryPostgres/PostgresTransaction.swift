import BookModel
import Foundation
import LibraryCore
import NIOCore
import PostgresNIO

/// The library's rules (`LibraryEngine`, in `LibraryCore`) on PostgreSQL: this store gives them its
/// transactions (a lost COMMIT never applies a decision twice) and the SQL steps below.
extension PostgresLibraryStore {
    package func reading<T: Sendable>(_ body: @escaping @Sendable (PostgresTransaction) throws -> T) async throws -> T {
        try await read(body)
    }

    package func writing<T: Sendable>(replay: WriteReplay, _ body: @escaping @Sendable (PostgresTransaction) throws -> T) async throws -> T {
        try await transaction(replay: replay, body)
    }

    package func writingOnce<T: Codable & Sendable>(_ body: @escaping @Sendable (PostgresTransaction) throws -> T) async throws -> T {
        try await transactionOnce(body)
    }
}

/// One transaction on a connection leased from the store's pool, run on one of the store's threads: each
/// statement waits there for the server's answer (at most the statement timeout). A team shares the library:
/// Works and photos are held by claims with an expiry, and rows a rule checks and then writes are locked
/// (`FOR UPDATE`) so two sessions never both act on what they saw.
package struct PostgresTransaction: LibraryTransaction {
    let store: PostgresLibraryStore
    let connection: PostgresConnection
    let attempt: Attempt

    /// One run of a transaction: whether it is the run again after a lost connection, and whether its COMMIT
    /// was sent (a connection lost then leaves nobody knowing whether the server applied it).
    /// @unchecked Sendable: `commitSent` is set by the one thread running the attempt and read once it has ended.
    final class Attempt: @unchecked Sendable {
        let again: Bool
        var commitSent = false
        init(again: Bool) { self.again = again }
    }

    /// Filled on an event loop thread before the semaphore is signalled, read only after the wait.
    private final class ResultBox<T>: @unchecked Sendable { var result: Result<T, any Error>? }

    /// Waits for `future` at most `statementTimeout`; past that the connection is closed under it, so a server
    /// that stops answering (or a connection dropped in a way the client never notices) is an error, never a
    /// hang. Only ever on the store's own threads, never on an event loop or a Swift concurrency thread.
    private func bounded<T>(_ future: EventLoopFuture<T>) throws -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        future.whenComplete { result in box.result = result; done.signal() }
        if done.wait(timeout: .now() + store.statementTimeout) == .timedOut {
            let _: EventLoopFuture<Void> = connection.close()
            throw PostgresLibraryStore.NoAnswer(seconds: store.statementTimeout)
        }
        return try box.result!.get()
    }

    /// Runs one statement and collects its rows.
    @discardableResult
    func query(_ q: PostgresQuery) throws -> [PostgresRow] {
        var rows: [PostgresRow] = []
        for row in try bounded(connection.query(q, logger: store.logger)) { rows.append(row) }
        return rows
    }

    func scalar<T: PostgresDecodable>(_ q: PostgresQuery, as: T.Type = T.self) throws -> T? {
        try query(q).first.map { try $0.decode(T.self) }
    }

    package func loadWork(_ id: Work.ID, forUpdate: Bool) throws -> Work? { try loadWork(id, lock: forUpdate) }

    package func saveWork(_ work: Work, photoID: Int64?, bump: Bool, insertWithID: Bool, ownFirstEdition: Bool) throws -> Work {
        try saveWork(work, photoId: photoID, bump: bump, insertWithID: insertWithID, ownFirstEdition: ownFirstEdition)
    }

    package func revision(of id: Work.ID, forUpdate: Bool) throws -> Int? {
        forUpdate ? try scalar("SELECT revision FROM work WHERE id = \(id) FOR UPDATE", as: Int.self)
            : try scalar("SELECT revision FROM work WHERE id = \(id)", as: Int.self)
    }

    package func photoID(ofWork id: Work.ID) throws -> Int64? {
        try scalar("SELECT photoId FROM work WHERE id = \(id)", as: Int64?.self) ?? nil
    }

    package func photoID(contentHash: String) throws -> Int64? {
        try scalar("SELECT id FROM photo WHERE contentHash = \(contentHash)", as: Int64.self)
    }

    package func shift(_ move: ShelfRowShift) throws {
        try query("""
            UPDATE work SET spinePosition = spinePosition + \(move.by)
            WHERE photoContentHash = \(move.photoContentHash) AND spineRow = \(move.row) AND spinePosition > \(move.after)
            """)
    }

    // MARK: The review queue

    /// A Work this process holds counts as free: it is the one in front of this reviewer.
    package func pendingID(after: Work.ID) throws -> Work.ID? {
        try scalar("""
            SELECT w.id FROM work w LEFT JOIN reviewClaim c ON c.workId = w.id
            WHERE w.reviewStatus = 'needsReview' AND w.id > \(after)
              AND (c.workId IS NULL OR c.expiresAt < now() OR c.reviewer = \(store.holder))
            ORDER BY w.id LIMIT 1
            """, as: Int64.self)
    }

    package func pendingID(before: Work.ID) throws -> Work.ID? {
        try scalar("""
            SELECT w.id FROM work w LEFT JOIN reviewClaim c ON c.workId = w.id
            WHERE w.reviewStatus = 'needsReview' AND w.id < \(before)
              AND (c.workId IS NULL OR c.expiresAt < now() OR c.reviewer = \(store.holder))
            ORDER BY w.id DESC LIMIT 1
            """, as: Int64.self)
    }

    /// One round trip for the four counts.
    package func queuePlace(of id: Work.ID) throws -> QueuePlace {
        let row = try query("""
            SELECT COUNT(*), COUNT(*) FILTER (WHERE id < \(id)), COUNT(DISTINCT photoId),
                   COUNT(DISTINCT photoId) FILTER (WHERE id < \(id) AND photoId IS DISTINCT FROM (SELECT photoId FROM work WHERE id = \(id)))
            FROM work WHERE reviewStatus = 'needsReview'
            """).first!
        let (pending, before, photos, photosBefore) = try row.decode((Int64, Int64, Int64, Int64).self)
        return QueuePlace(pending: Int(pending), before: Int(before), photos: Int(photos), photoPosition: Int(photosBefore) + 1)
    }

    /// Written to the local cache under a temporary name, then renamed, so no half-written JPEG is ever seen.
    package func cropURL(for work: Work) -> URL? {
        guard let id = work.id, let name = work.spine?.cropFile else { return nil }
        let url = store.cropsDirectory.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: url.path) { return url }
        guard let bytes = try? scalar("SELECT jpeg FROM cropImage WHERE workId = \(id)", as: ByteBuffer.self) else { return nil }
        let tmp = store.cropsDirectory.appendingPathComponent(".\(name).\(UUID().uuidString).tmp")
        do {
            try Data(bytes.readableBytesView).write(to: tmp)
            try? FileManager.default.removeItem(at: url)
            try FileManager.default.moveItem(at: tmp, to: url)
            return url
        } catch {
            try? FileManager.default.removeItem(at: tmp)
            return nil
        }
    }

    // MARK: The journal

    package func appendJournal(_ entry: JournalDraft) throws -> Int64 {
        try scalar("""
            INSERT INTO journal (session, kind, workId, summary, decidedAt, before, afterRevisions)
            VALUES (\(entry.session), \(entry.kind), \(entry.workID), \(entry.summary), \(entry.decidedAt), \(entry.before), \(entry.afterRevisions))
            RETURNING id
            """, as: Int64.self)!
    }

    /// The journal row is locked, so two people pressing undo at once undo two decisions, not one twice.
    package func latestUndoable(session: String?) throws -> UndoableDecision? {
        guard let row = try query("""
            SELECT id, summary, before, afterRevisions FROM journal
            WHERE undoneAt IS NULL AND (\(session)::text IS NULL OR session = \(session))
            ORDER BY id DESC LIMIT 1 FOR UPDATE
            """).first else { return nil }
        let (id, summary, before, after) = try row.decode((Int64, String, String, String).self)
        return UndoableDecision(id: id, summary: summary, before: before, afterRevisions: after)
    }

    package func markUndone(_ journalID: Int64, at date: Date) throws {
        try query("UPDATE journal SET undoneAt = \(date) WHERE id = \(journalID)")
    }

    package func latestLiveDecision(naming workID: Work.ID, before journalID: Int64) throws -> (id: Int64, afterRevisions: String)? {
        try query("""
            SELECT id, afterRevisions FROM journal WHERE undoneAt IS NULL AND id < \(journalID)
              AND afterRevisions LIKE \(afterRevisionsPattern(workID))
            ORDER BY id DESC LIMIT 1 FOR UPDATE
            """).first.map { row in try row.decode((Int64, String).self) }
    }

    package func setAfterRevisions(_ journalID: Int64, to afterRevisions: String) throws {
        try query("UPDATE journal SET afterRevisions = \(afterRevisions) WHERE id = \(journalID)")
    }

    // MARK: Claims

    package func otherReviewer(holding id: Work.ID, session: String) throws -> String? {
        try scalar("""
            SELECT reviewer FROM reviewClaim WHERE workId = \(id) AND expiresAt > now()
              AND reviewer != \(session) AND reviewer != \(store.holder)
            """, as: String.self)
    }

    package func releaseReviewClaim(workID: Work.ID) throws {
        try query("DELETE FROM reviewClaim WHERE workId = \(workID)")
    }

    package func releasePhotoClaims(contentHash: String) throws {
        try query("DELETE FROM photoClaim WHERE contentHash = \(contentHash)")
    }

    // MARK: Photos and crops

    /// The unique content hash makes a second worker's insert a no-op, so a photo is filed exactly once.
    package func insertPhoto(_ photo: PhotoFiling, date: Date) throws -> Int64? {
        try scalar("""
            INSERT INTO photo (contentHash, originalImagePath, imageWidth, imageHeight, filedAt)
            VALUES (\(photo.contentHash), \(photo.originalImagePath), \(photo.imageWidth), \(photo.imageHeight), \(date))
            ON CONFLICT (contentHash) DO NOTHING RETURNING id
            """, as: Int64.self)
    }

    package func refilePhoto(contentHash: String, originalImagePath: String) throws -> Int64 {
        let id = try scalar("SELECT id FROM photo WHERE contentHash = \(contentHash) FOR UPDATE", as: Int64.self)!
        try query("UPDATE photo SET originalImagePath = \(originalImagePath) WHERE id = \(id)")
        return id
    }

    package func pendingWorks(photoID: Int64) throws -> [(id: Work.ID, cropFile: String?)] {
        try query("SELECT id, cropFile FROM work WHERE photoId = \(photoID) AND reviewStatus = 'needsReview'")
            .map { try $0.decode((Int64, String?).self) }
    }

    package func boxes(photoID: Int64) throws -> [BoundingBox] {
        try query("""
            SELECT boundingBoxX, boundingBoxY, boundingBoxWidth, boundingBoxHeight FROM work
            WHERE photoId = \(photoID) AND boundingBoxX IS NOT NULL
            """).map {
                let (x, y, w, h) = try $0.decode((Double, Double, Double, Double).self)
                return BoundingBox(x: x, y: y, width: w, height: h)
            }
    }

    package func storeCrop(_ jpeg: [UInt8], named name: String, workID: Work.ID) throws {
        try storeCrop(jpeg, workID: workID)
    }

    package func removeCrops(_ works: [(id: Work.ID, cropFile: String?)]) throws {
        try rows("DELETE FROM cropImage WHERE workId = ANY($1)", works.map(\.id))
    }

    // MARK: Imports

    package func inSavepoint(_ body: () throws -> Void) throws -> String? {
        try query("SAVEPOINT importrow")
        do {
            try body()
            try query("RELEASE SAVEPOINT importrow")
            return nil
        } catch where !PostgresLibraryStore.isConnectionLost(error) {
            try query("ROLLBACK TO SAVEPOINT importrow")
            return error is PSQLError ? PostgresLibraryStore.reason(error) : "\(error)"
        }
    }
}
