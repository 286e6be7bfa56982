import BookModel
import Foundation
import GRDB
import LibraryCore

/// Reading and writing a Work with its credits, editions and entry, inside a caller's transaction.
enum WorkGraph {
    static func load(_ db: Database, id: Work.ID) throws -> Work? {
        guard let record = try WorkRecord.fetchOne(db, key: id) else { return nil }
        return try loadRelations(db, record.bareModel)
    }

    static func loadRelations(_ db: Database, _ bare: Work) throws -> Work {
        var w = bare
        guard let id = w.id else { return w }
        let rows = try Row.fetchAll(db, sql: """
            SELECT a.*, c.role, c.position FROM credit c JOIN author a ON a.id = c.authorId
            WHERE c.workId = ? ORDER BY c.position
            """, arguments: [id])
        var credits: [Credit] = []
        for row in rows {
            let author = try AuthorRecord(row: row).model
            let role = ContributorRole(rawValue: row["role"]) ?? .author
            if let i = credits.firstIndex(where: { $0.author.id == author.id }) {
                credits[i].roles.insert(role)
            } else {
                credits.append(Credit(author: author, roles: [role]))
            }
        }
        w.credits = credits
        w.editions = try EditionRecord.filter(Column("workId") == id).order(Column("id")).fetchAll(db).map(\.model)
        w.libraryEntry = try EntryRecord.filter(Column("workId") == id).fetchOne(db)?.model
        return w
    }

    /// Many Works at once: four queries in all instead of three per Work (export, duplicate index).
    static func loadAll(_ db: Database, _ records: [WorkRecord]) throws -> [Work] {
        guard !records.isEmpty else { return [] }
        let all = records.count > 500
        let ids = records.compactMap(\.id)
        let filter = all ? "" : "WHERE workId IN (\(ids.map { String($0) }.joined(separator: ",")))"
        var credits: [Int64: [Credit]] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT a.*, c.workId, c.role FROM credit c JOIN author a ON a.id = c.authorId \(filter.replacingOccurrences(of: "workId", with: "c.workId"))
            ORDER BY c.workId, c.position
            """) {
            let workId: Int64 = row["workId"]
            let author = try AuthorRecord(row: row).model
            let role = ContributorRole(rawValue: row["role"]) ?? .author
            if let i = credits[workId]?.firstIndex(where: { $0.author.id == author.id }) {
                credits[workId]![i].roles.insert(role)
            } else {
                credits[workId, default: []].append(Credit(author: author, roles: [role]))
            }
        }
        var editions: [Int64: [Edition]] = [:]
        for e in try EditionRecord.fetchAll(db, sql: "SELECT * FROM edition \(filter) ORDER BY id") {
            if let w = e.workId { editions[w, default: []].append(e.model) }
        }
        var entries: [Int64: UserLibraryEntry] = [:]
        for e in try EntryRecord.fetchAll(db, sql: "SELECT * FROM libraryEntry \(filter)") { entries[e.workId] = e.model }
        return records.map { r in
            var w = r.bareModel
            w.credits = credits[r.id!] ?? []
            w.editions = editions[r.id!] ?? []
            w.libraryEntry = entries[r.id!]
            return w
        }
    }

    /// Inserts or updates the Work and everything it holds; returns it with every ID filled.
    /// - Parameter bump: raise `revision` (every real change does; a restore sets it itself).
    @discardableResult
    /// - Parameter ownFirstEdition: link an entry without an edition to the first edition once it has an ID
    ///   (an owned copy filed together with its edition, in one pass).
    static func save(_ db: Database, _ work: Work, photoId: Int64? = nil, bump: Bool = true, insertWithID: Bool = false,
                     ownFirstEdition: Bool = false) throws -> Work {
        var w = work
        if bump { w.revision += 1 }
        var record = WorkRecord(w, photoId: photoId)
        if w.id == nil || insertWithID {
            try record.insert(db)
        } else {
            if photoId == nil { record.photoId = try Int64.fetchOne(db, sql: "SELECT photoId FROM work WHERE id = ?", arguments: [w.id]) }
            try record.update(db)
        }
        w.id = record.id
        let workId = record.id!

        // Credits: replaced wholesale; people are found by ID, else by normalized name, else created.
        let oldAuthorIDs = try Int64.fetchAll(db, sql: "SELECT DISTINCT authorId FROM credit WHERE workId = ?", arguments: [workId])
        try db.execute(sql: "DELETE FROM credit WHERE workId = ?", arguments: [workId])
        for (position, credit) in w.credits.enumerated() {
            let authorId = try findOrCreateAuthor(db, credit.author)
            w.credits[position].author.id = authorId
            for role in credit.roles.sorted() {
                try CreditRecord(workId: workId, authorId: authorId, role: role.rawValue, position: position).insert(db)
            }
        }
        try refreshBookCounts(db, authorIDs: Set(oldAuthorIDs).union(w.credits.compactMap(\.author.id)))

        // Editions: the ones no longer listed are deleted (their entry link is nulled by the foreign key).
        let keep = w.editions.compactMap(\.id)
        try db.execute(sql: "DELETE FROM edition WHERE workId = ? AND id NOT IN (\(keep.map { String($0) }.joined(separator: ",")))",
                       arguments: [workId])
        for i in w.editions.indices {
            var er = EditionRecord(w.editions[i], workId: workId)
            if er.id != nil, try EditionRecord.exists(db, key: er.id!) { try er.update(db) } else { try er.insert(db) }
            w.editions[i].id = er.id
        }

        if ownFirstEdition, w.libraryEntry?.editionID == nil, let first = w.editions.first?.id { w.libraryEntry?.editionID = first }
        if var entry = w.libraryEntry {
            if let e = entry.editionID, !(try EditionRecord.exists(db, key: e)) { entry.editionID = nil }
            let existing = try EntryRecord.filter(Column("workId") == workId).fetchOne(db)
            var er = EntryRecord(entry, workId: workId)
            er.id = existing?.id ?? (insertWithID ? entry.id : nil)
            if existing != nil { try er.update(db) } else { try er.insert(db) }
            entry.id = er.id
            w.libraryEntry = entry
        } else {
            try db.execute(sql: "DELETE FROM libraryEntry WHERE workId = ?", arguments: [workId])
        }
        return w
    }

    static func findOrCreateAuthor(_ db: Database, _ author: Author) throws -> Int64 {
        if let id = author.id, try AuthorRecord.exists(db, key: id) { return id }
        let key = TextNormalization.normalize(author.name)
        if let id = try Int64.fetchOne(db, sql: "SELECT id FROM author WHERE normalizedName = ? ORDER BY id LIMIT 1", arguments: [key]) {
            return id
        }
        var record = AuthorRecord(author)
        record.id = nil
        try record.insert(db)
        return record.id!
    }

    static func refreshBookCounts(_ db: Database, authorIDs: Set<Int64>) throws {
        guard !authorIDs.isEmpty else { return }
        try db.execute(sql: """
            UPDATE author SET bookCount = (SELECT COUNT(DISTINCT workId) FROM credit WHERE authorId = author.id)
            WHERE id IN (\(authorIDs.map { String($0) }.joined(separator: ",")))
            """)
    }

    /// Deletes a Work; editions, entry and credits go with it (cascade), the people stay (nullify).
    static func delete(_ db: Database, id: Work.ID) throws {
        let authors = try Int64.fetchAll(db, sql: "SELECT DISTINCT authorId FROM credit WHERE workId = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM work WHERE id = ?", arguments: [id])
        try refreshBookCounts(db, authorIDs: Set(authors))
    }
}
