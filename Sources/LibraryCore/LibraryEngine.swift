import BookModel
import Foundation

/// What an engine (SQLite in `Library`, PostgreSQL in `LibraryPostgres`) gives the library's rules: transactions
/// and the few steps inside them that are SQL. The rules themselves (deciding, undo, split and join, filing a
/// photo, imports, the review queue) are written once, in `LibraryEngine+*.swift`, over these, so the two engines
/// cannot drift apart: a rule changed here changes on both.
///
/// `package`: only the engines in this package implement it; callers see `LibraryStoring`.
package protocol LibraryEngine: LibraryStoring {
    associatedtype Transaction: LibraryTransaction

    // The rules run synchronously inside one transaction and the entry is what awaits: GRDB runs a transaction
    // in a synchronous closure on its own queue and nothing may suspend inside it (groue/GRDB.swift#1546), and
    // PostgreSQL runs it on a thread of its own with a pooled connection leased, so no caller's thread waits.

    /// Reads in one consistent snapshot.
    func reading<T: Sendable>(_ body: @escaping @Sendable (Transaction) throws -> T) async throws -> T
    /// One write transaction: everything `body` does commits together, or nothing does.
    /// - Parameter replay: whether PostgreSQL may send it again after a connection lost with its COMMIT on the way.
    func writing<T: Sendable>(replay: WriteReplay, _ body: @escaping @Sendable (Transaction) throws -> T) async throws -> T
    /// A write applied at most once, even when the connection is lost after its COMMIT was sent: a decision, an
    /// undo, a split or a filing, where running it twice would apply it twice (an undo would undo the next
    /// decision too). On SQLite, where a commit is never in doubt, a plain write.
    func writingOnce<T: Codable & Sendable>(_ body: @escaping @Sendable (Transaction) throws -> T) async throws -> T

    /// The first pending Work after `after` (from the head when nil, and round again past the end) that nobody
    /// else holds, now held by `reviewer` until `lease` runs out; any other Work `reviewer` held is given back.
    /// Its own step, not a rule over `Transaction`: SQLite holds nothing (one file has one reviewer at a time), so
    /// claiming there must not take the file's write lock.
    func claimPending(reviewer: String, lease: TimeInterval, after: Work.ID?) async throws -> Work.ID?
}

/// What a transaction sent a second time does to the library; see `LibraryEngine.writing(replay:_:)`.
package enum WriteReplay: Sendable {
    /// Not sent again: the caller gets `LibraryError.connectionLost(mayHaveBeenApplied: true)`.
    case never
    /// Sent again: running it twice leaves the library as running it once does (a read, an upsert of the same
    /// values, a claim renewed).
    case safe
}

/// The steps of a rule that touch the database, inside one transaction of one engine.
package protocol LibraryTransaction {
    // MARK: The Work graph
    /// A Work with its credits, editions and entry. `forUpdate`: the caller's check of it (revision, status) and
    /// its write are one step, so two reviewers deciding one Work at once are serialized (PostgreSQL row lock;
    /// SQLite's write transaction already holds the whole file).
    func loadWork(_ id: Work.ID, forUpdate: Bool) throws -> Work?
    /// Inserts or updates the Work and everything it holds; returns it with every ID filled.
    /// - Parameters:
    ///   - photoID: the photo row it belongs to; nil keeps the one a stored Work has.
    ///   - bump: raise `revision` (every real change does; filing and undo set it themselves).
    ///   - insertWithID: insert under the Work's own ID (undo puts a deleted Work back as it was).
    ///   - ownFirstEdition: link an entry without an edition to the first edition once it has an ID.
    func saveWork(_ work: Work, photoID: Int64?, bump: Bool, insertWithID: Bool, ownFirstEdition: Bool) throws -> Work
    /// Deletes a Work; editions, entry, credits and claims go with it, the people and its crop stay (undo).
    func deleteWork(_ id: Work.ID) throws
    func revision(of id: Work.ID, forUpdate: Bool) throws -> Int?
    func photoID(ofWork id: Work.ID) throws -> Int64?
    func photoID(contentHash: String) throws -> Int64?
    /// Moves a shelf row's places (`ShelfRowShift`).
    func shift(_ move: ShelfRowShift) throws

    // MARK: The review queue
    /// The first pending Work after `after` that no other reviewer holds.
    func pendingID(after: Work.ID) throws -> Work.ID?
    /// The last pending Work before `before` that no other reviewer holds.
    func pendingID(before: Work.ID) throws -> Work.ID?
    func queuePlace(of id: Work.ID) throws -> QueuePlace
    /// The crop of a Work as a local file, if it has one.
    func cropURL(for work: Work) -> URL?

    // MARK: The journal
    func appendJournal(_ entry: JournalDraft) throws -> Int64
    /// The latest decision not undone (of `session`, or anyone's), locked so two undos take two decisions.
    func latestUndoable(session: String?) throws -> UndoableDecision?
    func markUndone(_ journalID: Int64, at date: Date) throws
    /// The latest decision not undone before `journalID` whose revisions after name `workID`, with those
    /// revisions (JSON, by ID), locked for `setAfterRevisions`.
    func latestLiveDecision(naming workID: Work.ID, before journalID: Int64) throws -> (id: Int64, afterRevisions: String)?
    /// Rewrites a decision's revisions after (JSON, by ID): an undo hands a Work's new revision on.
    func setAfterRevisions(_ journalID: Int64, to afterRevisions: String) throws

    // MARK: Claims
    /// The reviewer other than `session` (and this process) whose live claim holds the Work, if any.
    func otherReviewer(holding id: Work.ID, session: String) throws -> String?
    func releaseReviewClaim(workID: Work.ID) throws
    /// The scan workers' claims on a photo, once it is filed.
    func releasePhotoClaims(contentHash: String) throws

    // MARK: Photos and crops
    /// The new photo row's ID, or nil when the photo (by content hash) is filed already.
    func insertPhoto(_ photo: PhotoFiling, date: Date) throws -> Int64?
    /// The filed photo's row, locked for a rescan, now pointing at `originalImagePath`.
    func refilePhoto(contentHash: String, originalImagePath: String) throws -> Int64
    /// The photo's Works still waiting for review, with their crops.
    func pendingWorks(photoID: Int64) throws -> [(id: Work.ID, cropFile: String?)]
    /// Where the photo's remaining Works sit (the ones a reviewer decided, after a rescan deleted the rest).
    func boxes(photoID: Int64) throws -> [BoundingBox]
    /// Keeps a crop with the transaction: a file beside SQLite written now and removed if the transaction fails,
    /// a row in PostgreSQL.
    func storeCrop(_ jpeg: [UInt8], named name: String, workID: Work.ID) throws
    /// Drops the crops of Works a rescan replaced (once the transaction commits, on SQLite).
    func removeCrops(_ crops: [(id: Work.ID, cropFile: String?)]) throws

    // MARK: Imports
    /// Runs `body` in a savepoint of its own: a failure rolls back only what `body` did.
    /// - Returns: nil when `body` succeeded; else why it failed, for the import report.
    /// - Throws: only what ends the whole transaction (the connection went).
    func inSavepoint(_ body: () throws -> Void) throws -> String?
}

/// Where a Work sits in the review queue, for "12 of 140 pending · photo 3 of 12".
package struct QueuePlace: Sendable {
    package var pending: Int
    /// Pending Works before this one.
    package var before: Int
    /// Photos with pending Works, and the 1-based place of this Work's photo among them.
    package var photos: Int
    package var photoPosition: Int

    package init(pending: Int, before: Int, photos: Int, photoPosition: Int) {
        self.pending = pending; self.before = before; self.photos = photos; self.photoPosition = photoPosition
    }
}

/// A journal row about to be written: the Works as they were (JSON) and their revisions after (JSON, by ID).
package struct JournalDraft: Sendable {
    package var session: String
    package var kind: String
    package var workID: Work.ID
    package var summary: String
    package var decidedAt: Date
    package var before: String
    package var afterRevisions: String

    package init(session: String, kind: String, workID: Work.ID, summary: String, decidedAt: Date, before: [Work],
                 after: [Work.ID: Int]) throws {
        self.session = session; self.kind = kind; self.workID = workID; self.summary = summary; self.decidedAt = decidedAt
        self.before = try encodeJSON(before)
        afterRevisions = try encodeJSON(after.reduce(into: [String: Int]()) { $0[String($1.key)] = $1.value })
    }
}

/// A `LIKE` pattern for the journal rows whose revisions after (`JournalDraft.afterRevisions`, keys quoted) name
/// `workID`: the quotes keep 12 from matching 112 or 120.
package func afterRevisionsPattern(_ workID: Work.ID) -> String { "%\"\(workID)\":%" }

/// The journal row an undo takes back.
package struct UndoableDecision: Sendable {
    package var id: Int64
    package var summary: String
    package var before: String
    package var afterRevisions: String

    package init(id: Int64, summary: String, before: String, afterRevisions: String) {
        self.id = id; self.summary = summary; self.before = before; self.afterRevisions = afterRevisions
    }
}

/// This process as a reviewer in claims, `user@host:pid`: the terminal review holds its Work under it, and a
/// decision from this process is never refused as another reviewer's.
public let processReviewer = "\(ProcessInfo.processInfo.userName)@\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier)"
