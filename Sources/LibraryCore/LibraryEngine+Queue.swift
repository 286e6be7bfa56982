import BookModel
import Foundation

/// The review queue on either engine. Reading it holds nothing (`nextPending`, `previousPending`); taking a Work
/// to decide holds it (`claimNextPending`), so two reviewers of a shared library never get the same Work.
extension LibraryEngine {
    /// The next pending Work after `after` in queue order that no other reviewer holds, wrapping to the front
    /// (skipped ones come back). Holds nothing: see `claimNextPending` for that.
    public func nextPending(after: Work.ID?, wrap: Bool) async throws -> ReviewItem? {
        try await reading { tx in
            guard let id = try tx.pendingID(after: after ?? 0) ?? (wrap ? tx.pendingID(after: 0) : nil) else { return nil }
            return try Self.item(id, in: tx)
        }
    }

    /// The pending Work before `before` that no other reviewer holds, for stepping back through skipped ones.
    public func previousPending(before: Work.ID) async throws -> ReviewItem? {
        try await reading { tx in try tx.pendingID(before: before).flatMap { try Self.item($0, in: tx) } }
    }

    public func reviewItem(id: Work.ID) async throws -> ReviewItem? {
        try await reading { tx in try Self.item(id, in: tx) }
    }

    public func claimNextPending(reviewer: String, lease: TimeInterval, after: Work.ID?) async throws -> ReviewItem? {
        guard let id = try await claimPending(reviewer: reviewer, lease: lease, after: after) else { return nil }
        return try await reviewItem(id: id)
    }

    /// Where a session should start: the remembered Work if still pending, else the next one after it (decided
    /// meanwhile, by this reviewer or another), else the queue's start.
    public func resumeItem(session: String) async throws -> ReviewItem? {
        let id = try await cursor(session: session)
        if let id, let item = try await reviewItem(id: id), item.work.reviewStatus == .needsReview { return item }
        return try await nextPending(after: id, wrap: true)
    }

    /// Reviewed Works that `work` may duplicate (seed 004 rule 2), best first.
    public func duplicates(of work: Work, threshold: Double, limit: Int) async throws -> [DuplicateCandidate] {
        try await duplicateIndex().candidates(for: work, threshold: threshold, limit: limit)
    }

    private static func item(_ id: Work.ID, in tx: Transaction) throws -> ReviewItem? {
        guard let work = try tx.loadWork(id, forUpdate: false) else { return nil }
        let place = try tx.queuePlace(of: id)
        let onQueue = work.reviewStatus == .needsReview
        return ReviewItem(work: work, cropURL: tx.cropURL(for: work), queuePosition: onQueue ? place.before + 1 : 0,
                          pendingCount: place.pending, photoPosition: place.photoPosition, photoCount: place.photos)
    }
}
