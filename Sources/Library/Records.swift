import BookModel
import Foundation
import GRDB
import LibraryCore

// Row types: the database's view of BookModel's values. They stay inside `Library`; callers only see
// `Work`, `Edition`, `Author` and `UserLibraryEntry`.

struct CreditRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "credit"
    var workId: Int64
    var authorId: Int64
    var role: String
    var position: Int
}

struct PhotoRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "photo"
    var id: Int64?
    var contentHash: String
    var originalImagePath: String
    var imageWidth: Int
    var imageHeight: Int
    var filedAt: Date
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

struct JournalRecord: Codable, FetchableRecord, MutablePersistableRecord {
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
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

// The rows `LibraryCore` defines (`WorkRows`), stored by GRDB.
extension AuthorRecord: FetchableRecord, MutablePersistableRecord {
    package static let databaseTableName = "author"
    package mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension EditionRecord: FetchableRecord, MutablePersistableRecord {
    package static let databaseTableName = "edition"
    package mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension EntryRecord: FetchableRecord, MutablePersistableRecord {
    package static let databaseTableName = "libraryEntry"
    package mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension WorkRecord: FetchableRecord, MutablePersistableRecord {
    package static let databaseTableName = "work"
    package mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
