import BookModel
import Foundation

/// The library as callers see it (scan, review, library, match, serve): one interface, two engines.
///
/// `LibraryStore` (SQLite through GRDB) is the embedded default; `PostgresLibraryStore` (in `LibraryPostgres`)
/// is the same library on a PostgreSQL server shared by a team. Every write is one transaction on both, and every
/// rule (deciding, undo, split and join, filing, imports, the queue) is the same code on both (`LibraryEngine`).
/// Open one with `LibraryOpener` (in `ShelfScanCLI`), which takes a path or a `postgres://` URL.
public protocol LibraryStoring: AnyObject, Sendable {
    /// The database file, or nil for an in-memory or server library.
    var path: String? { get }
    /// Where spine crops are read from: beside the SQLite file, or a local cache of the server's crops.
    var cropsDirectory: URL { get }
    /// Where the library lives, for messages: a path or a URL without its password.
    var locationDescription: String { get }

    // MARK: Filing (scan workers)
    func photoStatus(contentHash: String) throws -> FiledPhotoStatus?
    @discardableResult
    func file(_ photo: PhotoFiling, replacePending: Bool, date: Date) throws -> [Work.ID]
    /// Claims a photo for this worker until `lease` runs out, so several workers on one folder share the photos.
    /// - Returns: false when another live worker holds it (skip the photo; that worker files it).
    func claimPhoto(contentHash: String, worker: String, lease: TimeInterval) throws -> Bool
    /// Gives a claim back early (the photo failed, or was filed).
    func releasePhoto(contentHash: String, worker: String) throws

    // MARK: Review queue and decisions
    func pendingCount() throws -> Int
    func pendingSummaries(limit: Int?, offset: Int) throws -> [WorkSummary]
    func librarySummaries(limit: Int?, offset: Int) throws -> [WorkSummary]
    func work(id: Work.ID) throws -> Work?
    func works(includePending: Bool) throws -> [Work]
    /// The next pending Work after `after` that no other reviewer holds, wrapping to the queue's front when
    /// `wrap`. A read on both engines: it holds nothing (`claimNextPending` does).
    func nextPending(after: Work.ID?, wrap: Bool) throws -> ReviewItem?
    func previousPending(before: Work.ID) throws -> ReviewItem?
    func reviewItem(id: Work.ID) throws -> ReviewItem?
    /// The next pending Work after `after` (from the queue's head when nil, and round again past its end) that
    /// nobody else holds, claimed for `reviewer` until `lease` runs out, so two reviewers never get the same
    /// Work in front of them. A reviewer holds one Work at a time: claiming the next gives the last one back,
    /// as a decision on it does.
    func claimNextPending(reviewer: String, lease: TimeInterval, after: Work.ID?) throws -> ReviewItem?
    func saveCursor(_ workID: Work.ID?, session: String, date: Date) throws
    func cursor(session: String) throws -> Work.ID?
    func resumeItem(session: String) throws -> ReviewItem?
    func review(_ decision: ReviewDecision, defaults: ReviewDefaults, date: Date) throws -> DecisionReceipt
    func review(batch decisions: [ReviewDecision], summary: String, defaults: ReviewDefaults, date: Date) throws -> DecisionReceipt
    func reshape(_ workIDs: [Work.ID], into pieces: [SpinePiece], kind: String, expectedRevisions: [Work.ID: Int],
                 session: String, date: Date) throws -> ReshapeReceipt
    func pendingNeighbour(of id: Work.ID, toTheRight: Bool) throws -> Work?
    func pendingWorks(photoContentHash: String, row: Int?) throws -> [Work]
    /// Every Work filed from one photo, in spine order, whatever its status: a server answering a photo it saw before.
    func works(photoContentHash: String) throws -> [Work]
    /// The status of each Work that still exists; a rejected (deleted) one is absent.
    func reviewStatuses(ids: [Work.ID]) throws -> [Work.ID: ReviewStatus]
    /// Adds a Work as given (an import, a manual entry), validated; returns it with every ID filled.
    @discardableResult
    func add(_ work: Work) throws -> Work
    @discardableResult
    func update(_ work: Work) throws -> Work
    func undoLast(session: String?, date: Date) throws -> UndoReceipt
    func journal(limit: Int) throws -> [JournalEntry]
    /// Journal rows of these kinds not undone, oldest first: what `splitCorrections()` is made from.
    func liveJournal(kinds: [String]) throws -> [LiveJournalRow]
    func duplicateIndex() throws -> DuplicateIndex
    func duplicates(of work: Work, threshold: Double, limit: Int) throws -> [DuplicateCandidate]
    func cropURL(for work: Work) -> URL?

    // MARK: Library
    func stats() throws -> LibraryStats
    func appliedMigrations() throws -> [String]
    func exportCSV() throws -> String
    func exportLibrary() throws -> LibraryExport
    func importCSV(_ bytes: [UInt8], date: Date) throws -> ImportReport
    func importCSV(_ text: String, date: Date) throws -> ImportReport
    func importJSON(_ data: Data, date: Date) throws -> ImportReport

    // MARK: Copying between engines
    /// Every row of every table, and every crop, read in one transaction.
    func dump() throws -> LibraryDump
    /// Loads a dump into this empty library, IDs kept, in one transaction.
    func restore(_ dump: LibraryDump) throws
}

/// How long a reviewer holds the Work in front of them before others may take it, in the terminal and on the
/// review page alike: long enough to look a book up, short enough that one left open frees it within minutes.
public let reviewLease: TimeInterval = 600

/// The defaults `LibraryStore`'s methods have, for callers holding `any LibraryStoring`.
extension LibraryStoring {
    @discardableResult
    public func file(_ photo: PhotoFiling, replacePending: Bool = false) throws -> [Work.ID] {
        try file(photo, replacePending: replacePending, date: Date())
    }
    public func pendingSummaries(limit: Int? = nil) throws -> [WorkSummary] { try pendingSummaries(limit: limit, offset: 0) }
    public func librarySummaries(limit: Int? = nil) throws -> [WorkSummary] { try librarySummaries(limit: limit, offset: 0) }
    public func works() throws -> [Work] { try works(includePending: false) }
    public func nextPending(after: Work.ID? = nil) throws -> ReviewItem? { try nextPending(after: after, wrap: true) }
    public func claimNextPending(reviewer: String, lease: TimeInterval = reviewLease) throws -> ReviewItem? {
        try claimNextPending(reviewer: reviewer, lease: lease, after: nil)
    }
    public func saveCursor(_ workID: Work.ID?, session: String = "default") throws { try saveCursor(workID, session: session, date: Date()) }
    public func cursor() throws -> Work.ID? { try cursor(session: "default") }
    public func resumeItem() throws -> ReviewItem? { try resumeItem(session: "default") }
    @discardableResult
    public func review(_ decision: ReviewDecision, defaults: ReviewDefaults = ReviewDefaults()) throws -> DecisionReceipt {
        try review(decision, defaults: defaults, date: Date())
    }
    @discardableResult
    public func review(batch decisions: [ReviewDecision], summary: String, defaults: ReviewDefaults = ReviewDefaults()) throws -> DecisionReceipt {
        try review(batch: decisions, summary: summary, defaults: defaults, date: Date())
    }
    @discardableResult
    public func reshape(_ workIDs: [Work.ID], into pieces: [SpinePiece], kind: String, expectedRevisions: [Work.ID: Int] = [:],
                        session: String) throws -> ReshapeReceipt {
        try reshape(workIDs, into: pieces, kind: kind, expectedRevisions: expectedRevisions, session: session, date: Date())
    }
    public func pendingNeighbour(of id: Work.ID) throws -> Work? { try pendingNeighbour(of: id, toTheRight: true) }
    public func pendingWorks(photoContentHash: String) throws -> [Work] { try pendingWorks(photoContentHash: photoContentHash, row: nil) }
    public func duplicates(of work: Work, threshold: Double) throws -> [DuplicateCandidate] { try duplicates(of: work, threshold: threshold, limit: 5) }
    @discardableResult
    public func undoLast(session: String? = nil) throws -> UndoReceipt { try undoLast(session: session, date: Date()) }
    public func journal() throws -> [JournalEntry] { try journal(limit: 20) }
    public func duplicates(of work: Work) throws -> [DuplicateCandidate] { try duplicates(of: work, threshold: 0.75, limit: 5) }
    public func importCSV(_ bytes: [UInt8]) throws -> ImportReport { try importCSV(bytes, date: Date()) }
    public func importCSV(_ text: String) throws -> ImportReport { try importCSV(text, date: Date()) }
    public func importJSON(_ data: Data) throws -> ImportReport { try importJSON(data, date: Date()) }
}

extension Work {
    /// This Work as `add` stores it on either engine: refused unless complete enough for its status (a verified
    /// Work must be), and without an ID, so the store numbers it.
    public func readyToAdd() throws -> Work {
        let issues = validationIssues(forVerification: reviewStatus != .needsReview)
        if !issues.isEmpty { throw LibraryError.invalid(nil, ValidationError(issues)) }
        var w = self
        w.id = nil
        return w
    }
}
