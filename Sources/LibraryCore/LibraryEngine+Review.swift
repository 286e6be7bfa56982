import BookModel
import Foundation

/// Review decisions, undo, split and join, and edits outside review, on either engine. The team's rule rides
/// along: a Work another reviewer holds is refused (on SQLite nobody holds one).
extension LibraryEngine {
    /// Applies one review decision in one transaction, with its undo-journal row.
    /// - Throws: `LibraryError.conflict` when another session changed the Work since `expectedRevision`;
    ///   `.invalid` when an edit breaks a rule (nothing is written); `.notPending`, `.notFound`, `.claimedByOther`.
    @discardableResult
    public func review(_ decision: ReviewDecision, defaults: ReviewDefaults, date: Date) async throws -> DecisionReceipt {
        try await writingOnce { tx in
            let applied = try Self.apply(decision, defaults: defaults, date: date, in: tx)
            let journalID = try tx.appendJournal(JournalDraft(
                session: decision.session, kind: decision.action.kind, workID: decision.workID, summary: applied.summary,
                decidedAt: date, before: applied.snapshots, after: applied.after))
            return DecisionReceipt(journalID: journalID, workID: decision.workID, resultingWorkID: applied.resulting, summary: applied.summary)
        }
    }

    /// Many decisions as one: one transaction and one journal row, so one undo puts every Work back.
    /// Any decision that fails (a conflict, a rule broken) fails them all and nothing is written.
    /// - Parameter summary: what the journal and the undo message call the whole, e.g. "verified 12 of shelf 2".
    @discardableResult
    public func review(batch decisions: [ReviewDecision], summary: String, defaults: ReviewDefaults, date: Date) async throws -> DecisionReceipt {
        guard let first = decisions.first else { throw LibraryError.nothingToUndo }
        return try await writingOnce { tx in
            var snapshots: [Work] = []
            var after: [Work.ID: Int] = [:]
            for decision in decisions {
                let applied = try Self.apply(decision, defaults: defaults, date: date, in: tx)
                snapshots += applied.snapshots
                after.merge(applied.after) { $1 }
            }
            let journalID = try tx.appendJournal(JournalDraft(
                session: first.session, kind: "bulk", workID: first.workID, summary: summary, decidedAt: date,
                before: snapshots, after: after))
            return DecisionReceipt(journalID: journalID, workID: first.workID, resultingWorkID: nil, summary: summary)
        }
    }

    /// A live claim by another reviewer on `id` refuses the decision: two people never decide one Work.
    private static func requireNotClaimedByOther(_ id: Work.ID, session: String, in tx: Transaction) throws {
        if let other = try tx.otherReviewer(holding: id, session: session) { throw LibraryError.claimedByOther(id, reviewer: other) }
    }

    /// One decision inside the caller's transaction: the Works as they were, their revisions after, the
    /// Work left in the library, and the summary.
    private static func apply(_ decision: ReviewDecision, defaults: ReviewDefaults, date: Date, in tx: Transaction) throws
        -> (snapshots: [Work], after: [Work.ID: Int], resulting: Work.ID?, summary: String) {
        let id = decision.workID
        guard var work = try tx.loadWork(id, forUpdate: true) else { throw LibraryError.notFound(id) }
        if let expected = decision.expectedRevision, expected != work.revision {
            throw LibraryError.conflict(id, expected: expected, actual: work.revision)
        }
        try requireNotClaimedByOther(id, session: decision.session, in: tx)
        var snapshots = [work]
        var after: [Work.ID: Int] = [:]
        var resulting: Work.ID? = id
        let summary: String

        switch decision.action {
        case .verify:
            guard work.reviewStatus == .needsReview else { throw LibraryError.notPending(id, work.reviewStatus) }
            let issues = work.validationIssues(forVerification: true)
            if !issues.isEmpty { throw LibraryError.invalid(id, ValidationError(issues)) }
            work.reviewStatus = .verified
            work = try accept(work, defaults: defaults, statusChange: nil, date: date, in: tx)
            after[id] = work.revision
            summary = "verified “\(work.title)”"

        case let .edit(edit):
            try edit.apply(to: &work, date: date)
            work.reviewStatus = .userEdited
            let issues = work.validationIssues(forVerification: true)
            if !issues.isEmpty { throw LibraryError.invalid(id, ValidationError(issues)) }
            var d = defaults
            if let s = edit.readingStatus { d.readingStatus = s; if s == .wishlist { d.owned = false } }
            if let f = edit.format { d.format = f }
            work = try accept(work, defaults: d, statusChange: edit.readingStatus, date: date, in: tx)
            after[id] = work.revision
            summary = "edited “\(work.title)”"

        case .reject:
            guard work.reviewStatus == .needsReview else { throw LibraryError.notPending(id, work.reviewStatus) }
            try tx.deleteWork(id)
            resulting = nil
            summary = "rejected “\(work.title)”"

        case let .merge(targetID):
            guard targetID != id else { throw LibraryError.mergeIntoSelf(targetID) }
            guard var target = try tx.loadWork(targetID, forUpdate: true) else { throw LibraryError.notFound(targetID) }
            try requireNotClaimedByOther(targetID, session: decision.session, in: tx)
            snapshots.append(target)
            // The merged-away Work's editions move to the target; drop their IDs so they are re-created there.
            var incoming = work
            incoming.editions = incoming.editions.map { var e = $0; e.id = nil; return e }
            incoming.libraryEntry = nil
            try tx.deleteWork(id)
            target.absorb(incoming, at: date)
            if target.reviewStatus == .needsReview { target.reviewStatus = .verified }
            target = try accept(target, defaults: defaults, statusChange: nil, date: date, in: tx)
            after[targetID] = target.revision
            resulting = targetID
            summary = "merged “\(work.title)” into “\(target.title)” (#\(targetID))"
        }
        try tx.releaseReviewClaim(workID: id)
        return (snapshots, after, resulting, summary)
    }

    /// Puts a reviewed Work in the library (`ReviewDefaults.accept`); the edition gets its ID in the same
    /// save, and a new entry is linked to it there.
    private static func accept(_ work: Work, defaults: ReviewDefaults, statusChange: ReadingStatus?, date: Date, in tx: Transaction) throws -> Work {
        var w = work
        let ownFirstEdition = defaults.accept(&w, statusChange: statusChange, date: date)
        return try tx.saveWork(w, photoID: nil, bump: true, insertWithID: false, ownFirstEdition: ownFirstEdition)
    }

    /// Undoes the latest decision not yet undone (of `session`, or of anyone), putting every Work it touched
    /// back as it was, in one transaction.
    /// - Throws: `.nothingToUndo`; `.undoConflict` when a touched Work changed after that decision.
    @discardableResult
    public func undoLast(session: String?, date: Date) async throws -> UndoReceipt {
        try await writingOnce { tx in
            guard let entry = try tx.latestUndoable(session: session) else { throw LibraryError.nothingToUndo }
            let snapshots = try JSONDecoder().decode([Work].self, from: Data(entry.before.utf8))
            let after = try JSONDecoder().decode([String: Int].self, from: Data(entry.afterRevisions.utf8))
            for snapshot in snapshots {
                let id = snapshot.id!
                if try tx.revision(of: id, forUpdate: true) != after[String(id)] { throw LibraryError.undoConflict(id) }
            }
            // Works the decision created (the pieces of a split, the whole of a join) go again, unless
            // someone has changed them since.
            let snapshotIDs = Set(snapshots.compactMap(\.id))
            var created = 0
            for (key, revision) in after {
                guard let id = Int64(key), !snapshotIDs.contains(id) else { continue }
                if try tx.revision(of: id, forUpdate: true) != revision { throw LibraryError.undoConflict(id) }
                try tx.deleteWork(id)
                created += 1
            }
            for snapshot in snapshots where after[String(snapshot.id!)] != nil { try tx.deleteWork(snapshot.id!) }
            if let move = ShelfRowShift.reshape(snapshots, pieces: created) { try tx.shift(move.undone) }
            for snapshot in snapshots {
                var restored = snapshot
                restored.revision = (after[String(snapshot.id!)] ?? snapshot.revision + 1) + 1
                let photoID = try snapshot.spine.flatMap { try tx.photoID(contentHash: $0.photoContentHash) }
                _ = try tx.saveWork(restored, photoID: photoID, bump: false, insertWithID: true, ownFirstEdition: false)
                try Self.handOnRevision(of: snapshot, restoredAs: restored.revision, undoing: entry.id, tx)
            }
            try tx.markUndone(entry.id, at: date)
            return UndoReceipt(journalID: entry.id, summary: "undid: \(entry.summary)", restoredWorkIDs: snapshots.compactMap(\.id))
        }
    }

    /// The Work is back as the decision before left it, under a new revision (revisions only rise, so a page
    /// holding the undone state cannot write over the restored one). That earlier decision must stay undoable:
    /// its revision after becomes the new one, or a second undo on the same Work would be refused as if someone
    /// had changed it since. Only when nothing else changed the Work in between (its revision after is the
    /// snapshot's); an edit outside the journal still makes the earlier undo a conflict.
    private static func handOnRevision(of snapshot: Work, restoredAs revision: Int, undoing journalID: Int64,
                                _ tx: Transaction) throws {
        let id = snapshot.id!
        guard let (earlier, json) = try tx.latestLiveDecision(naming: id, before: journalID) else { return }
        var after = try JSONDecoder().decode([String: Int].self, from: Data(json.utf8))
        guard after[String(id)] == snapshot.revision else { return }
        after[String(id)] = revision
        try tx.setAfterRevisions(earlier, to: try encodeJSON(after))
    }

    /// Replaces pending Works by new pending ones drawn by the reviewer: a box that held two books becomes
    /// two, two boxes of one book become one. One transaction with its journal row, so undo removes the new
    /// Works and puts the old ones back (their crops are kept for that); the pieces' crops are kept in that
    /// transaction too, so a refusal leaves none behind.
    ///
    /// The new Works keep the photo, shelf row and reader of the first Work replaced, and take their
    /// places in the row in order.
    /// - Throws: `.notPending` when a Work was already decided, `.conflict` when one changed since
    ///   `expectedRevisions`, `.notFound`, `.claimedByOther`; nothing is written then.
    @discardableResult
    public func reshape(_ workIDs: [Work.ID], into pieces: [SpinePiece], kind: String, expectedRevisions: [Work.ID: Int],
                        session: String, date: Date) async throws -> ReshapeReceipt {
        guard let firstID = workIDs.first, !pieces.isEmpty else { throw LibraryError.notFound(workIDs.first ?? 0) }
        return try await writingOnce { tx in
            var originals: [Work] = []
            for id in workIDs {
                guard let work = try tx.loadWork(id, forUpdate: true) else { throw LibraryError.notFound(id) }
                guard work.reviewStatus == .needsReview else { throw LibraryError.notPending(id, work.reviewStatus) }
                if let expected = expectedRevisions[id], expected != work.revision {
                    throw LibraryError.conflict(id, expected: expected, actual: work.revision)
                }
                try Self.requireNotClaimedByOther(id, session: session, in: tx)
                originals.append(work)
            }
            let first = originals[0]
            let photoID = try tx.photoID(ofWork: firstID)
            for id in workIDs { try tx.deleteWork(id) }
            if let move = ShelfRowShift.reshape(originals, pieces: pieces.count) { try tx.shift(move) }
            var after: [Work.ID: Int] = [:]
            var created: [Work.ID] = []
            for (i, piece) in pieces.enumerated() {
                let crop = "edit-\(UUID().uuidString.prefix(12).lowercased()).jpg"
                let w = SpinePiece.work(piece, replacing: first, offset: i, cropFile: crop, date: date)
                let saved = try tx.saveWork(w, photoID: photoID, bump: false, insertWithID: false, ownFirstEdition: false)
                if w.spine != nil { try tx.storeCrop(piece.cropJPEG, named: crop, workID: saved.id!) }
                after[saved.id!] = saved.revision
                created.append(saved.id!)
            }
            let summary = kind == "split" ? "split “\(first.title)” into \(pieces.count) boxes" : "joined \(originals.count) boxes into one"
            let journalID = try tx.appendJournal(JournalDraft(session: session, kind: kind, workID: firstID, summary: summary,
                                                              decidedAt: date, before: originals, after: after))
            return ReshapeReceipt(journalID: journalID, replaced: workIDs, created: created, summary: summary)
        }
    }

    /// Adds a Work as given (an import, a manual entry), validated; returns it with every ID filled.
    @discardableResult
    public func add(_ work: Work) async throws -> Work {
        let w = try work.readyToAdd()
        return try await writing(replay: .never) { tx in
            try tx.saveWork(w, photoID: nil, bump: false, insertWithID: false, ownFirstEdition: false)
        }
    }

    /// Replaces a stored Work by this value (same ID), checking its revision: enrichment's write.
    @discardableResult
    public func update(_ work: Work) async throws -> Work {
        guard let id = work.id else { throw LibraryError.notFound(0) }
        return try await writingOnce { tx in
            guard let current = try tx.revision(of: id, forUpdate: true) else { throw LibraryError.notFound(id) }
            if current != work.revision { throw LibraryError.conflict(id, expected: work.revision, actual: current) }
            return try tx.saveWork(work, photoID: nil, bump: true, insertWithID: false, ownFirstEdition: false)
        }
    }
}
