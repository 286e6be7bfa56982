import BookModel
import Foundation
import GRDB
import LibraryCore

/// A row whose ID SQLite gives it on insert: the ID is read back into the record, so a Work's editions and
/// credits can point at it in the same transaction.
package protocol RowIDRecord: MutablePersistableRecord {
    var id: Int64? { get set }
}

extension RowIDRecord {
    package mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

// Row types: the database's view of BookModel's values. They stay inside `Library`; callers only see
// `Work`, `Edition`, `Author` and `UserLibraryEntry`.

struct CreditRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "credit"
    var workId: Int64
    var authorId: Int64
    var role: String
    var position: Int
}

struct PhotoRecord: Codable, FetchableRecord, RowIDRecord {
    static let databaseTableName = "photo"
    var id: Int64?
    var contentHash: String
    var originalImagePath: String
    var imageWidth: Int
    var imageHeight: Int
    var filedAt: Date
}

struct JournalRecord: Codable, FetchableRecord, RowIDRecord {
    static let databaseTableName = "journal"
    var id: Int64?
    var session: String
    var kind: String
    var workId: Int64
    var summary: String
    var decidedAt: Date
    /// JSON of `[Work]`: every Work the decision touched, as it was before.
    var before: String
    /// JSON of `[String: Int]`: work ID → revision right after the decision (absent = deleted).
    var afterRevisions: String
    var undoneAt: Date?
}

// The rows `LibraryCore` defines (`WorkRows`), stored by GRDB.
extension AuthorRecord: FetchableRecord, RowIDRecord {
    package static let databaseTableName = "author"
}

extension EditionRecord: FetchableRecord, RowIDRecord {
    package static let databaseTableName = "edition"
}

extension EntryRecord: FetchableRecord, RowIDRecord {
    package static let databaseTableName = "libraryEntry"
}

extension WorkRecord: FetchableRecord, RowIDRecord {
    package static let databaseTableName = "work"
}
