import BookModel

/// Corrections typed by the reviewer; nil leaves a field as it is.
public struct WorkEdit: Sendable, Equatable {
    public var title: String?
    public var authors: [String]?
    /// An empty string removes the ISBN.
    public var isbn: String?
    public var firstPublicationYear: Int?
    public var readingStatus: ReadingStatus?
    public var format: EditionFormat?
    /// A provider's record the reviewer took from search: its IDs, edition, year and subjects join the Work
    /// in the same decision (and the same undo) as the title and authors typed or taken.
    public var enrichment: EnrichmentRecord?

    public init(title: String? = nil, authors: [String]? = nil, isbn: String? = nil, firstPublicationYear: Int? = nil,
                readingStatus: ReadingStatus? = nil, format: EditionFormat? = nil, enrichment: EnrichmentRecord? = nil) {
        self.title = title; self.authors = authors; self.isbn = isbn; self.firstPublicationYear = firstPublicationYear
        self.readingStatus = readingStatus; self.format = format; self.enrichment = enrichment
    }
}

extension WorkEdit {
    /// Applies the corrections to `work`, checking each against the rules (both engines decide through here).
    /// - Throws: `LibraryError.invalid` listing every broken rule.
    public func apply(to work: inout Work, date: Date) throws {
        let edit = self
        var issues: [ValidationIssue] = []
        // First, so what the reviewer typed or took below has the last word over the provider's record.
        if let record = edit.enrichment { work.applyEnrichment(record, replaceTitle: false, at: date) }
        if let title = edit.title {
            if let issue = Rules.title(title) { issues.append(issue) } else { work.title = title.trimmingCharacters(in: .whitespacesAndNewlines) }
        }
        if let authors = edit.authors {
            let names = authors.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            if let issue = Rules.authors(names, required: true) { issues.append(issue) } else { work.setAuthorNames(names, at: date) }
        }
        if let isbn = edit.isbn {
            if isbn.trimmingCharacters(in: .whitespaces).isEmpty {
                for i in work.editions.indices { work.editions[i].isbn = nil; work.editions[i].isbns = [] }
            } else if let issue = Rules.isbn(isbn) {
                issues.append(issue)
            } else if let n = ISBN.normalize(isbn) {
                if work.editions.isEmpty { work.editions = [Edition(isbn: n, format: edit.format ?? .paperback, dateCreated: date)] }
                else if !work.editions[0].hasISBN(n) {
                    work.editions[0].isbns = [n]
                    work.editions[0].isbn = n
                    work.editions[0].touch(at: date)
                }
            }
        }
        if let year = edit.firstPublicationYear {
            if year < 0 || year > 2100 { issues.append(ValidationIssue(field: "year", message: "must be a year like 1965")) }
            else { work.firstPublicationYear = year }
        }
        if let format = edit.format { for i in work.editions.indices { work.editions[i].format = format } }
        if !issues.isEmpty { throw LibraryError.invalid(work.id, ValidationError(issues)) }
        work.touch(at: date)
    }
}

public enum ReviewAction: Sendable, Equatable {
    /// The reading is right: the Work becomes `verified` and enters the library.
    case verify
    /// The reading was corrected: `userEdited`, validated, and in the library.
    case edit(WorkEdit)
    /// Not a book (or not wanted): removed from the queue. Undo brings it back.
    case reject
    /// The same book as a Work already in the library: that Work gains this one's IDs and editions.
    case merge(into: Work.ID)

    var kind: String {
        switch self {
        case .verify: "verify"
        case .edit: "edit"
        case .reject: "reject"
        case .merge: "merge"
        }
    }
}

public struct ReviewDecision: Sendable, Equatable {
    public var workID: Work.ID
    public var action: ReviewAction
    /// The revision the reviewer saw; nil skips the check (scripts deciding by ID alone).
    public var expectedRevision: Int?
    /// Names the session in the journal, so a session can undo its own decisions.
    public var session: String

    public init(workID: Work.ID, action: ReviewAction, expectedRevision: Int? = nil, session: String = "cli") {
        self.workID = workID; self.action = action; self.expectedRevision = expectedRevision; self.session = session
    }
}

/// What verifying puts in the library. A spine on a shelf is a book the reader owns, not yet read; both are
/// configurable (`review --status`, `--wishlist`).
public struct ReviewDefaults: Sendable, Equatable {
    public var readingStatus: ReadingStatus
    /// false files verified books as wishlist entries (no edition).
    public var owned: Bool
    /// The format given to the edition created for an owned copy when nothing better is known.
    public var format: EditionFormat

    public init(readingStatus: ReadingStatus = .toRead, owned: Bool = true, format: EditionFormat = .paperback) {
        self.readingStatus = readingStatus; self.owned = owned; self.format = format
    }
}

public struct DecisionReceipt: Sendable, Equatable, Codable {
    public var journalID: Int64
    public var workID: Work.ID
    /// The Work the decision leaves in the library (the merge target for a merge; nil for a reject).
    public var resultingWorkID: Work.ID?
    public var summary: String

    public init(journalID: Int64, workID: Work.ID, resultingWorkID: Work.ID?, summary: String) {
        self.journalID = journalID; self.workID = workID; self.resultingWorkID = resultingWorkID; self.summary = summary
    }
}

public struct JournalEntry: Sendable, Equatable {
    public var id: Int64
    public var session: String
    public var kind: String
    public var workID: Work.ID
    public var summary: String
    public var decidedAt: Date
    public var undone: Bool

    public init(id: Int64, session: String, kind: String, workID: Work.ID, summary: String, decidedAt: Date, undone: Bool) {
        self.id = id; self.session = session; self.kind = kind; self.workID = workID; self.summary = summary
        self.decidedAt = decidedAt; self.undone = undone
    }
}

public struct UndoReceipt: Sendable, Equatable, Codable {
    public var journalID: Int64
    public var summary: String
    /// The Works put back as they were; the first is the one the decision was about.
    public var restoredWorkIDs: [Work.ID]

    public init(journalID: Int64, summary: String, restoredWorkIDs: [Work.ID]) {
        self.journalID = journalID; self.summary = summary; self.restoredWorkIDs = restoredWorkIDs
    }
}

import Foundation

extension ReviewDefaults {
    /// Makes `work` a reviewed library book, as both stores file one: an owned copy (an edition, created if the
    /// spine gave none) or a wishlist entry, unless it already has an entry. An existing entry keeps its reading
    /// status unless the decision names one (`statusChange`); an owned copy is never moved to the wishlist.
    /// - Returns: whether a new owned entry was made, whose first edition the save must link to it.
    public func accept(_ work: inout Work, statusChange: ReadingStatus?, date: Date) -> Bool {
        work.touch(at: date)
        guard work.libraryEntry == nil else {
            if let status = statusChange, var entry = work.libraryEntry, entry.readingStatus != status,
               !(status == .wishlist && entry.isOwned) {
                entry.setStatus(status, at: date)
                work.libraryEntry = entry
            }
            return false
        }
        if owned && work.editions.isEmpty { work.editions = [Edition(format: format, dateCreated: date)] }
        var entry = owned ? UserLibraryEntry(readingStatus: .toRead, dateAdded: date) : .createWishlistEntry(at: date)
        if owned && readingStatus != .toRead { entry.setStatus(readingStatus == .wishlist ? .toRead : readingStatus, at: date) }
        work.libraryEntry = entry
        return owned
    }
}
