import BookModel
import Foundation

/// One book a library, a bookshop or a reader already knows about.
public struct CatalogEntry: Sendable, Hashable, Codable {
    public var title: String
    /// Main author first; names as the source wrote them ("Bunge, Mario" or "Mario Bunge").
    public var authors: [String]
    public var isbn: String
    /// Call number / shelf mark ("863 Mar"), empty when the source has none.
    public var tag: String
    public var series: String

    public init(title: String, authors: [String] = [], isbn: String = "", tag: String = "", series: String = "") {
        self.title = title
        self.authors = authors
        self.isbn = isbn
        self.tag = tag
        self.series = series
    }
}

/// A catalogue row that was skipped, with the line it started on so the user can fix the file.
public struct CatalogRowError: Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var reason: String
    public var description: String { "line \(line): \(reason)" }
}

/// Whole-file failures; a single bad row is a `CatalogRowError` instead.
public enum CatalogError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case badHeader(String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "Cannot read catalogue \(path): \(reason)"
        case .badHeader(let why): "Not a catalogue CSV: \(why)"
        }
    }
}

/// The list of books a reading may be snapped to.
public struct Catalog: Sendable {
    public var entries: [CatalogEntry]

    public init(entries: [CatalogEntry]) { self.entries = entries }

    /// Loads a catalogue CSV: a Goodreads export or any CSV with a title column (author, isbn, tag, series
    /// optional); bad rows are skipped and returned so the caller can report them.
    public static func load(csvAt path: String) throws -> (Catalog, [CatalogRowError]) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "not readable" : "no such file"
            throw CatalogError.unreadable(path: path, reason: reason)
        }
        return try parse(csv: [UInt8](data))
    }

    /// Parses catalogue CSV bytes; see `load(csvAt:)`.
    public static func parse(csv raw: [UInt8]) throws -> (Catalog, [CatalogRowError]) {
        let (records, problems) = CSVReader.read(raw)
        var errors = problems.map { CatalogRowError(line: $0.line, reason: $0.reason) }
        guard let header = records.first else { throw CatalogError.badHeader("the file is empty") }
        let columns = try CatalogColumns(header: header.fields)
        var entries: [CatalogEntry] = []
        entries.reserveCapacity(records.count)
        for record in records.dropFirst() {
            switch columns.entry(from: record.fields) {
            case .success(let entry): entries.append(entry)
            case .failure(let problem): errors.append(CatalogRowError(line: record.line, reason: problem.reason))
            }
        }
        errors.sort { $0.line < $1.line }
        return (Catalog(entries: entries), errors)
    }
}
