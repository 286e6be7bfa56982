import BookModel
import Foundation
import GRDB

public struct ImportReport: Sendable, Equatable, Codable {
    public struct RowProblem: Sendable, Equatable, Codable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
        public init(line: Int, message: String) { self.line = line; self.message = message }
    }
    public var format: ImportFormat
    /// New Works added to the library.
    public var imported: Int
    /// Rows that were a book already in the library (or earlier in the file): its IDs were merged in.
    public var merged: Int
    /// Rows skipped, with the line they start on and why.
    public var skipped: [RowProblem]
}

/// `library export --format json`: one entry per Work, seed-004 DTOs plus the reader's own entry.
public struct LibraryExport: Sendable, Codable, Equatable {
    public struct Entry: Sendable, Codable, Equatable {
        public var readingStatus: ReadingStatus
        public var owned: Bool
        public var dateAdded: String
        public var dateStarted: String?
        public var dateCompleted: String?
        public var currentPage: Int
        public var readingProgress: Double
        public var rating: Int?
        public var personalRating: Double?
        public var notes: String?
        public var tags: [String]
    }
    public struct Item: Sendable, Codable, Equatable {
        public var id: Int64
        public var work: WorkDTO
        public var authors: [AuthorDTO]
        /// People in other roles: name → roles ("translator", "illustrator", "editor").
        public var otherContributors: [String: [ContributorRole]]?
        public var editions: [EditionDTO]
        public var libraryEntry: Entry?
    }
    public var works: [Item]
}

extension LibraryStore {
    /// Imports a Goodreads, LibraryThing or StoryGraph CSV export (or any CSV with title and author columns),
    /// as saved: UTF-8 or Windows-1252, comma, semicolon or tab separated. A bad row is reported with its line
    /// and skipped; a book already present gains the row's IDs instead of a copy.
    public func importCSV(_ bytes: [UInt8], date: Date = Date()) throws -> ImportReport {
        var (report, rows) = try ImportRows.csv(bytes, date: date)
        try importWorks(rows, into: &report, date: date)
        report.skipped.sort { $0.line < $1.line }
        return report
    }

    /// `importCSV` of text already in memory.
    public func importCSV(_ text: String, date: Date = Date()) throws -> ImportReport {
        try importCSV(Array(text.utf8), date: date)
    }

    /// Writes imported Works in transactions of a few hundred rows (one per row would be one fsync per row),
    /// each row in its own savepoint so a failing row is skipped alone. Short transactions let a review
    /// session decide while a big import runs.
    /// - Parameter rows: `owned` says whether the entry holds its first edition; nil: unless it is a wishlist entry.
    private func importWorks(_ rows: [ImportRows.Row], into report: inout ImportReport, date: Date) throws {
        var index = try duplicateIndex()
        var start = 0
        while start < rows.count {
            let chunk = rows[start..<min(rows.count, start + 250)]
            start += chunk.count
            try run { db in
                for (line, work, ownedOverride) in chunk {
                    do {
                        try db.inSavepoint {
                            if let dup = index.candidates(for: work, threshold: DuplicateRule.fuzzyThreshold, limit: 1).first,
                               var existing = try WorkGraph.load(db, id: dup.id) {
                                var incoming = work
                                incoming.libraryEntry = nil
                                incoming.editions = incoming.editions.map { var e = $0; e.id = nil; return e }
                                existing.absorb(incoming, at: date)
                                index.add(try WorkGraph.save(db, existing))
                                report.merged += 1
                                return .commit
                            }
                            let owned = ownedOverride ?? (work.libraryEntry.map { $0.readingStatus != .wishlist } ?? false)
                            let w = try WorkGraph.save(db, work, bump: false, ownFirstEdition: owned)
                            index.add(w)
                            report.imported += 1
                            return .commit
                        }
                    } catch {
                        report.skipped.append(.init(line: line, message: "\(error)"))
                    }
                }
            }
        }
    }

    /// Imports a JSON export (the `data` of the envelope, or the whole envelope); deduplicated like CSV.
    public func importJSON(_ data: Data, date: Date = Date()) throws -> ImportReport {
        var (report, rows) = try ImportRows.json(data, date: date)
        try importWorks(rows, into: &report, date: date)
        return report
    }
}
