import BookModel
import Foundation

/// Reading an import file into Works, apart from storing them, so both engines import a file the same way.
public enum ImportRows {
    /// One book to import: the line it starts on (for reports), the Work, and whether the entry holds its
    /// first edition (nil: unless it is a wishlist entry).
    public typealias Row = (line: Int, work: Work, owned: Bool?)

    /// A Goodreads, LibraryThing or StoryGraph CSV export (or any CSV with title and author columns), as saved:
    /// UTF-8 or Windows-1252, comma, semicolon or tab separated. A bad row is reported with its line.
    public static func csv(_ bytes: [UInt8], date: Date) throws -> (ImportReport, [Row]) {
        let (records, problems) = CSVReader.read(bytes)
        guard let header = records.first else { throw LibraryError.importFailed("the file is empty") }
        guard let format = ImportFormat.detect(header: header.fields) else {
            throw LibraryError.importFailed("not a Goodreads, LibraryThing or StoryGraph export, nor a CSV with title and author columns (its header row has: \(String(header.fields.prefix(6).joined(separator: ", ").unicodeScalars.filter { $0.value >= 32 && $0.value < 127 }.prefix(80)))…)")
        }
        let mapper = RowMapper(format: format, header: header.fields, date: date)
        var rows: [Row] = []
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
        return (report, rows)
    }

    /// A JSON export (the `data` of the envelope, or the whole envelope).
    public static func json(_ data: Data, date: Date) throws -> (ImportReport, [Row]) {
        let export: LibraryExport
        if let envelope = try? JSONDecoder().decode(SuccessResponse<LibraryExport>.self, from: data) {
            export = envelope.data
        } else {
            do { export = try JSONDecoder().decode(LibraryExport.self, from: data) } catch {
                throw LibraryError.importFailed("not a shelfscan JSON export: \(error)")
            }
        }
        var report = ImportReport(format: .shelfscan, imported: 0, merged: 0, skipped: [])
        var rows: [Row] = []
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
        return (report, rows)
    }
}

/// Exports read Works through the interface only, so they are the same on both engines.
extension LibraryStoring {
    /// Reviewed Works as Goodreads-compatible CSV (Goodreads, StoryGraph and this tool import it back).
    public func exportCSV() async throws -> String {
        let header = ["Book Id", "Title", "Author", "Author l-f", "Additional Authors", "ISBN", "ISBN13", "My Rating",
                      "Average Rating", "Publisher", "Binding", "Number of Pages", "Year Published",
                      "Original Publication Year", "Date Read", "Date Added", "Bookshelves", "Bookshelves with positions",
                      "Exclusive Shelf", "My Review", "Spoiler", "Private Notes", "Read Count", "Owned Copies"]
        let day = DateFormatter()
        day.locale = Locale(identifier: "en_US_POSIX"); day.timeZone = TimeZone(identifier: "UTC"); day.dateFormat = "yyyy/MM/dd"
        var rows = [header]
        for w in try await works() {
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
    public func exportLibrary() async throws -> LibraryExport {
        LibraryExport(works: try await works().map { w in
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

}
