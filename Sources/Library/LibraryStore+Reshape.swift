import BookModel
import Foundation
import GRDB

/// A box as a reviewer redraws it: one piece of a split box, or the whole of two joined ones. The geometry
/// is normalized to the upright photo, origin top-left, like the detector's.
public struct SpinePiece: Sendable, Equatable {
    public var boundingBox: BoundingBox
    /// [[x, y]] x 4, top-left first, clockwise.
    public var polygon: [[Double]]
    /// The piece's upright crop, JPEG-encoded (cut by the caller, which has the pixels).
    public var cropJPEG: [UInt8]
    /// What is known of the book in this box; nil files it unread, for the reviewer to type.
    public var title: String?
    public var authors: [String]
    public var rawText: String?

    public init(boundingBox: BoundingBox, polygon: [[Double]], cropJPEG: [UInt8], title: String? = nil, authors: [String] = [],
                rawText: String? = nil) {
        self.boundingBox = boundingBox; self.polygon = polygon; self.cropJPEG = cropJPEG
        self.title = title; self.authors = authors; self.rawText = rawText
    }
}

extension SpinePiece {
    /// The pending Work a split or join files for one piece: shared by both stores so a reshape files the same
    /// on each. It keeps the photo, reader and shelf place of `first` (the leftmost Work replaced), `offset`
    /// places along the shelf from it.
    public static func work(_ piece: SpinePiece, replacing first: Work, offset: Int, cropFile: String, date: Date) -> Work {
        let title = piece.title?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        var w = Work(title: title.isEmpty ? Work.unreadTitle : String(title.prefix(Rules.titleMaxLength)),
                     reviewStatus: .needsReview, dateCreated: date)
        w.setAuthorNames(piece.authors.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }, at: date)
        w.originalImagePath = first.originalImagePath
        w.boundingBox = piece.boundingBox
        w.primaryProvider = first.primaryProvider
        if var spine = first.spine {
            spine.position += offset
            spine.polygon = piece.polygon
            spine.rawText = piece.rawText
            spine.readingConfidence = title.isEmpty ? nil : spine.readingConfidence
            spine.readError = nil
            spine.cropFile = cropFile
            w.spine = spine
        }
        w.lastModified = date
        return w
    }
}

/// How a split or a join moves the books after it along their shelf row: a box cut in two takes one place
/// more, two boxes joined one fewer, so every book keeps a place of its own, in order. Without it the right
/// piece of a split shared the next book's place, and joining that piece picked the book instead of the
/// other piece. Both stores move the row by this rule, and move it back on undo.
public struct ShelfRowShift: Sendable, Equatable {
    public var photoContentHash: String
    public var row: Int
    /// The books at places after this one move.
    public var after: Int
    public var by: Int

    /// The move a reshape of `originals` (one shelf row's boxes) into `pieces` boxes makes; nil when none moves.
    public static func reshape(_ originals: [Work], pieces: Int) -> ShelfRowShift? {
        guard pieces > 0, pieces != originals.count, let spine = originals.first?.spine else { return nil }
        // After the last box replaced: a book between two joined boxes (decided, so not joined) keeps its place.
        let last = originals.compactMap { $0.spine?.position }.max() ?? spine.position
        return ShelfRowShift(photoContentHash: spine.photoContentHash, row: spine.row, after: last, by: pieces - originals.count)
    }

    /// The move taken back, once the pieces are gone: the books it moved now sit after `after + by`.
    public var undone: ShelfRowShift { ShelfRowShift(photoContentHash: photoContentHash, row: row, after: after + by, by: -by) }
}

extension ShelfRowShift {
    func apply(_ db: Database) throws {
        try db.execute(sql: "UPDATE work SET spinePosition = spinePosition + ? WHERE photoContentHash = ? AND spineRow = ? AND spinePosition > ?",
                       arguments: [by, photoContentHash, row, after])
    }
}

extension LibraryStore {
    /// Replaces pending Works by new pending ones drawn by the reviewer: a box that held two books becomes
    /// two, two boxes of one book become one. One transaction with its journal row, so undo removes the new
    /// Works and puts the old ones back (their crop files are kept for that).
    ///
    /// The new Works keep the photo, shelf row and reader of the first Work replaced, and take their
    /// places in the row in order.
    /// - Throws: `.notPending` when a Work was already decided, `.conflict` when one changed since
    ///   `expectedRevisions`, `.notFound`; nothing is written then, and crops written are removed.
    @discardableResult
    public func reshape(_ workIDs: [Work.ID], into pieces: [SpinePiece], kind: String, expectedRevisions: [Work.ID: Int] = [:],
                        session: String, date: Date = Date()) throws -> ReshapeReceipt {
        guard let firstID = workIDs.first, !pieces.isEmpty else { throw LibraryError.notFound(workIDs.first ?? 0) }
        var written: [URL] = []
        do {
            var names: [String] = []
            for piece in pieces {
                let name = "edit-\(UUID().uuidString.prefix(12).lowercased()).jpg"
                let url = cropsDirectory.appendingPathComponent(name)
                do { try Data(piece.cropJPEG).write(to: url, options: .atomic) } catch {
                    throw LibraryError.cropNotWritten(path: url.path, reason: (error as NSError).localizedDescription)
                }
                written.append(url)
                names.append(name)
            }
            return try run { db in
                var originals: [Work] = []
                for id in workIDs {
                    guard let work = try WorkGraph.load(db, id: id) else { throw LibraryError.notFound(id) }
                    guard work.reviewStatus == .needsReview else { throw LibraryError.notPending(id, work.reviewStatus) }
                    if let expected = expectedRevisions[id], expected != work.revision {
                        throw LibraryError.conflict(id, expected: expected, actual: work.revision)
                    }
                    originals.append(work)
                }
                let first = originals[0]
                let photoId = try Int64.fetchOne(db, sql: "SELECT photoId FROM work WHERE id = ?", arguments: [firstID])
                for id in workIDs { try WorkGraph.delete(db, id: id) }
                try ShelfRowShift.reshape(originals, pieces: pieces.count)?.apply(db)
                var after: [String: Int] = [:]
                var created: [Work.ID] = []
                for (i, (piece, crop)) in zip(pieces, names).enumerated() {
                    let w = SpinePiece.work(piece, replacing: first, offset: i, cropFile: crop, date: date)
                    let saved = try WorkGraph.save(db, w, photoId: photoId, bump: false)
                    after[String(saved.id!)] = saved.revision
                    created.append(saved.id!)
                }
                let summary = kind == "split" ? "split “\(first.title)” into \(pieces.count) boxes"
                    : "joined \(originals.count) boxes into one"
                var journal = JournalRecord(id: nil, session: session, kind: kind, workId: firstID, summary: summary, decidedAt: date,
                                            before: try encodeJSON(originals), afterRevisions: try encodeJSON(after), undoneAt: nil)
                try journal.insert(db)
                return ReshapeReceipt(journalID: journal.id!, replaced: workIDs, created: created, summary: summary)
            }
        } catch {
            for url in written { try? FileManager.default.removeItem(at: url) }
            throw error
        }
    }

    /// The pending Work beside `id` on its shelf row (the next one to the right, or to the left), if any.
    public func pendingNeighbour(of id: Work.ID, toTheRight: Bool = true) throws -> Work? {
        try read { db in
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
    public func pendingWorks(photoContentHash: String, row: Int? = nil) throws -> [Work] {
        try read { db in
            let records = try WorkRecord.fetchAll(db, sql: """
                SELECT * FROM work WHERE photoContentHash = ? AND reviewStatus = 'needsReview' AND (? IS NULL OR spineRow = ?)
                ORDER BY spineRow, spinePosition, id
                """, arguments: [photoContentHash, row, row])
            return try WorkGraph.loadAll(db, records)
        }
    }
}

public struct ReshapeReceipt: Sendable, Equatable, Codable {
    public var journalID: Int64
    public var replaced: [Work.ID]
    public var created: [Work.ID]
    public var summary: String

    public init(journalID: Int64, replaced: [Work.ID], created: [Work.ID], summary: String) {
        self.journalID = journalID; self.replaced = replaced; self.created = created; self.summary = summary
    }
}
