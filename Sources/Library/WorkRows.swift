import BookModel
import Foundation
import GRDB
import LibraryCore

/// The rows of a Work's graph as engine-neutral values, column name to value, made by the same records the
/// SQLite store writes. Another engine's store (PostgreSQL) stores and reads these, so a Work round-trips
/// field for field on both engines and a column added to a record reaches both at once.
public enum WorkRows {
    public typealias Values = [String: LibraryDump.Value]

    public static func values(_ work: Work, photoId: Int64?) throws -> Values {
        try neutral(WorkRecord(work, photoId: photoId), table: "work")
    }
    /// The Work without credits, editions or entry, and the photo row it belongs to.
    public static func work(_ values: Values) throws -> (work: Work, photoId: Int64?) {
        let record = try WorkRecord(row: row(values))
        return (record.bareModel, record.photoId)
    }

    public static func values(_ author: Author) throws -> Values { try neutral(AuthorRecord(author), table: "author") }
    public static func author(_ values: Values) throws -> Author { try AuthorRecord(row: row(values)).model }

    public static func values(_ edition: Edition, workId: Int64?) throws -> Values {
        try neutral(EditionRecord(edition, workId: workId), table: "edition")
    }
    public static func edition(_ values: Values) throws -> Edition { try EditionRecord(row: row(values)).model }

    public static func values(_ entry: UserLibraryEntry, workId: Int64) throws -> Values {
        try neutral(EntryRecord(entry, workId: workId), table: "libraryEntry")
    }
    public static func entry(_ values: Values) throws -> UserLibraryEntry { try EntryRecord(row: row(values)).model }

    /// The kinds `LibraryDump` gives the table's columns decide how each GRDB value is read: a date is
    /// stored by GRDB as text, a boolean as an integer.
    private static func neutral(_ record: some EncodableRecord, table: String) throws -> Values {
        let kinds = Dictionary(uniqueKeysWithValues: (LibraryDump.tables.first { $0.name == table }?.columns ?? []).map { ($0.name, $0.kind) })
        var out: Values = [:]
        for (name, value) in try record.databaseDictionary {
            switch value.storage {
            case .null: out[name] = .null
            case let .int64(i): out[name] = .integer(i)
            case let .double(d): out[name] = .real(d)
            case let .string(s):
                if kinds[name] == .date, let date = Date.fromDatabaseValue(value) { out[name] = .date(date) } else { out[name] = .text(s) }
            case let .blob(data): out[name] = .text(String(decoding: data, as: UTF8.self))
            }
        }
        return out
    }

    private static func row(_ values: Values) -> Row {
        Row(values.mapValues { v -> (any DatabaseValueConvertible)? in
            switch v {
            case .null: nil
            case let .integer(i): i
            case let .real(d): d
            case let .text(t): t
            case let .date(d): d
            }
        })
    }
}
