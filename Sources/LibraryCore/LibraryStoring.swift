import BookModel
import Foundation

/// The library as callers see it (scan, review, library, match, serve): one interface, two engines.
///
/// `LibraryStore` (SQLite through GRDB) is the embedded default; `PostgresLibraryStore` (in `LibraryPostgres`)
/// is the same library on a PostgreSQL server shared by a team. Every write is one transaction on both, and every
/// rule (deciding, undo, split and join, filing, imports, the queue) is the same code on both (`LibraryEngine`).
/// Every call that reads or writes the library is `async`: the caller awaits the database, it never holds a thread
/// waiting for it (SQLite's transactions run on GRDB's queue, PostgreSQL's on the store's own threads).
/// Open one with `LibraryOpener` (in `ShelfScanCLI`), which takes a path or a `postgres://` URL.
public protocol LibraryStoring: AnyObject, Sendable {
    /// The database file, or nil for an in-memory or server library.
    var path: String? { get }
    /// Where spine crops are read from: beside the SQLite file, or a local cache of the server's crops.
    var cropsDirectory: URL { get }
    /// Where the library lives, for messages: a path or a URL without its password.
    var locationDescription: String { get }

    // MARK: Filing (scan workers)
    func photoStatus(contentHash: String) async throws -> FiledPhotoStatus?
    @discardableResult
    func file(_ photo: PhotoFiling, replacePending: Bool, date: Date) async throws -> [Work.ID]
    /// Claims a photo for this worker until `lease` runs out, so several workers on one folder share the photos.
    /// - Returns: false when another live worker holds it (skip the photo; that worker files it).
    func claimPhoto(contentHash: String, worker: String, lease: TimeInterval) async throws -> Bool
    /// Gives a claim back early (the photo failed, or was filed).
    func releasePhoto(contentHash: String, worker: String) async throws

    // MARK: Review queue and decisions
    func pendingCount() async throws -> Int
    func pendingSummaries(limit: Int?, offset: Int) async throws -> [WorkSummary]
    func librarySummaries(limit: Int?, offset: Int) async throws -> [WorkSummary]
    func work(id: Work.ID) async throws -> Work?
    func works(includePending: Bool) async throws -> [Work]
    /// The next pending Work after `after` that no other reviewer holds, wrapping to the queue's front when
    /// `wrap`. A read on both engines: it holds nothing (`claimNextPending` does).
    func nextPending(after: Work.ID?, wrap: Bool) async throws -> ReviewItem?
    func previousPending(before: Work.ID) async throws -> ReviewItem?
    func reviewItem(id: Work.ID) async throws -> ReviewItem?
    /// The next pending Work after `after` (from the queue's head when nil, and round again past its end) that
    /// nobody else holds, claimed for `reviewer` until `lease` runs out, so two reviewers never get the same
    /// Work in front of them. A reviewer holds one Work at a time: claiming the next gives the last one back,
    /// as a decision on it does.
    func claimNextPending(reviewer: String, lease: TimeInterval, after: Work.ID?) async throws -> ReviewItem?
    func saveCursor(_ workID: Work.ID?, session: String, date: Date) async throws
    func cursor(session: String) async throws -> Work.ID?
    func resumeItem(session: String) async throws -> ReviewItem?
    func review(_ decision: ReviewDecision, defaults: ReviewDefaults, date: Date) async throws -> DecisionReceipt
    func review(batch decisions: [ReviewDecision], summary: String, defaults: ReviewDefaults, date: Date) async throws -> DecisionReceipt
    func reshape(_ workIDs: [Work.ID], into pieces: [SpinePiece], kind: String, expectedRevisions: [Work.ID: Int],
                 session: String, date: Date) async throws -> ReshapeReceipt
    func pendingNeighbour(of id: Work.ID, toTheRight: Bool) async throws -> Work?
    func pendingWorks(photoContentHash: String, row: Int?) async throws -> [Work]
    /// Every Work filed from one photo, in spine order, whatever its status: a server answering a photo it saw before.
    func works(photoContentHash: String) async throws -> [Work]
    /// The status of each Work that still exists; a rejected (deleted) one is absent.
    func reviewStatuses(ids: [Work.ID]) async throws -> [Work.ID: ReviewStatus]
    /// Adds a Work as given (an import, a manual entry), validated; returns it with every ID filled.
    @discardableResult
    func add(_ work: Work) async throws -> Work
    @discardableResult
    func update(_ work: Work) async throws -> Work
    func undoLast(session: String?, date: Date) async throws -> UndoReceipt
    func journal(limit: Int) async throws -> [JournalEntry]
    /// Journal rows of these kinds not undone, oldest first: what `splitCorrections()` is made from.
    func liveJournal(kinds: [String]) async throws -> [LiveJournalRow]
    func duplicateIndex() async throws -> DuplicateIndex
    func duplicates(of work: Work, threshold: Double, limit: Int) async throws -> [DuplicateCandidate]
    func cropURL(for work: Work) async -> URL?

    // MARK: Library
    func stats() async throws -> LibraryStats
    func appliedMigrations() async throws -> [String]
    func exportCSV() async throws -> String
    func exportLibrary() async throws -> LibraryExport
    func importCSV(_ bytes: [UInt8], date: Date) async throws -> ImportReport
    func importCSV(_ text: String, date: Date) async throws -> ImportReport
    func importJSON(_ data: Data, date: Date) async throws -> ImportReport

    // MARK: Copying between engines
    /// Every row of every table, and every crop, read in one transaction.
    func dump() async throws -> LibraryDump
    /// Loads a dump into this empty library, IDs kept, in one transaction.
    func restore(_ dump: LibraryDump) async throws
}

/// How long a reviewer holds the Work in front of them before others may take it, in the terminal and on the
/// review page alike: long enough to look a book up, short enough that one left open frees it within minutes.
public let reviewLease: TimeInterval = 600

/// The defaults `LibraryStore`'s methods have, for callers holding `any LibraryStoring`.
extension LibraryStoring {
    @discardableResult
    public func file(_ photo: PhotoFiling, replacePending: Bool = false) async throws -> [Work.ID] {
        try await file(photo, replacePending: replacePending, date: Date())
    }
    public func pendingSummaries(limit: Int? = nil) async throws -> [WorkSummary] { try await pendingSummaries(limit: limit, offset: 0) }
    public func librarySummaries(limit: Int? = nil) async throws -> [WorkSummary] { try await librarySummaries(limit: limit, offset: 0) }
    public func works() async throws -> [Work] { try await works(includePending: false) }
    public func nextPending(after: Work.ID? = nil) async throws -> ReviewItem? { try await nextPending(after: after, wrap: true) }
    public func claimNextPending(reviewer: String, lease: TimeInterval = reviewLease) async throws -> ReviewItem? {
        try await claimNextPending(reviewer: reviewer, lease: lease, after: nil)
    }
    public func saveCursor(_ workID: Work.ID?, session: String = "default") async throws { try await saveCursor(workID, session: session, date: Date()) }
    public func cursor() async throws -> Work.ID? { try await cursor(session: "default") }
    public func resumeItem() async throws -> ReviewItem? { try await resumeItem(session: "default") }
    @discardableResult
    public func review(_ decision: ReviewDecision, defaults: ReviewDefaults = ReviewDefaults()) async throws -> DecisionReceipt {
        try await review(decision, defaults: defaults, date: Date())
    }
    @discardableResult
    public func review(batch decisions: [ReviewDecision], summary: String, defaults: ReviewDefaults = ReviewDefaults()) async throws -> DecisionReceipt {
        try await review(batch: decisions, summary: summary, defaults: defaults, date: Date())
    }
    @discardableResult
    public func reshape(_ workIDs: [Work.ID], into pieces: [SpinePiece], kind: String, expectedRevisions: [Work.ID: Int] = [:],
                        session: String) async throws -> ReshapeReceipt {
        try await reshape(workIDs, into: pieces, kind: kind, expectedRevisions: expectedRevisions, session: session, date: Date())
    }
    public func pendingNeighbour(of id: Work.ID) async throws -> Work? { try await pendingNeighbour(of: id, toTheRight: true) }
    public func pendingWorks(photoContentHash: String) async throws -> [Work] { try await pendingWorks(photoContentHash: photoContentHash, row: nil) }
    public func duplicates(of work: Work, threshold: Double) async throws -> [DuplicateCandidate] { try await duplicates(of: work, threshold: threshold, limit: 5) }
    @discardableResult
    public func undoLast(session: String? = nil) async throws -> UndoReceipt { try await undoLast(session: session, date: Date()) }
    public func journal() async throws -> [JournalEntry] { try await journal(limit: 20) }
    public func duplicates(of work: Work) async throws -> [DuplicateCandidate] { try await duplicates(of: work, threshold: 0.75, limit: 5) }
    public func importCSV(_ bytes: [UInt8]) async throws -> ImportReport { try await importCSV(bytes, date: Date()) }
    public func importCSV(_ text: String) async throws -> ImportReport { try await importCSV(text, date: Date()) }
    public func importJSON(_ data: Data) async throws -> ImportReport { try await importJSON(data, date: Date()) }
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
