import BookModel
import Foundation
import GRDB

extension LibraryStore {
    /// Applies one review decision in one transaction, with its undo-journal row.
    /// - Throws: `LibraryError.conflict` when another session changed the Work since `expectedRevision`;
    ///   `.invalid` when an edit breaks a rule (nothing is written); `.notPending`, `.notFound`.
    @discardableResult
    public func review(_ decision: ReviewDecision, defaults: ReviewDefaults = ReviewDefaults(), date: Date = Date()) throws -> DecisionReceipt {
        try run { db in
            let applied = try applyDecision(db, decision, defaults: defaults, date: date)
            var journal = JournalRecord(id: nil, session: decision.session, kind: decision.action.kind, workId: decision.workID,
                                        summary: applied.summary, decidedAt: date, before: try encodeJSON(applied.snapshots),
                                        afterRevisions: try encodeJSON(applied.after.reduce(into: [String: Int]()) { $0[String($1.key)] = $1.value }),
                                        undoneAt: nil)
            try journal.insert(db)
            return DecisionReceipt(journalID: journal.id!, workID: decision.workID, resultingWorkID: applied.resulting, summary: applied.summary)
        }
    }

    /// Many decisions as one: one transaction and one journal row, so one undo puts every Work back.
    /// Any decision that fails (a conflict, a rule broken) fails them all and nothing is written.
    /// - Parameter summary: what the journal and the undo message call the whole, e.g. "verified 12 of shelf 2".
    @discardableResult
    public func review(batch decisions: [ReviewDecision], summary: String, defaults: ReviewDefaults = ReviewDefaults(),
                       date: Date = Date()) throws -> DecisionReceipt {
        guard let first = decisions.first else { throw LibraryError.nothingToUndo }
        return try run { db in
            var snapshots: [Work] = []
            var after: [Work.ID: Int] = [:]
            for decision in decisions {
                let applied = try applyDecision(db, decision, defaults: defaults, date: date)
                snapshots += applied.snapshots
                after.merge(applied.after) { $1 }
            }
            var journal = JournalRecord(id: nil, session: first.session, kind: "bulk", workId: first.workID,
                                        summary: summary, decidedAt: date, before: try encodeJSON(snapshots),
                                        afterRevisions: try encodeJSON(after.reduce(into: [String: Int]()) { $0[String($1.key)] = $1.value }),
                                        undoneAt: nil)
            try journal.insert(db)
            return DecisionReceipt(journalID: journal.id!, workID: first.workID, resultingWorkID: nil, summary: summary)
        }
    }

    /// One decision inside the caller's transaction: the Works as they were, their revisions after, the
    /// Work left in the library, and the summary.
    private func applyDecision(_ db: Database, _ decision: ReviewDecision, defaults: ReviewDefaults, date: Date) throws
        -> (snapshots: [Work], after: [Work.ID: Int], resulting: Work.ID?, summary: String) {
            guard var work = try WorkGraph.load(db, id: decision.workID) else { throw LibraryError.notFound(decision.workID) }
            if let expected = decision.expectedRevision, expected != work.revision {
                throw LibraryError.conflict(decision.workID, expected: expected, actual: work.revision)
            }
            let before = work
            var snapshots = [before]
            var after: [Work.ID: Int] = [:]
            var resulting: Work.ID? = work.id
            let summary: String

            switch decision.action {
            case .verify:
                guard work.reviewStatus == .needsReview else { throw LibraryError.notPending(decision.workID, work.reviewStatus) }
                let issues = work.validationIssues(forVerification: true)
                if !issues.isEmpty { throw LibraryError.invalid(decision.workID, ValidationError(issues)) }
                work.reviewStatus = .verified
                work = try accept(db, work, defaults: defaults, statusChange: nil, date: date)
                after[work.id!] = work.revision
                summary = "verified “\(work.title)”"

            case let .edit(edit):
                try edit.apply(to: &work, date: date)
                work.reviewStatus = .userEdited
                let issues = work.validationIssues(forVerification: true)
                if !issues.isEmpty { throw LibraryError.invalid(decision.workID, ValidationError(issues)) }
                var d = defaults
                if let s = edit.readingStatus { d.readingStatus = s; if s == .wishlist { d.owned = false } }
                if let f = edit.format { d.format = f }
                work = try accept(db, work, defaults: d, statusChange: edit.readingStatus, date: date)
                after[work.id!] = work.revision
                summary = "edited “\(work.title)”"

            case .reject:
                guard work.reviewStatus == .needsReview else { throw LibraryError.notPending(decision.workID, work.reviewStatus) }
                try WorkGraph.delete(db, id: decision.workID)
                resulting = nil
                summary = "rejected “\(work.title)”"

            case let .merge(targetID):
                guard targetID != decision.workID else { throw LibraryError.mergeIntoSelf(targetID) }
                guard var target = try WorkGraph.load(db, id: targetID) else { throw LibraryError.notFound(targetID) }
                snapshots.append(target)
                // The merged-away Work's editions move to the target; drop their IDs so they are re-created there.
                var incoming = work
                incoming.editions = incoming.editions.map { var e = $0; e.id = nil; return e }
                incoming.libraryEntry = nil
                try WorkGraph.delete(db, id: decision.workID)
                target.absorb(incoming, at: date)
                if target.reviewStatus == .needsReview { target.reviewStatus = .verified }
                target = try accept(db, target, defaults: defaults, statusChange: nil, date: date)
                after[targetID] = target.revision
                resulting = targetID
                summary = "merged “\(work.title)” into “\(target.title)” (#\(targetID))"
            }
            return (snapshots, after, resulting, summary)
    }

    /// Puts a reviewed Work in the library (`ReviewDefaults.accept`); the edition gets its ID in the same
    /// save, and a new entry is linked to it there.
    private func accept(_ db: Database, _ work: Work, defaults: ReviewDefaults, statusChange: ReadingStatus?, date: Date) throws -> Work {
        var w = work
        let ownFirstEdition = defaults.accept(&w, statusChange: statusChange, date: date)
        return try WorkGraph.save(db, w, bump: true, ownFirstEdition: ownFirstEdition)
    }

    /// Undoes the latest decision not yet undone (of `session`, or of anyone), putting every Work it touched
    /// back as it was, in one transaction.
    /// - Throws: `.nothingToUndo`; `.undoConflict` when a touched Work changed after that decision.
    @discardableResult
    public func undoLast(session: String? = nil, date: Date = Date()) throws -> UndoReceipt {
        try run { db in
            let request = session.map { JournalRecord.filter(Column("undoneAt") == nil && Column("session") == $0) }
                ?? JournalRecord.filter(Column("undoneAt") == nil)
            guard var entry = try request.order(Column("id").desc).fetchOne(db) else { throw LibraryError.nothingToUndo }
            let snapshots = try JSONDecoder().decode([Work].self, from: Data(entry.before.utf8))
            let after = try JSONDecoder().decode([String: Int].self, from: Data(entry.afterRevisions.utf8))
            for snapshot in snapshots {
                let id = snapshot.id!
                let current = try Int.fetchOne(db, sql: "SELECT revision FROM work WHERE id = ?", arguments: [id])
                if current != after[String(id)] { throw LibraryError.undoConflict(id) }
            }
            // Works the decision created (the pieces of a split, the whole of a join) go again, unless
            // someone has changed them since.
            let snapshotIDs = Set(snapshots.compactMap(\.id))
            var created = 0
            for (key, revision) in after {
                guard let id = Int64(key), !snapshotIDs.contains(id) else { continue }
                let current = try Int.fetchOne(db, sql: "SELECT revision FROM work WHERE id = ?", arguments: [id])
                if current != revision { throw LibraryError.undoConflict(id) }
                try WorkGraph.delete(db, id: id)
                created += 1
            }
            for snapshot in snapshots where after[String(snapshot.id!)] != nil { try WorkGraph.delete(db, id: snapshot.id!) }
            try ShelfRowShift.reshape(snapshots, pieces: created)?.undone.apply(db)
            for snapshot in snapshots {
                var restored = snapshot
                restored.revision = (after[String(snapshot.id!)] ?? snapshot.revision + 1) + 1
                let photoId = try snapshot.spine.flatMap {
                    try Int64.fetchOne(db, sql: "SELECT id FROM photo WHERE contentHash = ?", arguments: [$0.photoContentHash])
                }
                try WorkGraph.save(db, restored, photoId: photoId, bump: false, insertWithID: true)
            }
            entry.undoneAt = date
            try entry.update(db)
            return UndoReceipt(journalID: entry.id!, summary: "undid: \(entry.summary)", restoredWorkIDs: snapshots.compactMap(\.id))
        }
    }

    /// Latest decisions first.
    public func journal(limit: Int = 20) throws -> [JournalEntry] {
        try read { db in
            try JournalRecord.order(Column("id").desc).limit(limit).fetchAll(db).map {
                JournalEntry(id: $0.id!, session: $0.session, kind: $0.kind, workID: $0.workId, summary: $0.summary,
                             decidedAt: $0.decidedAt, undone: $0.undoneAt != nil)
            }
        }
    }

    public func liveJournal(kinds: [String]) throws -> [LiveJournalRow] {
        try read { db in
            try JournalRecord.filter(Column("undoneAt") == nil && kinds.contains(Column("kind"))).order(Column("id")).fetchAll(db).map {
                LiveJournalRow(id: $0.id!, kind: $0.kind, workID: $0.workId, decidedAt: $0.decidedAt, before: $0.before)
            }
        }
    }
}

func encodeJSON(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}
