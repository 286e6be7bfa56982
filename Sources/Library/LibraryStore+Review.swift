import BookModel
import Foundation
import GRDB
import LibraryCore

extension LibraryStore {
    /// Latest decisions first.
    public func journal(limit: Int = 20) async throws -> [JournalEntry] {
        try await read { db in
            try JournalRecord.order(Column("id").desc).limit(limit).fetchAll(db).map {
                JournalEntry(id: $0.id!, session: $0.session, kind: $0.kind, workID: $0.workId, summary: $0.summary,
                             decidedAt: $0.decidedAt, undone: $0.undoneAt != nil)
            }
        }
    }

    public func liveJournal(kinds: [String]) async throws -> [LiveJournalRow] {
        try await read { db in
            try JournalRecord.filter(Column("undoneAt") == nil && kinds.contains(Column("kind"))).order(Column("id")).fetchAll(db).map {
                LiveJournalRow(id: $0.id!, kind: $0.kind, workID: $0.workId, decidedAt: $0.decidedAt, before: $0.before)
            }
        }
    }
}
