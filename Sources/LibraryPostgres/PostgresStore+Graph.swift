import BookModel
import Foundation
import LibraryCore
import NIOCore
import PostgresNIO

/// A Work with its credits, editions and entry, read and written inside the caller's transaction: the SQLite
/// store's `WorkGraph`, step for step, over rows made by the same records (`WorkRows`), so both engines keep
/// the same Work field for field and decisions, undo and imports behave alike.
extension PostgresTransaction {
    typealias Values = WorkRows.Values

    static func table(_ name: String) -> LibraryDump.Table { LibraryDump.tables.first { $0.name == name }! }

    static func columns(_ table: LibraryDump.Table, prefix: String = "") -> String {
        table.columns.map { prefix + $0.name }.joined(separator: ", ")
    }

    static func value(_ cell: PostgresCell, _ kind: LibraryDump.Kind) throws -> LibraryDump.Value {
        switch kind {
        case .integer: try cell.decode(Int64?.self).map { .integer($0) } ?? .null
        case .boolean: try cell.decode(Bool?.self).map { .integer($0 ? 1 : 0) } ?? .null
        case .real: try cell.decode(Double?.self).map { .real($0) } ?? .null
        case .text: try cell.decode(String?.self).map { .text($0) } ?? .null
        case .date: try cell.decode(Date?.self).map { .date($0) } ?? .null
        }
    }

    /// A row selected with `columns(table)` first, as named values.
    static func values(_ row: PostgresRow, _ table: LibraryDump.Table) throws -> Values {
        let cells = row.makeRandomAccess()
        var out: Values = [:]
        for (i, column) in table.columns.enumerated() { out[column.name] = try value(cells[i], column.kind) }
        return out
    }

    static func bind(_ value: LibraryDump.Value, _ kind: LibraryDump.Kind?, into binds: inout PostgresBindings) {
        switch value {
        case .null: binds.appendNull()
        case let .integer(n): if kind == .boolean { binds.append(n != 0) } else { binds.append(n) }
        case let .real(d): binds.append(d)
        case let .text(t): binds.append(t)
        case let .date(d): binds.append(StoredTimestamp(d))
        }
    }

    static func binds(_ values: [Any]) -> PostgresBindings {
        var b = PostgresBindings()
        for v in values {
            switch v {
            case let i as Int64: b.append(i)
            case let i as Int: b.append(Int64(i))
            case let s as String: b.append(s)
            case let ids as [Int64]: b.append(ids)
            default: preconditionFailure("unsupported bind \(type(of: v))")
            }
        }
        return b
    }

    @discardableResult
    func rows(_ sql: String, _ arguments: Any...) throws -> [PostgresRow] {
        try query(PostgresQuery(unsafeSQL: sql, binds: Self.binds(arguments)))
    }

    /// Inserts the values the table knows (an absent `id` is assigned by the server) and returns the row's ID.
    @discardableResult
    func insertRow(_ tableName: String, _ values: Values) throws -> Int64? {
        let table = Self.table(tableName)
        let names = table.columns.map(\.name).filter { values[$0] != nil }
        var binds = PostgresBindings(capacity: names.count)
        for name in names { Self.bind(values[name]!, table.columns.first { $0.name == name }?.kind, into: &binds) }
        let returning = table.columns.first?.name == "id" ? " RETURNING id" : ""
        let sql = "INSERT INTO \(tableName) (\(names.joined(separator: ", "))) VALUES (\(names.indices.map { "$\($0 + 1)" }.joined(separator: ", ")))\(returning)"
        return try query(PostgresQuery(unsafeSQL: sql, binds: binds)).first.map { try $0.decode(Int64.self) }
    }

    func updateRow(_ tableName: String, _ values: Values, id: Int64) throws {
        let table = Self.table(tableName)
        let names = table.columns.map(\.name).filter { $0 != "id" && values[$0] != nil }
        var binds = PostgresBindings(capacity: names.count + 1)
        for name in names { Self.bind(values[name]!, table.columns.first { $0.name == name }?.kind, into: &binds) }
        binds.append(id)
        let sets = names.enumerated().map { "\($1) = $\($0 + 1)" }.joined(separator: ", ")
        try query(PostgresQuery(unsafeSQL: "UPDATE \(tableName) SET \(sets) WHERE id = $\(names.count + 1)", binds: binds))
    }

    func exists(_ tableName: String, id: Int64) throws -> Bool {
        try !rows("SELECT 1 FROM \(tableName) WHERE id = $1", id).isEmpty
    }

    // MARK: Works

    /// - Parameter lock: `FOR UPDATE`: the caller's check of the Work (its revision, its status) and its write
    ///   are one step, so two reviewers deciding one Work at once are serialized.
    func loadWork(_ id: Int64, lock: Bool = false) throws -> Work? {
        let t = Self.table("work")
        guard let row = try rows("SELECT \(Self.columns(t)) FROM work WHERE id = $1\(lock ? " FOR UPDATE" : "")", id).first else { return nil }
        return try withRelations([WorkRows.work(Self.values(row, t)).work]).first
    }

    /// Every Work matching `condition` (SQL after WHERE with `$1`... for `arguments`, or nothing for all), in
    /// `order` (SQL after ORDER BY).
    func loadWorks(where condition: String = "", binding arguments: [Any] = [], orderBy order: String = "id") throws -> [Work] {
        let t = Self.table("work")
        let sql = "SELECT \(Self.columns(t)) FROM work \(condition.isEmpty ? "" : "WHERE " + condition) ORDER BY \(order)"
        let bare = try query(PostgresQuery(unsafeSQL: sql, binds: Self.binds(arguments))).map { try WorkRows.work(Self.values($0, t)).work }
        return try withRelations(bare)
    }

    /// Fills in the people, editions and library entries of `bare` Works with one query per table for all of
    /// them: listing a library of ten thousand Works (the duplicate index, exports) costs three round trips,
    /// not three per Work.
    func withRelations(_ bare: [Work]) throws -> [Work] {
        let ids = bare.compactMap(\.id)
        guard !ids.isEmpty else { return bare }
        let a = Self.table("author")
        var credits: [Int64: [Credit]] = [:]
        for row in try rows("""
            SELECT \(Self.columns(a, prefix: "a.")), c.role, c.workId FROM credit c JOIN author a ON a.id = c.authorId
            WHERE c.workId = ANY($1) ORDER BY c.workId, c.position
            """, ids) {
            let cells = row.makeRandomAccess()
            let author = try WorkRows.author(Self.values(row, a))
            let role = ContributorRole(rawValue: try cells[a.columns.count].decode(String.self)) ?? .author
            let workId = try cells[a.columns.count + 1].decode(Int64.self)
            if let i = credits[workId]?.firstIndex(where: { $0.author.id == author.id }) {
                credits[workId]![i].roles.insert(role)
            } else {
                credits[workId, default: []].append(Credit(author: author, roles: [role]))
            }
        }
        let e = Self.table("edition")
        var editions: [Int64: [Edition]] = [:]
        for row in try rows("SELECT \(Self.columns(e)) FROM edition WHERE workId = ANY($1) ORDER BY id", ids) {
            let values = try Self.values(row, e)
            guard case let .integer(workId)? = values["workId"] else { continue }
            editions[workId, default: []].append(try WorkRows.edition(values))
        }
        let l = Self.table("libraryEntry")
        var entries: [Int64: UserLibraryEntry] = [:]
        for row in try rows("SELECT \(Self.columns(l)) FROM libraryEntry WHERE workId = ANY($1)", ids) {
            let values = try Self.values(row, l)
            guard case let .integer(workId)? = values["workId"] else { continue }
            entries[workId] = try WorkRows.entry(values)
        }
        return bare.map { bare in
            var w = bare
            guard let id = w.id else { return w }
            w.credits = credits[id] ?? []
            w.editions = editions[id] ?? []
            w.libraryEntry = entries[id]
            return w
        }
    }

    /// Inserts or updates the Work and everything it holds; returns it with every ID filled.
    /// - Parameters:
    ///   - bump: raise `revision` (every real change does; a restore sets it itself).
    ///   - ownFirstEdition: link an entry without an edition to the first edition once it has an ID.
    @discardableResult
    func saveWork(_ work: Work, photoId: Int64? = nil, bump: Bool = true, insertWithID: Bool = false,
                  ownFirstEdition: Bool = false) throws -> Work {
        var w = work
        if bump { w.revision += 1 }
        var values = try WorkRows.values(w, photoId: photoId)
        if w.id == nil || insertWithID {
            if w.id == nil { values["id"] = nil }
            w.id = try insertRow("work", values)
        } else {
            if photoId == nil { values["photoId"] = nil }  // keeps the photo the row has
            try updateRow("work", values, id: w.id!)
        }
        let workId = w.id!

        // Credits: replaced wholesale; people are found by ID, else by normalized name, else created.
        let oldAuthors = try rows("SELECT DISTINCT authorId FROM credit WHERE workId = $1", workId).map { try $0.decode(Int64.self) }
        try rows("DELETE FROM credit WHERE workId = $1", workId)
        for (position, credit) in w.credits.enumerated() {
            let authorId = try findOrCreateAuthor(credit.author)
            w.credits[position].author.id = authorId
            for role in credit.roles.sorted() {
                try rows("INSERT INTO credit (workId, authorId, role, position) VALUES ($1, $2, $3, $4)",
                         workId, authorId, role.rawValue, position)
            }
        }
        try refreshBookCounts(Set(oldAuthors).union(w.credits.compactMap(\.author.id)))

        // Editions: the ones no longer listed are deleted (their entry link is nulled by the foreign key).
        try rows("DELETE FROM edition WHERE workId = $1 AND NOT (id = ANY($2))", workId, w.editions.compactMap(\.id))
        for i in w.editions.indices {
            let values = try WorkRows.values(w.editions[i], workId: workId)
            if let id = w.editions[i].id, try exists("edition", id: id) {
                try updateRow("edition", values, id: id)
            } else {
                w.editions[i].id = try insertRow("edition", w.editions[i].id == nil ? values.filter { $0.key != "id" } : values)
            }
        }

        if ownFirstEdition, w.libraryEntry?.editionID == nil, let first = w.editions.first?.id { w.libraryEntry?.editionID = first }
        if var entry = w.libraryEntry {
            if let e = entry.editionID, !(try exists("edition", id: e)) { entry.editionID = nil }
            let existing = try rows("SELECT id FROM libraryEntry WHERE workId = $1", workId).first.map { try $0.decode(Int64.self) }
            entry.id = existing ?? (insertWithID ? entry.id : nil)
            var values = try WorkRows.values(entry, workId: workId)
            if let existing {
                try updateRow("libraryEntry", values, id: existing)
            } else {
                if entry.id == nil { values["id"] = nil }
                entry.id = try insertRow("libraryEntry", values)
            }
            w.libraryEntry = entry
        } else {
            try rows("DELETE FROM libraryEntry WHERE workId = $1", workId)
        }
        return w
    }

    func findOrCreateAuthor(_ author: Author) throws -> Int64 {
        if let id = author.id, try exists("author", id: id) { return id }
        let key = TextNormalization.normalize(author.name)
        if let id = try rows("SELECT id FROM author WHERE normalizedName = $1 ORDER BY id LIMIT 1", key).first {
            return try id.decode(Int64.self)
        }
        var values = try WorkRows.values(author)
        values["id"] = nil
        return try insertRow("author", values)!
    }

    func refreshBookCounts(_ authorIDs: Set<Int64>) throws {
        guard !authorIDs.isEmpty else { return }
        try rows("""
            UPDATE author SET bookCount = (SELECT COUNT(DISTINCT workId) FROM credit WHERE authorId = author.id)
            WHERE id = ANY($1)
            """, Array(authorIDs))
    }

    /// Deletes a Work; editions, entry, credits and claims go with it (cascade), the people and the crop stay.
    package func deleteWork(_ id: Int64) throws {
        let authors = try rows("SELECT DISTINCT authorId FROM credit WHERE workId = $1", id).map { try $0.decode(Int64.self) }
        try rows("DELETE FROM work WHERE id = $1", id)
        try refreshBookCounts(Set(authors))
    }

    /// Stores a crop's bytes for a Work (a new one, or one put back by undo).
    func storeCrop(_ jpeg: [UInt8], workID: Int64) throws {
        try query("""
            INSERT INTO cropImage (workId, jpeg) VALUES (\(workID), \(ByteBuffer(bytes: jpeg)))
            ON CONFLICT (workId) DO UPDATE SET jpeg = excluded.jpeg
            """)
    }
}

/// A timestamp as the library keeps it on both engines: `Date.storedMilliseconds`, sent as exactly that many
/// thousand microseconds. `Date`'s own encoding would keep the microseconds SQLite drops, and truncate a whole
/// millisecond that a `Double` holds a hair below itself, so a library copied between engines would change.
struct StoredTimestamp: PostgresNonThrowingEncodable {
    var date: Date
    init(_ date: Date) { self.date = date }

    static var psqlType: PostgresDataType { .timestamptz }
    static var psqlFormat: PostgresFormat { .binary }

    func encode<JSONEncoder: PostgresJSONEncoder>(into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        // PostgreSQL counts microseconds from 2000-01-01 00:00 UTC.
        byteBuffer.writeInteger((date.storedMilliseconds - 946_684_800_000) * 1000)
    }
}

extension PostgresQuery.StringInterpolation {
    /// Every `\(date)` in this store's SQL is a `StoredTimestamp`: the one place a PostgreSQL library's
    /// timestamps are written, so none keeps more than SQLite would.
    mutating func appendInterpolation(_ date: Date) {
        appendInterpolation(StoredTimestamp(date))
    }
}
