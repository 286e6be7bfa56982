import BookModel
import Foundation
import GRDB

public struct ImportReport: Sendable, Equatable, Codable {
    public struct RowProblem: Sendable, Equatable, Codable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
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
        let (records, problems) = CSVReader.read(bytes)
        guard let header = records.first else { throw LibraryError.importFailed("the file is empty") }
        guard let format = ImportFormat.detect(header: header.fields) else {
            throw LibraryError.importFailed("not a Goodreads, LibraryThing or StoryGraph export, nor a CSV with title and author columns (its header row has: \(String(header.fields.prefix(6).joined(separator: ", ").unicodeScalars.filter { $0.value >= 32 && $0.value < 127 }.prefix(80)))…)")
        }
        let mapper = RowMapper(format: format, header: header.fields, date: date)
        var rows: [(line: Int, work: Work, owned: Bool?)] = []
        var report = ImportReport(format: format, imported: 0, merged: 0,
                                  skipped: problems.map { .init(line: $0.line, message: $0.reason) })
        for record in records.dropFirst() {
            if record.fields.count < header.fields.count / 2 {
                report.skipped.append(.init(line: record.line, message: "only \(record.fields.count) of \(header.fields.count) columns"))
                continue
            }
            do { rows.append((record.line, try mapper.map(record.fields), nil)) } catch {
                report.skipped.append(.init(line: record.line, message: error.description))
            }
        }
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
    private func importWorks(_ rows: [(line: Int, work: Work, owned: Bool?)], into report: inout ImportReport, date: Date) throws {
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

    /// Reviewed Works as Goodreads-compatible CSV (Goodreads, StoryGraph and this tool import it back).
    public func exportCSV() throws -> String {
        let header = ["Book Id", "Title", "Author", "Author l-f", "Additional Authors", "ISBN", "ISBN13", "My Rating",
                      "Average Rating", "Publisher", "Binding", "Number of Pages", "Year Published",
                      "Original Publication Year", "Date Read", "Date Added", "Bookshelves", "Bookshelves with positions",
                      "Exclusive Shelf", "My Review", "Spoiler", "Private Notes", "Read Count", "Owned Copies"]
        let day = DateFormatter()
        day.locale = Locale(identifier: "en_US_POSIX"); day.timeZone = TimeZone(identifier: "UTC"); day.dateFormat = "yyyy/MM/dd"
        var rows = [header]
        for w in try works() {
            let authors = w.authors.map(\.name)
            let edition = w.editions.first { $0.id == w.libraryEntry?.editionID } ?? w.editions.first
            let all = edition.map { [$0.isbn].compactMap { $0 } + $0.isbns } ?? []
            let isbn10 = all.first { $0.count == 10 }, isbn13 = all.first { $0.count == 13 }
            let entry = w.libraryEntry
            let shelf: String = switch entry?.readingStatus ?? .toRead {
            case .wishlist: "wishlist"
            case .toRead: "to-read"
            case .reading: "currently-reading"
            case .read: "read"
            case .onHold: "on-hold"
            case .dnf: "did-not-finish"
            }
            let lastFirst: String = authors.first.map { name in
                let parts = name.split(separator: " ")
                return parts.count > 1 ? "\(parts.last!), \(parts.dropLast().joined(separator: " "))" : name
            } ?? ""
            rows.append([
                w.goodreadsWorkIDs.first ?? "", w.title, authors.first ?? "", lastFirst, authors.dropFirst().joined(separator: ", "),
                isbn10.map { "=\"\($0)\"" } ?? "", isbn13.map { "=\"\($0)\"" } ?? "", String(entry?.rating ?? 0), "",
                edition?.publisher ?? "", edition?.format.rawValue ?? "", edition?.pageCount.map(String.init) ?? "",
                CanonicalRules.extractYear(fromDate: edition?.publicationDate).map(String.init) ?? "",
                w.firstPublicationYear.map(String.init) ?? "", entry?.dateCompleted.map(day.string) ?? "",
                entry.map { day.string(from: $0.dateAdded) } ?? "", ((entry?.tags ?? []) + [shelf]).joined(separator: ", "), "",
                shelf, "", "", entry?.notes ?? "", entry?.readingStatus == .read ? "1" : "0", entry?.isOwned == true ? "1" : "0",
            ])
        }
        return CSVWriter.write(rows)
    }

    /// Reviewed Works as DTOs, for `library export --format json` (wrapped in the seed-004 envelope by the CLI).
    public func exportLibrary() throws -> LibraryExport {
        LibraryExport(works: try works().map { w in
            var others: [String: [ContributorRole]] = [:]
            for c in w.credits where c.roles != [.author] {
                let roles = c.roles.subtracting([.author]).sorted()
                if !roles.isEmpty { others[c.author.name] = roles }
            }
            let entry = w.libraryEntry.map { e in
                LibraryExport.Entry(readingStatus: e.readingStatus, owned: e.isOwned, dateAdded: ISO8601.string(from: e.dateAdded),
                                    dateStarted: e.dateStarted.map(ISO8601.string(from:)),
                                    dateCompleted: e.dateCompleted.map(ISO8601.string(from:)), currentPage: e.currentPage,
                                    readingProgress: e.readingProgress, rating: e.rating, personalRating: e.personalRating,
                                    notes: e.notes, tags: e.tags)
            }
            return LibraryExport.Item(id: w.id!, work: w.dto, authors: w.authors.map(\.dto),
                                      otherContributors: others.isEmpty ? nil : others, editions: w.editions.map(\.dto),
                                      libraryEntry: entry)
        })
    }

    /// Imports a JSON export (the `data` of the envelope, or the whole envelope); deduplicated like CSV.
    public func importJSON(_ data: Data, date: Date = Date()) throws -> ImportReport {
        let export: LibraryExport
        if let envelope = try? JSONDecoder().decode(SuccessResponse<LibraryExport>.self, from: data) {
            export = envelope.data
        } else {
            do { export = try JSONDecoder().decode(LibraryExport.self, from: data) } catch {
                throw LibraryError.importFailed("not a shelfscan JSON export: \(error)")
            }
        }
        var report = ImportReport(format: .shelfscan, imported: 0, merged: 0, skipped: [])
        var rows: [(line: Int, work: Work, owned: Bool?)] = []
        for (n, item) in export.works.enumerated() {
            var w = Work(item.work, authors: item.authors.map { Author($0, date: date) }, date: date)
            for (name, roles) in item.otherContributors ?? [:] { for r in roles { w.addAuthor(Author(name: name), role: r, at: date) } }
            w.editions = item.editions.map { Edition($0, date: date) }
            if let e = item.libraryEntry {
                var entry = UserLibraryEntry(readingStatus: .toRead, dateAdded: ISO8601.date(from: e.dateAdded) ?? date)
                if e.readingStatus != .toRead { entry.setStatus(e.readingStatus, at: entry.dateAdded) }
                entry.dateStarted = e.dateStarted.flatMap(ISO8601.date(from:))
                entry.dateCompleted = e.dateCompleted.flatMap(ISO8601.date(from:))
                entry.currentPage = e.currentPage; entry.readingProgress = e.readingProgress
                entry.rating = e.rating; entry.personalRating = e.personalRating; entry.notes = e.notes; entry.tags = e.tags
                w.libraryEntry = entry
            }
            let issues = w.validationIssues(forVerification: w.reviewStatus != .needsReview)
            if !issues.isEmpty { report.skipped.append(.init(line: n + 1, message: ValidationError(issues).description)); continue }
            rows.append((n + 1, w, item.libraryEntry?.owned ?? false))
        }
        try importWorks(rows, into: &report, date: date)
        return report
    }
}
