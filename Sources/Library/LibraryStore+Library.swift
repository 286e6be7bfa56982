import BookModel
import Foundation
import GRDB
import LibraryCore

extension LibraryStore {
    public func stats() async throws -> LibraryStats {
        try await read { db in
            func count(_ sql: String) throws -> Int { try Int.fetchOne(db, sql: sql) ?? 0 }
            var byStatus: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: LibraryStats.byReadingStatusSQL) {
                byStatus[row[0]] = row[1]
            }
            return try LibraryStats(counting: count, byReadingStatus: byStatus)
        }
    }

    /// Seed 002: a Work takes its editions and entry with it; its people stay.
    public func deleteWork(id: Work.ID) async throws {
        try await run { db in
            guard try WorkRecord.exists(db, key: id) else { throw LibraryError.notFound(id) }
            try WorkGraph.delete(db, id: id)
        }
    }

    /// Seed 002: the entry that held this edition loses it (becomes wishlist-like) and keeps its progress.
    public func deleteEdition(id: Edition.ID) async throws {
        try await run { db in
            let workId = try Int64.fetchOne(db, sql: "SELECT workId FROM edition WHERE id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM edition WHERE id = ?", arguments: [id])
            if let workId { try db.execute(sql: "UPDATE work SET revision = revision + 1 WHERE id = ?", arguments: [workId]) }
        }
    }

    /// Seed 002: the Works stay, without this person.
    public func deleteAuthor(id: Author.ID) async throws {
        try await run { db in
            let works = try Int64.fetchAll(db, sql: "SELECT DISTINCT workId FROM credit WHERE authorId = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM author WHERE id = ?", arguments: [id])
            for w in works { try db.execute(sql: "UPDATE work SET revision = revision + 1 WHERE id = ?", arguments: [w]) }
        }
    }

    public func authors() async throws -> [Author] {
        try await read { db in try AuthorRecord.order(Column("normalizedName")).fetchAll(db).map(\.model) }
    }
}
