import BookModel
import Foundation

/// A whole library as plain values, table by table, for copying it between engines (`library migrate`).
///
/// Rows keep their IDs, so references (credits, editions, entries, journal) stay valid on the other side.
/// Values are engine-neutral: booleans are integers 0/1 (as SQLite stores them) and dates are `Date`s.
public struct LibraryDump: Sendable, Equatable {
    public enum Kind: Sendable { case integer, real, text, date, boolean }
    public enum Value: Sendable, Equatable, Hashable {
        case null, integer(Int64), real(Double), text(String), date(Date)
    }
    public struct Table: Sendable {
        public var name: String
        public var columns: [(name: String, kind: Kind)]
        public var orderBy: String
    }

    /// Rows per table name, each row in `Self.tables` column order, sorted by the table's key.
    public var rows: [String: [[Value]]] = [:]
    /// Spine crops' JPEG bytes by Work ID (files beside SQLite, bytea on PostgreSQL).
    public var crops: [Int64: [UInt8]] = [:]

    public init(rows: [String: [[Value]]] = [:], crops: [Int64: [UInt8]] = [:]) { self.rows = rows; self.crops = crops }

    /// Row counts per table, plus `crops`.
    public var counts: [(table: String, rows: Int)] {
        Self.tables.map { ($0.name, rows[$0.name]?.count ?? 0) } + [("crops", crops.count)]
    }

    /// The library's tables in dependency order (a table only references tables before it), with every column
    /// of the schema after the last migration both engines share (v4 enrichment status).
    public static let tables: [Table] = {
        let I = Kind.integer, R = Kind.real, T = Kind.text, D = Kind.date, B = Kind.boolean
        return [
            Table(name: "author", columns: [
                ("id", I), ("name", T), ("normalizedName", T), ("nationality", T), ("gender", T), ("culturalRegion", T),
                ("birthYear", I), ("deathYear", I), ("openLibraryID", T), ("isbndbID", T), ("googleBooksID", T),
                ("goodreadsID", T), ("bookCount", I), ("dateCreated", D), ("lastModified", D)], orderBy: "id"),
            Table(name: "photo", columns: [
                ("id", I), ("contentHash", T), ("originalImagePath", T), ("imageWidth", I), ("imageHeight", I),
                ("filedAt", D)], orderBy: "id"),
            Table(name: "work", columns: [
                ("id", I), ("title", T), ("normalizedTitle", T), ("originalLanguage", T), ("firstPublicationYear", I),
                ("subjectTags", T), ("description", T), ("openLibraryID", T), ("openLibraryWorkID", T), ("isbndbID", T),
                ("googleBooksVolumeID", T), ("goodreadsID", T), ("goodreadsWorkIDs", T), ("amazonASINs", T),
                ("librarythingIDs", T), ("googleBooksVolumeIDs", T), ("synthetic", B), ("primaryProvider", T),
                ("contributors", T), ("reviewStatus", T), ("originalImagePath", T), ("boundingBoxX", R),
                ("boundingBoxY", R), ("boundingBoxWidth", R), ("boundingBoxHeight", R), ("dateCreated", D),
                ("lastModified", D), ("lastISBNDBSync", D), ("isbndbQuality", I), ("revision", I), ("photoId", I),
                ("photoContentHash", T), ("spineRow", I), ("spinePosition", I), ("spineLying", B), ("polygon", T),
                ("detectionConfidence", R), ("readingConfidence", R), ("rawText", T), ("reader", T), ("model", T),
                ("promptVersion", T), ("readError", T), ("callNumber", T), ("catalogScore", R), ("cropFile", T), ("enrichmentStatus", T),
                ("spineTextRunsUp", B)],
                  orderBy: "id"),
            Table(name: "credit", columns: [("workId", I), ("authorId", I), ("role", T), ("position", I)],
                  orderBy: "workId, authorId, role"),
            Table(name: "edition", columns: [
                ("id", I), ("workId", I), ("isbn", T), ("isbns", T), ("title", T), ("publisher", T),
                ("publicationDate", T), ("pageCount", I), ("format", T), ("coverImageURL", T), ("editionTitle", T),
                ("description", T), ("language", T), ("primaryProvider", T), ("contributors", T), ("openLibraryID", T),
                ("openLibraryEditionID", T), ("isbndbID", T), ("googleBooksVolumeID", T), ("goodreadsID", T),
                ("amazonASINs", T), ("googleBooksVolumeIDs", T), ("librarythingIDs", T), ("lastISBNDBSync", D),
                ("isbndbQuality", I), ("dateCreated", D), ("lastModified", D)], orderBy: "id"),
            Table(name: "libraryEntry", columns: [
                ("id", I), ("workId", I), ("editionId", I), ("dateAdded", D), ("readingStatus", T), ("currentPage", I),
                ("readingProgress", R), ("rating", I), ("personalRating", R), ("notes", T), ("tags", T),
                ("dateStarted", D), ("dateCompleted", D), ("estimatedFinishDate", D), ("lastModified", D)], orderBy: "id"),
            Table(name: "journal", columns: [
                ("id", I), ("session", T), ("kind", T), ("workId", I), ("summary", T), ("decidedAt", D), ("before", T),
                ("afterRevisions", T), ("undoneAt", D)], orderBy: "id"),
            Table(name: "reviewCursor", columns: [("session", T), ("workId", I), ("updatedAt", D)], orderBy: "session"),
        ]
    }()

    /// The bytes a content checksum is taken over: every table, row and value in a fixed order and spelling,
    /// dates as `storedMilliseconds`, then every crop. Equal libraries give equal bytes whichever engine holds
    /// them, including a PostgreSQL library written before its timestamps were kept to the millisecond.
    public func canonicalBytes() -> [UInt8] {
        var out: [UInt8] = []
        func put(_ s: String) { out.append(contentsOf: Array(s.utf8)); out.append(0x1F) }
        for table in Self.tables {
            put("#\(table.name)")
            for row in rows[table.name] ?? [] {
                for v in row {
                    switch v {
                    case .null: put("∅")
                    case let .integer(i): put("i\(i)")
                    case let .real(d): put("r\(d)")
                    case let .text(t): put("t\(t)")
                    case let .date(d): put("d\(d.storedMilliseconds)")
                    }
                }
                out.append(0x1E)
            }
        }
        for id in crops.keys.sorted() {
            put("#crop\(id)")
            out.append(contentsOf: crops[id]!)
            out.append(0x1E)
        }
        return out
    }
}

extension LibraryStoring {
    /// Refuses to load a dump into a library that already holds Works or photos: migrate into an empty one.
    public func requireEmptyForRestore() async throws {
        let s = try await stats()
        if s.works > 0 || s.photos > 0 || s.authors > 0 {
            throw LibraryError.importFailed("\(locationDescription) is not empty (\(s.works) works, \(s.photos) photos). Migrate into a new, empty library.")
        }
    }
}

extension Date {
    /// The instant as a library keeps it on either engine: whole milliseconds since 1970, the nearest one. SQLite
    /// (GRDB) stores dates as text to the millisecond, rounding to the nearest; PostgreSQL would keep
    /// microseconds, so the PostgreSQL store writes this value, and a library copied between engines keeps the
    /// same instants and checksums. Nearest, not truncated: a whole millisecond read back through a `Double`
    /// (PostgreSQL's microseconds, GRDB's parsed text) may land a hair below itself.
    public var storedMilliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }
}
