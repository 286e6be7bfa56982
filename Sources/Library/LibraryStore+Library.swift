import BookModel
import Foundation
import GRDB

public struct LibraryStats: Sendable, Equatable, Codable {
    public var works: Int
    public var pending: Int
    public var verified: Int
    public var userEdited: Int
    public var authors: Int
    public var editions: Int
    public var photos: Int
    public var owned: Int
    public var wishlist: Int
    /// Library entries per reading status (raw values).
    public var byReadingStatus: [String: Int]
    public var decisions: Int

    public init(works: Int, pending: Int, verified: Int, userEdited: Int, authors: Int, editions: Int, photos: Int, owned: Int,
                wishlist: Int, byReadingStatus: [String: Int], decisions: Int) {
        self.works = works; self.pending = pending; self.verified = verified; self.userEdited = userEdited
        self.authors = authors; self.editions = editions; self.photos = photos; self.owned = owned
        self.wishlist = wishlist; self.byReadingStatus = byReadingStatus; self.decisions = decisions
    }
}

extension LibraryStats {
    /// Both engines count with the same SQL, so `library stats` means the same on SQLite and PostgreSQL.
    public static let byReadingStatusSQL = "SELECT readingStatus, COUNT(*) FROM libraryEntry GROUP BY readingStatus"

    /// `count` runs one `SELECT COUNT(*)` on the store's engine.
    public init(counting count: (String) throws -> Int, byReadingStatus: [String: Int]) rethrows {
        self.init(
            works: try count("SELECT COUNT(*) FROM work"),
            pending: try count("SELECT COUNT(*) FROM work WHERE reviewStatus = 'needsReview'"),
            verified: try count("SELECT COUNT(*) FROM work WHERE reviewStatus = 'verified'"),
            userEdited: try count("SELECT COUNT(*) FROM work WHERE reviewStatus = 'userEdited'"),
            authors: try count("SELECT COUNT(*) FROM author"),
            editions: try count("SELECT COUNT(*) FROM edition"),
            photos: try count("SELECT COUNT(*) FROM photo"),
            owned: try count("SELECT COUNT(*) FROM libraryEntry WHERE editionId IS NOT NULL"),
            wishlist: try count("SELECT COUNT(*) FROM libraryEntry WHERE editionId IS NULL AND readingStatus = 'wishlist'"),
            byReadingStatus: byReadingStatus,
            decisions: try count("SELECT COUNT(*) FROM journal WHERE undoneAt IS NULL"))
    }
}

extension LibraryStore {
    public func stats() throws -> LibraryStats {
        try read { db in
            func count(_ sql: String) throws -> Int { try Int.fetchOne(db, sql: sql) ?? 0 }
            var byStatus: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: LibraryStats.byReadingStatusSQL) {
                byStatus[row[0]] = row[1]
            }
            return try LibraryStats(counting: count, byReadingStatus: byStatus)
        }
    }

    @discardableResult
    public func add(_ work: Work) throws -> Work {
        let w = try work.readyToAdd()
        return try run { db in try WorkGraph.save(db, w, bump: false) }
    }

    /// Replaces a stored Work by this value (same ID), checking its revision.
    @discardableResult
    public func update(_ work: Work) throws -> Work {
        guard let id = work.id else { throw LibraryError.notFound(0) }
        return try run { db in
            guard let current = try Int.fetchOne(db, sql: "SELECT revision FROM work WHERE id = ?", arguments: [id]) else {
                throw LibraryError.notFound(id)
            }
            if current != work.revision { throw LibraryError.conflict(id, expected: work.revision, actual: current) }
            return try WorkGraph.save(db, work)
        }
    }

    /// Seed 002: a Work takes its editions and entry with it; its people stay.
    public func deleteWork(id: Work.ID) throws {
        try run { db in
            guard try WorkRecord.exists(db, key: id) else { throw LibraryError.notFound(id) }
            try WorkGraph.delete(db, id: id)
        }
    }

    /// Seed 002: the entry that held this edition loses it (becomes wishlist-like) and keeps its progress.
    public func deleteEdition(id: Edition.ID) throws {
        try run { db in
            let workId = try Int64.fetchOne(db, sql: "SELECT workId FROM edition WHERE id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM edition WHERE id = ?", arguments: [id])
            if let workId { try db.execute(sql: "UPDATE work SET revision = revision + 1 WHERE id = ?", arguments: [workId]) }
        }
    }

    /// Seed 002: the Works stay, without this person.
    public func deleteAuthor(id: Author.ID) throws {
        try run { db in
            let works = try Int64.fetchAll(db, sql: "SELECT DISTINCT workId FROM credit WHERE authorId = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM author WHERE id = ?", arguments: [id])
            for w in works { try db.execute(sql: "UPDATE work SET revision = revision + 1 WHERE id = ?", arguments: [w]) }
        }
    }

    public func authors() throws -> [Author] {
        try read { db in try AuthorRecord.order(Column("normalizedName")).fetchAll(db).map(\.model) }
    }
}
