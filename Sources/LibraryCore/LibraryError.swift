import BookModel

/// Everything the store can refuse, worded so the reviewer knows the next step. `code` is the short
/// machine-readable form used in the seed-004 error envelope.
///
/// A database's own failures are told apart by what the caller can do about them, on both engines alike:
/// wait (`busy`), look before trying again (`connectionLost`), change the request (`constraint`), or fix the
/// library's location or the server (`cannotOpen`, `databaseFailed`).
public enum LibraryError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    /// Another writer holds what this one needs (SQLite busy or locked; a PostgreSQL lock timeout,
    /// serialization failure or deadlock). Nothing was written, and the same request may succeed in a moment.
    case busy(location: String, reason: String)
    /// The database refused a write that breaks one of its rules (unique, foreign key, not null). Nothing was
    /// written, and the same request fails the same way again.
    case constraint(location: String, reason: String)
    /// The connection to the server went. `mayHaveBeenApplied`: it went while the change's COMMIT was on its way,
    /// so nobody can tell whether the server applied it, and doing it again blindly could do it twice.
    case connectionLost(location: String, mayHaveBeenApplied: Bool)
    /// Any other failure of the database on a statement (disk full, I/O error, a read-only file).
    case databaseFailed(location: String, reason: String)
    case notFound(Work.ID)
    case notPending(Work.ID, ReviewStatus)
    /// Another session changed the Work after this one read it.
    case conflict(Work.ID, expected: Int, actual: Int)
    case invalid(Work.ID?, ValidationError)
    case mergeIntoSelf(Work.ID)
    case nothingToUndo
    case undoConflict(Work.ID)
    case cropNotWritten(path: String, reason: String)
    case importFailed(String)
    /// Another reviewer holds the Work (a claim with an expiry, on a shared library).
    case claimedByOther(Work.ID, reviewer: String)

    public var code: String {
        switch self {
        case .cannotOpen: "LIBRARY_UNAVAILABLE"
        case .busy: "LIBRARY_BUSY"
        case .constraint: "CONSTRAINT_VIOLATION"
        case .connectionLost: "CONNECTION_LOST"
        case .databaseFailed: "DATABASE_ERROR"
        case .notFound: "NOT_FOUND"
        case .notPending: "NOT_PENDING"
        case .conflict: "CONFLICT"
        case .invalid: "INVALID"
        case .mergeIntoSelf: "INVALID"
        case .nothingToUndo: "NOTHING_TO_UNDO"
        case .undoConflict: "CONFLICT"
        case .cropNotWritten: "CROP_NOT_WRITTEN"
        case .importFailed: "IMPORT_FAILED"
        case .claimedByOther: "CONFLICT"
        }
    }

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason):
            "Cannot open the library at \(path): \(Self.clause(reason)). Check the path or pass --library PATH."
        case let .busy(location, reason):
            "The library at \(location) is busy with another writer (\(Self.clause(reason))); nothing was written. Try again in a moment."
        case let .constraint(location, reason):
            "The library at \(location) refused the change, which breaks one of its rules (\(Self.clause(reason))); nothing was written."
        case let .connectionLost(location, mayHaveBeenApplied):
            mayHaveBeenApplied
                ? "The connection to the library at \(location) was lost after the change was sent: it may have been applied. Look before doing it again."
                : "The connection to the library at \(location) was lost; nothing was written. Try again when the server is back."
        case let .databaseFailed(location, reason):
            "The library at \(location) failed: \(Self.clause(reason)). Check the server's or the disk's health."
        case let .notFound(id): "No work with ID \(id). List them with `shelfscan review list` or `shelfscan library list`."
        case let .notPending(id, status): "Work \(id) is already \(status.rawValue), not waiting for review."
        case let .conflict(id, expected, actual):
            "Work \(id) was changed by another session (revision \(actual), you saw \(expected)). Look at it again and decide."
        case let .invalid(id, error): "\(id.map { "Work \($0): " } ?? "")\(error.description)"
        case let .mergeIntoSelf(id): "Work \(id) cannot be merged into itself. Pick another work."
        case .nothingToUndo: "Nothing to undo."
        case let .undoConflict(id): "Work \(id) changed after that decision, so it cannot be undone automatically. Edit it instead."
        case let .cropNotWritten(path, reason): "Cannot write the spine crop \(path): \(reason). Check free space and permissions."
        case let .importFailed(reason): "Import failed: \(reason)"
        case let .claimedByOther(id, reviewer):
            "Work \(id) is being reviewed by \(reviewer) right now. Take the next one; it comes back if they leave it."
        }
    }

    /// A database's message as part of a sentence: without its own closing full stop.
    private static func clause(_ reason: String) -> String { reason.hasSuffix(".") ? String(reason.dropLast()) : reason }
}
