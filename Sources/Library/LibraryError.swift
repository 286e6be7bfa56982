import BookModel

/// Everything the store can refuse, worded so the reviewer knows the next step. `code` is the short
/// machine-readable form used in the seed-004 error envelope.
public enum LibraryError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
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
            "Cannot open the library at \(path): \(reason.hasSuffix(".") ? String(reason.dropLast()) : reason). Check the path or pass --library PATH."
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
}
