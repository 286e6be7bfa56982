import BookModel
import Foundation

// The rows of a Work's graph: the database's view of BookModel's values, the same on both engines. The SQLite
// engine stores them through GRDB (`Library/Records.swift` adds its conformances); the PostgreSQL engine as
// `WorkRows.Values`. Callers only see `Work`, `Edition`, `Author` and `UserLibraryEntry`.

package struct AuthorRecord: Codable, Sendable {
    package var id: Int64?
    package var name: String
    package var normalizedName: String
    package var nationality: String?
    package var gender: String
    package var culturalRegion: String?
    package var birthYear: Int?
    package var deathYear: Int?
    package var openLibraryID: String?
    package var isbndbID: String?
    package var googleBooksID: String?
    package var goodreadsID: String?
    package var bookCount: Int
    package var dateCreated: Date
    package var lastModified: Date

    package init(_ a: Author) {
        id = a.id; name = a.name.trimmingCharacters(in: .whitespacesAndNewlines)
        normalizedName = TextNormalization.normalize(a.name); nationality = a.nationality; gender = a.gender.rawValue
        culturalRegion = a.culturalRegion?.rawValue; birthYear = a.birthYear; deathYear = a.deathYear
        openLibraryID = a.openLibraryID; isbndbID = a.isbndbID; googleBooksID = a.googleBooksID
        goodreadsID = a.goodreadsID; bookCount = a.bookCount; dateCreated = a.dateCreated; lastModified = a.lastModified
    }

    package var model: Author {
        Author(id: id, name: name, nationality: nationality, gender: AuthorGender(rawValue: gender) ?? .unknown,
               culturalRegion: culturalRegion.flatMap(CulturalRegion.init(rawValue:)), birthYear: birthYear,
               deathYear: deathYear, openLibraryID: openLibraryID, isbndbID: isbndbID, googleBooksID: googleBooksID,
               goodreadsID: goodreadsID, bookCount: bookCount, dateCreated: dateCreated, lastModified: lastModified)
    }
}

package struct EditionRecord: Codable, Sendable {
    package var id: Int64?
    package var workId: Int64?
    package var isbn: String?
    package var isbns: [String]
    package var title: String?
    package var publisher: String?
    package var publicationDate: String?
    package var pageCount: Int?
    package var format: String
    package var coverImageURL: String?
    package var editionTitle: String?
    package var description: String?
    package var language: String?
    package var primaryProvider: String?
    package var contributors: [String]
    package var openLibraryID: String?
    package var openLibraryEditionID: String?
    package var isbndbID: String?
    package var googleBooksVolumeID: String?
    package var goodreadsID: String?
    package var amazonASINs: [String]
    package var googleBooksVolumeIDs: [String]
    package var librarythingIDs: [String]
    package var lastISBNDBSync: Date?
    package var isbndbQuality: Int
    package var dateCreated: Date
    package var lastModified: Date

    package init(_ e: Edition, workId: Int64?) {
        id = e.id; self.workId = workId; isbn = e.isbn; isbns = e.isbns; title = e.title; publisher = e.publisher
        publicationDate = e.publicationDate; pageCount = e.pageCount; format = e.format.rawValue
        coverImageURL = e.coverImageURL; editionTitle = e.editionTitle; description = e.description
        language = e.language; primaryProvider = e.primaryProvider; contributors = e.contributors
        openLibraryID = e.openLibraryID; openLibraryEditionID = e.openLibraryEditionID; isbndbID = e.isbndbID
        googleBooksVolumeID = e.googleBooksVolumeID; goodreadsID = e.goodreadsID; amazonASINs = e.amazonASINs
        googleBooksVolumeIDs = e.googleBooksVolumeIDs; librarythingIDs = e.librarythingIDs
        lastISBNDBSync = e.lastISBNDBSync; isbndbQuality = e.isbndbQuality; dateCreated = e.dateCreated
        lastModified = e.lastModified
    }

    package var model: Edition {
        Edition(id: id, isbn: isbn, isbns: isbns, title: title, publisher: publisher, publicationDate: publicationDate,
                pageCount: pageCount, format: EditionFormat(rawValue: format) ?? .paperback, coverImageURL: coverImageURL,
                editionTitle: editionTitle, description: description, language: language,
                primaryProvider: primaryProvider, contributors: contributors, openLibraryID: openLibraryID,
                openLibraryEditionID: openLibraryEditionID, isbndbID: isbndbID, googleBooksVolumeID: googleBooksVolumeID,
                goodreadsID: goodreadsID, amazonASINs: amazonASINs, googleBooksVolumeIDs: googleBooksVolumeIDs,
                librarythingIDs: librarythingIDs, lastISBNDBSync: lastISBNDBSync, isbndbQuality: isbndbQuality,
                dateCreated: dateCreated, lastModified: lastModified)
    }
}

package struct EntryRecord: Codable, Sendable {
    package var id: Int64?
    package var workId: Int64
    package var editionId: Int64?
    package var dateAdded: Date
    package var readingStatus: String
    package var currentPage: Int
    package var readingProgress: Double
    package var rating: Int?
    package var personalRating: Double?
    package var notes: String?
    package var tags: [String]
    package var dateStarted: Date?
    package var dateCompleted: Date?
    package var estimatedFinishDate: Date?
    package var lastModified: Date

    package init(_ e: UserLibraryEntry, workId: Int64) {
        id = e.id; self.workId = workId; editionId = e.editionID; dateAdded = e.dateAdded
        readingStatus = e.readingStatus.rawValue; currentPage = e.currentPage; readingProgress = e.readingProgress
        rating = e.rating; personalRating = e.personalRating; notes = e.notes; tags = e.tags
        dateStarted = e.dateStarted; dateCompleted = e.dateCompleted; estimatedFinishDate = e.estimatedFinishDate
        lastModified = e.lastModified
    }

    package var model: UserLibraryEntry {
        UserLibraryEntry(id: id, editionID: editionId, readingStatus: ReadingStatus(rawValue: readingStatus) ?? .toRead,
                         dateAdded: dateAdded, currentPage: currentPage, readingProgress: readingProgress, rating: rating,
                         personalRating: personalRating, notes: notes, tags: tags, dateStarted: dateStarted,
                         dateCompleted: dateCompleted, estimatedFinishDate: estimatedFinishDate, lastModified: lastModified)
    }
}

package struct WorkRecord: Codable, Sendable {
    package var id: Int64?
    package var title: String
    package var normalizedTitle: String
    package var originalLanguage: String?
    package var firstPublicationYear: Int?
    package var subjectTags: [String]
    package var description: String?
    package var openLibraryID: String?
    package var openLibraryWorkID: String?
    package var isbndbID: String?
    package var googleBooksVolumeID: String?
    package var goodreadsID: String?
    package var goodreadsWorkIDs: [String]
    package var amazonASINs: [String]
    package var librarythingIDs: [String]
    package var googleBooksVolumeIDs: [String]
    package var synthetic: Bool
    package var primaryProvider: String?
    package var contributors: [String]
    package var reviewStatus: String
    package var originalImagePath: String?
    package var boundingBoxX: Double?
    package var boundingBoxY: Double?
    package var boundingBoxWidth: Double?
    package var boundingBoxHeight: Double?
    package var dateCreated: Date
    package var lastModified: Date
    package var lastISBNDBSync: Date?
    package var isbndbQuality: Int
    package var revision: Int
    package var photoId: Int64?
    package var photoContentHash: String?
    package var spineRow: Int?
    package var spinePosition: Int?
    package var spineLying: Bool?
    package var polygon: [[Double]]?
    package var detectionConfidence: Double?
    package var readingConfidence: Double?
    package var rawText: String?
    package var reader: String?
    package var model: String?
    package var promptVersion: String?
    package var readError: String?
    package var callNumber: String?
    package var catalogScore: Double?
    package var cropFile: String?
    package var enrichmentStatus: EnrichmentStatus?
    package var spineTextRunsUp: Bool?

    package init(_ w: Work, photoId: Int64?) {
        id = w.id; title = w.title.trimmingCharacters(in: .whitespacesAndNewlines)
        normalizedTitle = TextNormalization.normalize(w.title); originalLanguage = w.originalLanguage
        firstPublicationYear = w.firstPublicationYear; subjectTags = w.subjectTags; description = w.description
        openLibraryID = w.openLibraryID; openLibraryWorkID = w.openLibraryWorkID; isbndbID = w.isbndbID
        googleBooksVolumeID = w.googleBooksVolumeID; goodreadsID = w.goodreadsID; goodreadsWorkIDs = w.goodreadsWorkIDs
        amazonASINs = w.amazonASINs; librarythingIDs = w.librarythingIDs; googleBooksVolumeIDs = w.googleBooksVolumeIDs
        synthetic = w.synthetic; primaryProvider = w.primaryProvider; contributors = w.contributors
        reviewStatus = w.reviewStatus.rawValue; originalImagePath = w.originalImagePath
        boundingBoxX = w.boundingBox?.x; boundingBoxY = w.boundingBox?.y
        boundingBoxWidth = w.boundingBox?.width; boundingBoxHeight = w.boundingBox?.height
        dateCreated = w.dateCreated; lastModified = w.lastModified; lastISBNDBSync = w.lastISBNDBSync
        isbndbQuality = w.isbndbQuality; revision = w.revision; self.photoId = photoId
        let s = w.spine
        photoContentHash = s?.photoContentHash; spineRow = s?.row; spinePosition = s?.position; spineLying = s?.lying
        polygon = s?.polygon; detectionConfidence = s?.detectionConfidence; readingConfidence = s?.readingConfidence
        rawText = s?.rawText; reader = s?.reader; model = s?.model; promptVersion = s?.promptVersion
        readError = s?.readError; callNumber = s?.callNumber; catalogScore = s?.catalogScore; cropFile = s?.cropFile
        enrichmentStatus = s?.enrichmentStatus; spineTextRunsUp = s?.textRunsUp
    }

    /// The Work without its relationships (the store adds credits, editions and entry).
    package var bareModel: Work {
        var w = Work(id: id, title: title, originalLanguage: originalLanguage, firstPublicationYear: firstPublicationYear,
                     subjectTags: subjectTags, description: description,
                     reviewStatus: ReviewStatus(rawValue: reviewStatus) ?? .needsReview, dateCreated: dateCreated)
        w.openLibraryID = openLibraryID; w.openLibraryWorkID = openLibraryWorkID; w.isbndbID = isbndbID
        w.googleBooksVolumeID = googleBooksVolumeID; w.goodreadsID = goodreadsID; w.goodreadsWorkIDs = goodreadsWorkIDs
        w.amazonASINs = amazonASINs; w.librarythingIDs = librarythingIDs; w.googleBooksVolumeIDs = googleBooksVolumeIDs
        w.synthetic = synthetic; w.primaryProvider = primaryProvider; w.contributors = contributors
        w.originalImagePath = originalImagePath
        if let x = boundingBoxX, let y = boundingBoxY, let bw = boundingBoxWidth, let bh = boundingBoxHeight {
            w.boundingBox = BoundingBox(x: x, y: y, width: bw, height: bh)
        }
        w.lastModified = lastModified; w.lastISBNDBSync = lastISBNDBSync; w.isbndbQuality = isbndbQuality
        w.revision = revision
        if let hash = photoContentHash {
            w.spine = SpineProvenance(photoContentHash: hash, row: spineRow ?? 0, position: spinePosition ?? 0,
                                      lying: spineLying ?? false, polygon: polygon ?? [],
                                      detectionConfidence: detectionConfidence ?? 0, readingConfidence: readingConfidence,
                                      rawText: rawText, reader: reader, model: model, promptVersion: promptVersion,
                                      readError: readError, callNumber: callNumber, catalogScore: catalogScore,
                                      cropFile: cropFile, enrichmentStatus: enrichmentStatus, textRunsUp: spineTextRunsUp)
        }
        return w
    }
}

/// The rows of a Work's graph as engine-neutral values, column name to value, made by the records SQLite stores.
/// The PostgreSQL engine stores and reads these, so a Work round-trips field for field on both engines and a
/// column added to a record reaches both at once.
package enum WorkRows {
    package typealias Values = [String: LibraryDump.Value]

    package static func values(_ work: Work, photoId: Int64?) throws -> Values { try RowValues.encode(WorkRecord(work, photoId: photoId)) }
    /// The Work without credits, editions or entry, and the photo row it belongs to.
    package static func work(_ values: Values) throws -> (work: Work, photoId: Int64?) {
        let record = try RowValues.decode(WorkRecord.self, from: values)
        return (record.bareModel, record.photoId)
    }

    package static func values(_ author: Author) throws -> Values { try RowValues.encode(AuthorRecord(author)) }
    package static func author(_ values: Values) throws -> Author { try RowValues.decode(AuthorRecord.self, from: values).model }

    package static func values(_ edition: Edition, workId: Int64?) throws -> Values {
        try RowValues.encode(EditionRecord(edition, workId: workId))
    }
    package static func edition(_ values: Values) throws -> Edition { try RowValues.decode(EditionRecord.self, from: values).model }

    package static func values(_ entry: UserLibraryEntry, workId: Int64) throws -> Values {
        try RowValues.encode(EntryRecord(entry, workId: workId))
    }
    package static func entry(_ values: Values) throws -> UserLibraryEntry { try RowValues.decode(EntryRecord.self, from: values).model }
}

/// A record's properties as column values, the way GRDB stores a `Codable` record: numbers, text, dates and
/// booleans (as 0/1) as themselves, nil as NULL, and anything else (an array, a nested value) as JSON text made
/// by GRDB's own JSON settings, so the PostgreSQL engine keeps byte for byte what SQLite keeps.
enum RowValues {
    static func jsonEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dataEncodingStrategy = .base64
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.nonConformingFloatEncodingStrategy = .throw
        encoder.outputFormatting = .sortedKeys
        return encoder
    }

    static func jsonDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dataDecodingStrategy = .base64
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }

    static func encode(_ record: some Encodable) throws -> WorkRows.Values {
        let encoder = ValuesEncoder()
        try record.encode(to: encoder)
        // Synthesized `Codable` skips a nil optional; GRDB stores it as NULL, and so must these values.
        for case let (name?, _) in Mirror(reflecting: record).children where encoder.values[name] == nil { encoder.values[name] = .null }
        return encoder.values
    }

    static func decode<T: Decodable>(_ type: T.Type, from values: WorkRows.Values) throws -> T {
        try T(from: ValuesDecoder(values: values))
    }

    /// One column's value: a single value as itself, else JSON.
    static func value(_ value: some Encodable) throws -> LibraryDump.Value {
        switch value {
        case let v as Int64: .integer(v)
        case let v as Int: .integer(Int64(v))
        case let v as Bool: .integer(v ? 1 : 0)
        case let v as Double: .real(v)
        case let v as String: .text(v)
        case let v as Date: .date(v)
        // An enum by its raw value; anything else (a list, a nested value) as JSON.
        case is any RawRepresentable: try SingleValueProbe.value(of: value)
        default: .text(String(decoding: try jsonEncoder().encode(value), as: UTF8.self))
        }
    }
}

private final class ValuesEncoder: Encoder {
    var values: WorkRows.Values = [:]
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Container(encoder: self))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { preconditionFailure("a record encodes keyed") }
    func singleValueContainer() -> any SingleValueEncodingContainer { preconditionFailure("a record encodes keyed") }

    struct Container<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: ValuesEncoder
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil(forKey key: Key) throws { encoder.values[key.stringValue] = .null }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { encoder.values[key.stringValue] = try RowValues.value(value) }
        mutating func nestedContainer<N: CodingKey>(keyedBy keyType: N.Type, forKey key: Key) -> KeyedEncodingContainer<N> {
            preconditionFailure("a record's columns are flat")
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { preconditionFailure("a record's columns are flat") }
        mutating func superEncoder() -> any Encoder { encoder }
        mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
    }
}

/// A value that encodes as one plain value (an enum with a raw value), as GRDB stores it: that value itself.
private enum SingleValueProbe {
    struct NotSingle: Error {}

    static func value(of value: some Encodable) throws -> LibraryDump.Value {
        let probe = Probe()
        do { try value.encode(to: probe) } catch is NotSingle {}
        guard let found = probe.found else { return .text(String(decoding: try RowValues.jsonEncoder().encode(value), as: UTF8.self)) }
        return found
    }

    final class Probe: Encoder, SingleValueEncodingContainer {
        var found: LibraryDump.Value?
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }
        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(Refusing())
        }
        func unkeyedContainer() -> any UnkeyedEncodingContainer { RefusingUnkeyed() }
        func singleValueContainer() -> any SingleValueEncodingContainer { self }
        func encodeNil() throws { found = .null }
        func encode<T: Encodable>(_ value: T) throws { found = try RowValues.value(value) }
    }

    /// Throws on first use: the value is not a single one, so it goes as JSON.
    struct Refusing<Key: CodingKey>: KeyedEncodingContainerProtocol {
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil(forKey key: Key) throws { throw NotSingle() }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw NotSingle() }
        mutating func nestedContainer<N: CodingKey>(keyedBy keyType: N.Type, forKey key: Key) -> KeyedEncodingContainer<N> {
            KeyedEncodingContainer(Refusing<N>())
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { RefusingUnkeyed() }
        mutating func superEncoder() -> any Encoder { Probe() }
        mutating func superEncoder(forKey key: Key) -> any Encoder { Probe() }
    }

    struct RefusingUnkeyed: UnkeyedEncodingContainer {
        var codingPath: [any CodingKey] { [] }
        var count: Int { 0 }
        mutating func encodeNil() throws { throw NotSingle() }
        mutating func encode<T: Encodable>(_ value: T) throws { throw NotSingle() }
        mutating func nestedContainer<N: CodingKey>(keyedBy keyType: N.Type) -> KeyedEncodingContainer<N> { KeyedEncodingContainer(Refusing<N>()) }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { RefusingUnkeyed() }
        mutating func superEncoder() -> any Encoder { Probe() }
    }
}

private struct ValuesDecoder: Decoder {
    let values: WorkRows.Values
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Container(values: values))
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { preconditionFailure("a record decodes keyed") }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { preconditionFailure("a record decodes keyed") }

    struct Container<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let values: WorkRows.Values
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { values.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { values[key.stringValue] != nil }
        func decodeNil(forKey key: Key) throws -> Bool {
            if case .null? = values[key.stringValue] { return true }
            return values[key.stringValue] == nil
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            guard let value = values[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "no column \(key.stringValue)"))
            }
            return try RowValues.decode(type, from: value, column: key.stringValue)
        }

        func nestedContainer<N: CodingKey>(keyedBy type: N.Type, forKey key: Key) throws -> KeyedDecodingContainer<N> {
            preconditionFailure("a record's columns are flat")
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { preconditionFailure("a record's columns are flat") }
        func superDecoder() throws -> any Decoder { ValuesDecoder(values: values) }
        func superDecoder(forKey key: Key) throws -> any Decoder { ValuesDecoder(values: values) }
    }
}

/// One column's value decoded as GRDB decodes it: a plain value as itself, an enum from its raw value, anything
/// else from JSON text.
private struct ColumnDecoder: Decoder, SingleValueDecodingContainer {
    let value: LibraryDump.Value
    let column: String
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> { throw mismatch("a keyed value") }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw mismatch("a list") }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }
    func decodeNil() -> Bool { if case .null = value { true } else { false } }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try RowValues.decode(type, from: value, column: column) }

    func mismatch(_ what: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: [], debugDescription: "column \(column) holds \(value), not \(what)"))
    }
}

extension RowValues {
    fileprivate static func decode<T: Decodable>(_ type: T.Type, from value: LibraryDump.Value, column: String) throws -> T {
        func bad() -> DecodingError {
            .typeMismatch(type, .init(codingPath: [], debugDescription: "column \(column) holds \(value)"))
        }
        switch (value, type) {
        case let (.integer(i), is Int64.Type): return i as! T
        case let (.integer(i), is Int.Type): return Int(i) as! T
        case let (.integer(i), is Bool.Type): return (i != 0) as! T
        case let (.integer(i), is Double.Type): return Double(i) as! T
        case let (.real(d), is Double.Type): return d as! T
        case let (.text(t), is String.Type): return t as! T
        case let (.date(d), is Date.Type): return d as! T
        case (.null, _): throw DecodingError.valueNotFound(type, .init(codingPath: [], debugDescription: "column \(column) is NULL"))
        case (_, is Int64.Type), (_, is Int.Type), (_, is Bool.Type), (_, is Double.Type), (_, is String.Type), (_, is Date.Type):
            throw bad()
        // An enum from its raw value; anything else (a list, a nested value) from JSON.
        case (_, is any RawRepresentable.Type): return try T(from: ColumnDecoder(value: value, column: column))
        case let (.text(t), _): return try jsonDecoder().decode(T.self, from: Data(t.utf8))
        default: throw bad()
        }
    }
}
