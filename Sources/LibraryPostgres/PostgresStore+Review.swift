import BookModel
import Foundation
import Library
import PostgresNIO

/// Review decisions, undo, split and join, and edits outside review: the SQLite store's rules (its
/// `LibraryStore+Review` and `+Reshape`), plus the team's one: a Work another reviewer holds is refused.
extension PostgresLibraryStore {
    public func review(_ decision: ReviewDecision, defaults: ReviewDefaults, date: Date) throws -> DecisionReceipt {
        try transactionOnce {
            let applied = try applyDecision(decision, defaults: defaults, date: date)
            let journalID = try journal(session: decision.session, kind: decision.action.journalKind, workID: decision.workID,
                                        summary: applied.summary, date: date, before: applied.snapshots, after: applied.after)
            return DecisionReceipt(journalID: journalID, workID: decision.workID, resultingWorkID: applied.resulting, summary: applied.summary)
        }
    }

    public func review(batch decisions: [ReviewDecision], summary: String, defaults: ReviewDefaults, date: Date) throws -> DecisionReceipt {
        guard let first = decisions.first else { throw LibraryError.nothingToUndo }
        return try transactionOnce {
            var snapshots: [Work] = []
            var after: [Work.ID: Int] = [:]
            for decision in decisions {
                let applied = try applyDecision(decision, defaults: defaults, date: date)
                snapshots += applied.snapshots
                after.merge(applied.after) { $1 }
            }
            let journalID = try journal(session: first.session, kind: "bulk", workID: first.workID, summary: summary, date: date,
                                        before: snapshots, after: after)
            return DecisionReceipt(journalID: journalID, workID: first.workID, resultingWorkID: nil, summary: summary)
        }
    }

    private func journal(session: String, kind: String, workID: Int64, summary: String, date: Date, before: [Work],
                         after: [Work.ID: Int]) throws -> Int64 {
        let afterJSON = try Self.json(after.reduce(into: [String: Int]()) { $0[String($1.key)] = $1.value })
        return try scalar("""
            INSERT INTO journal (session, kind, workId, summary, decidedAt, before, afterRevisions)
            VALUES (\(session), \(kind), \(workID), \(summary), \(date), \(try Self.json(before)), \(afterJSON))
            RETURNING id
            """, as: Int64.self)!
    }

    /// A live claim by another reviewer on `id` refuses the decision: two people never decide one Work.
    private func requireNotClaimedByOther(_ id: Int64, session: String) throws {
        if let other = try scalar("""
            SELECT reviewer FROM reviewClaim WHERE workId = \(id) AND expiresAt > now()
              AND reviewer != \(session) AND reviewer != \(holder)
            """, as: String.self) {
            throw LibraryError.claimedByOther(id, reviewer: other)
        }
    }

    private func applyDecision(_ decision: ReviewDecision, defaults: ReviewDefaults, date: Date) throws
        -> (snapshots: [Work], after: [Work.ID: Int], resulting: Work.ID?, summary: String) {
        let id = decision.workID
        guard var work = try loadWork(id, lock: true) else { throw LibraryError.notFound(id) }
        if let expected = decision.expectedRevision, expected != work.revision {
            throw LibraryError.conflict(id, expected: expected, actual: work.revision)
        }
        try requireNotClaimedByOther(id, session: decision.session)
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
            work = try accept(work, defaults: defaults, statusChange: nil, date: date)
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
            work = try accept(work, defaults: d, statusChange: edit.readingStatus, date: date)
            after[id] = work.revision
            summary = "edited “\(work.title)”"

        case .reject:
            guard work.reviewStatus == .needsReview else { throw LibraryError.notPending(id, work.reviewStatus) }
            try deleteWork(id)
            resulting = nil
            summary = "rejected “\(work.title)”"

        case let .merge(targetID):
            guard targetID != id else { throw LibraryError.mergeIntoSelf(targetID) }
            guard var target = try loadWork(targetID, lock: true) else { throw LibraryError.notFound(targetID) }
            try requireNotClaimedByOther(targetID, session: decision.session)
            snapshots.append(target)
            // The merged-away Work's editions move to the target; drop their IDs so they are re-created there.
            var incoming = work
            incoming.editions = incoming.editions.map { var e = $0; e.id = nil; return e }
            incoming.libraryEntry = nil
            try deleteWork(id)
            target.absorb(incoming, at: date)
            if target.reviewStatus == .needsReview { target.reviewStatus = .verified }
            target = try accept(target, defaults: defaults, statusChange: nil, date: date)
            after[targetID] = target.revision
            resulting = targetID
            summary = "merged “\(work.title)” into “\(target.title)” (#\(targetID))"
        }
        try query("DELETE FROM reviewClaim WHERE workId = \(id)")
        return (snapshots, after, resulting, summary)
    }

    /// Puts a reviewed Work in the library, by the rule both stores share (`ReviewDefaults.accept`).
    private func accept(_ work: Work, defaults: ReviewDefaults, statusChange: ReadingStatus?, date: Date) throws -> Work {
        var w = work
        let ownFirstEdition = defaults.accept(&w, statusChange: statusChange, date: date)
        return try saveWork(w, bump: true, ownFirstEdition: ownFirstEdition)
    }

    public func undoLast(session: String?, date: Date) throws -> UndoReceipt {
        try transactionOnce {
            // The journal row is locked, so two people pressing undo at once undo two decisions, not one twice.
            guard let row = try query("""
                SELECT id, summary, before, afterRevisions FROM journal
                WHERE undoneAt IS NULL AND (\(session)::text IS NULL OR session = \(session))
                ORDER BY id DESC LIMIT 1 FOR UPDATE
                """).first else { throw LibraryError.nothingToUndo }
            let (entryID, summary, beforeJSON, afterJSON) = try row.decode((Int64, String, String, String).self)
            let snapshots = try JSONDecoder().decode([Work].self, from: Data(beforeJSON.utf8))
            let after = try JSONDecoder().decode([String: Int].self, from: Data(afterJSON.utf8))
            func revision(_ id: Int64) throws -> Int? { try scalar("SELECT revision FROM work WHERE id = \(id) FOR UPDATE", as: Int.self) }
            for snapshot in snapshots {
                let id = snapshot.id!
                if try revision(id) != after[String(id)] { throw LibraryError.undoConflict(id) }
            }
            // Works the decision created (the pieces of a split, the whole of a join) go again, unless
            // someone has changed them since.
            let snapshotIDs = Set(snapshots.compactMap(\.id))
            var created = 0
            for (key, rev) in after {
                guard let id = Int64(key), !snapshotIDs.contains(id) else { continue }
                if try revision(id) != rev { throw LibraryError.undoConflict(id) }
                try deleteWork(id)
                created += 1
            }
            for snapshot in snapshots where after[String(snapshot.id!)] != nil { try deleteWork(snapshot.id!) }
            try ShelfRowShift.reshape(snapshots, pieces: created).map { try shift($0.undone) }
            for snapshot in snapshots {
                var restored = snapshot
                restored.revision = (after[String(snapshot.id!)] ?? snapshot.revision + 1) + 1
                let photoId = try snapshot.spine.flatMap {
                    try scalar("SELECT id FROM photo WHERE contentHash = \($0.photoContentHash)", as: Int64.self)
                }
                try saveWork(restored, photoId: photoId, bump: false, insertWithID: true)
            }
            try query("UPDATE journal SET undoneAt = \(date) WHERE id = \(entryID)")
            return UndoReceipt(journalID: entryID, summary: "undid: \(summary)", restoredWorkIDs: snapshots.compactMap(\.id))
        }
    }

    /// Replaces pending Works by the boxes a reviewer drew (a split or a join), in one transaction with its
    /// journal row; the pieces' crops are stored in that transaction too, so a refusal leaves none behind.
    public func reshape(_ workIDs: [Work.ID], into pieces: [SpinePiece], kind: String, expectedRevisions: [Work.ID: Int],
                        session: String, date: Date) throws -> ReshapeReceipt {
        guard let firstID = workIDs.first, !pieces.isEmpty else { throw LibraryError.notFound(workIDs.first ?? 0) }
        return try transactionOnce {
            var originals: [Work] = []
            for id in workIDs {
                guard let work = try loadWork(id, lock: true) else { throw LibraryError.notFound(id) }
                guard work.reviewStatus == .needsReview else { throw LibraryError.notPending(id, work.reviewStatus) }
                if let expected = expectedRevisions[id], expected != work.revision {
                    throw LibraryError.conflict(id, expected: expected, actual: work.revision)
                }
                try requireNotClaimedByOther(id, session: session)
                originals.append(work)
            }
            let first = originals[0]
            let photoId = try scalar("SELECT photoId FROM work WHERE id = \(firstID)", as: Int64?.self) ?? nil
            for id in workIDs { try deleteWork(id) }
            try ShelfRowShift.reshape(originals, pieces: pieces.count).map { try shift($0) }
            var after: [String: Int] = [:]
            var created: [Work.ID] = []
            for (i, piece) in pieces.enumerated() {
                let w = SpinePiece.work(piece, replacing: first, offset: i,
                                        cropFile: "edit-\(UUID().uuidString.prefix(12).lowercased()).jpg", date: date)
                let saved = try saveWork(w, photoId: photoId, bump: false)
                if w.spine != nil { try storeCrop(piece.cropJPEG, workID: saved.id!) }
                after[String(saved.id!)] = saved.revision
                created.append(saved.id!)
            }
            let summary = kind == "split" ? "split “\(first.title)” into \(pieces.count) boxes" : "joined \(originals.count) boxes into one"
            let journalID = try scalar("""
                INSERT INTO journal (session, kind, workId, summary, decidedAt, before, afterRevisions)
                VALUES (\(session), \(kind), \(firstID), \(summary), \(date), \(try Self.json(originals)), \(try Self.json(after)))
                RETURNING id
                """, as: Int64.self)!
            return ReshapeReceipt(journalID: journalID, replaced: workIDs, created: created, summary: summary)
        }
    }

    @discardableResult
    public func add(_ work: Work) throws -> Work {
        let w = try work.readyToAdd()
        return try transaction { try saveWork(w, bump: false) }
    }

    /// Moves a shelf row's places by the library's rule (`ShelfRowShift`), as the SQLite store does.
    private func shift(_ move: ShelfRowShift) throws {
        try query("""
            UPDATE work SET spinePosition = spinePosition + \(move.by)
            WHERE photoContentHash = \(move.photoContentHash) AND spineRow = \(move.row) AND spinePosition > \(move.after)
            """)
    }

    /// Replaces a stored Work by this value (same ID), checking its revision: enrichment's write.
    @discardableResult
    public func update(_ work: Work) throws -> Work {
        guard let id = work.id else { throw LibraryError.notFound(0) }
        return try transactionOnce {
            guard let current = try scalar("SELECT revision FROM work WHERE id = \(id) FOR UPDATE", as: Int.self) else {
                throw LibraryError.notFound(id)
            }
            if current != work.revision { throw LibraryError.conflict(id, expected: work.revision, actual: current) }
            return try saveWork(work)
        }
    }
}
