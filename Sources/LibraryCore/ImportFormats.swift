import BookModel
import Foundation

/// The export formats `library import` understands, recognized by their header row.
public enum ImportFormat: String, Sendable, CaseIterable, Codable {
    case goodreads, librarything, storygraph
    /// Any CSV with `title` and `author`/`authors` columns (a library catalogue, a spreadsheet).
    case generic
    /// A `library export --format json` file.
    case shelfscan

    static func detect(header: [String]) -> ImportFormat? {
        let h = Set(header.map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
        if h.contains("exclusive shelf") || (h.contains("author l-f") && h.contains("title")) { return .goodreads }
        if h.contains("read status") && h.contains("title") { return .storygraph }
        if h.contains("primary author") && h.contains("title") { return .librarything }
        if h.contains("title") && (h.contains("author") || h.contains("authors")) { return .generic }
        return nil
    }
}

/// Maps a CSV row of a known export to a verified Work with its library entry.
struct RowMapper {
    let format: ImportFormat
    let columns: [String: Int]
    let date: Date

    init(format: ImportFormat, header: [String], date: Date) {
        self.format = format
        var c: [String: Int] = [:]
        for (i, name) in header.enumerated() { c[name.trimmingCharacters(in: .whitespaces).lowercased()] = c[name.lowercased()] ?? i }
        columns = c
        self.date = date
    }

    func value(_ fields: [String], _ name: String) -> String? {
        guard let i = columns[name], i < fields.count else { return nil }
        let v = fields[i].trimmingCharacters(in: .whitespacesAndNewlines)
        return v.isEmpty ? nil : v
    }

    /// Goodreads writes ISBNs as `="0441172717"` so spreadsheets keep the zeros; LibraryThing as `[0441172717]`.
    static func cleanISBN(_ raw: String?) -> String? {
        guard var s = raw else { return nil }
        s = s.trimmingCharacters(in: CharacterSet(charactersIn: "=\"[] "))
        return s.isEmpty ? nil : s
    }

    static func parseDate(_ raw: String?) -> Date? {
        guard let raw else { return nil }
        for pattern in ["yyyy/MM/dd", "yyyy-MM-dd", "yyyy/M/d", "MM/dd/yyyy", "yyyy-MM-dd HH:mm:ss", "yyyy"] {
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX"); f.timeZone = TimeZone(identifier: "UTC"); f.dateFormat = pattern
            if let d = f.date(from: raw) { return d }
        }
        return ISO8601.date(from: raw)
    }

    static func splitNames(_ raw: String?) -> [String] {
        guard let raw else { return [] }
        return raw.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func map(_ fields: [String]) throws(ValidationError) -> Work {
        var issues: [ValidationIssue] = []
        let title = value(fields, "title") ?? ""
        var authors: [String] = []
        var translators: [String] = []
        var isbnCandidates: [String] = []
        var rating: Int?, personalRating: Double?
        var status: ReadingStatus?
        var tags: [String] = []
        var notes: String?, publisher: String?, pages: Int?, year: Int?, pubYear: Int?
        var format: EditionFormat?
        var dateAdded: Date?, dateRead: Date?
        var goodreadsID: String?, librarythingID: String?

        func number(_ name: String) -> Double? {
            guard let v = value(fields, name) else { return nil }
            guard let d = Double(v) else { issues.append(ValidationIssue(field: name, message: "\"\(v)\" is not a number")); return nil }
            return d
        }

        switch format_ {
        case .goodreads:
            authors = [value(fields, "author")].compactMap { $0 } + Self.splitNames(value(fields, "additional authors"))
            isbnCandidates = [Self.cleanISBN(value(fields, "isbn13")), Self.cleanISBN(value(fields, "isbn"))].compactMap { $0 }
            if let r = number("my rating"), r > 0 { rating = Int(r); personalRating = r }
            status = ReadingStatus.from(string: value(fields, "exclusive shelf"))
            tags = Self.splitNames(value(fields, "bookshelves")).filter { ReadingStatus.from(string: $0) == nil }
            notes = value(fields, "private notes")
            publisher = value(fields, "publisher")
            pages = number("number of pages").map { Int($0) }
            year = number("original publication year").map { Int($0) }
            pubYear = number("year published").map { Int($0) }
            format = Self.format(value(fields, "binding"))
            dateAdded = Self.parseDate(value(fields, "date added"))
            dateRead = Self.parseDate(value(fields, "date read"))
            goodreadsID = value(fields, "book id")
        case .librarything:
            authors = [value(fields, "primary author"), value(fields, "secondary author")].compactMap { $0 }
                .map(Self.unInvert)
            isbnCandidates = Self.splitNames(Self.cleanISBN(value(fields, "isbns")) ?? Self.cleanISBN(value(fields, "isbn")))
            if let r = number("rating"), r > 0 { rating = max(1, Int(r.rounded())); personalRating = r }
            let collections = Self.splitNames(value(fields, "collections"))
            status = collections.lazy.compactMap { ReadingStatus.from(string: $0) }.first
            if status == nil && collections.contains(where: { $0.lowercased() == "wishlist" }) { status = .wishlist }
            tags = Self.splitNames(value(fields, "tags"))
            notes = value(fields, "private comment")
            publisher = value(fields, "publication")
            pages = number("page count").map { Int($0) }
            year = value(fields, "date").flatMap { CanonicalRules.extractYear(fromDate: $0) }
            format = Self.format(value(fields, "media"))
            dateAdded = Self.parseDate(value(fields, "entry date"))
            dateRead = Self.parseDate(value(fields, "date read"))
            librarythingID = value(fields, "work id")
        case .generic, .shelfscan:
            let names = value(fields, "authors") ?? value(fields, "author")
            authors = (names?.contains(";") == true ? names!.split(separator: ";").map(String.init) : [names].compactMap { $0 })
                .map { Self.unInvert(Self.dropLifeDates($0.trimmingCharacters(in: .whitespaces))) }.filter { !$0.isEmpty }
            isbnCandidates = [Self.cleanISBN(value(fields, "isbn13") ?? value(fields, "isbn"))].compactMap { $0 }
            if let r = number("rating"), r > 0 { rating = max(1, Int(r.rounded())); personalRating = r }
            status = ReadingStatus.from(string: value(fields, "status") ?? value(fields, "shelf") ?? value(fields, "reading status"))
            tags = Self.splitNames(value(fields, "tags"))
            notes = value(fields, "notes")
            publisher = value(fields, "publisher")
            pages = number("pages").map { Int($0) }
            year = (value(fields, "year") ?? value(fields, "date")).flatMap { CanonicalRules.extractYear(fromDate: $0) }
        case .storygraph:
            authors = Self.splitNames(value(fields, "authors"))
            for c in Self.splitNames(value(fields, "contributors")) where c.lowercased().contains("translator") {
                translators.append(c.replacingOccurrences(of: #"\s*\(.*\)$"#, with: "", options: .regularExpression))
            }
            isbnCandidates = [Self.cleanISBN(value(fields, "isbn/uid"))].compactMap { $0 }
            if let r = number("star rating"), r > 0 { rating = max(1, Int(r.rounded())); personalRating = r }
            status = ReadingStatus.from(string: value(fields, "read status"))
            tags = Self.splitNames(value(fields, "tags"))
            notes = value(fields, "review")
            format = Self.format(value(fields, "format"))
            dateAdded = Self.parseDate(value(fields, "date added"))
            dateRead = Self.parseDate(value(fields, "last date read"))
            if value(fields, "owned?")?.lowercased() == "no" && status == .toRead { status = .wishlist }
        }

        if let t = Rules.title(title) { issues.append(t) }
        if let a = Rules.authors(authors, required: true) { issues.append(a) }
        if let r = Rules.rating(rating) { issues.append(r) }
        if let r = Rules.personalRating(personalRating) { issues.append(r) }
        if let t = Rules.tags(tags) { issues.append(t) }
        if let n = Rules.notes(notes) { issues.append(n) }
        if let p = Rules.pageCount(pages) { issues.append(p) }
        // StoryGraph's ISBN/UID column holds its own IDs for books without an ISBN: only digit strings are ISBNs.
        let isbns = isbnCandidates.filter { format_ != .storygraph || ISBN.normalize($0) != nil }
        for i in isbns { if let issue = Rules.isbn(i) { issues.append(issue) } }
        if !issues.isEmpty { throw ValidationError(issues) }

        let added = dateAdded ?? date
        var work = Work(title: title, authors: authors, firstPublicationYear: year ?? pubYear, reviewStatus: .verified, dateCreated: added)
        for t in translators { work.addAuthor(Author(name: t), role: .translator, at: added) }
        if let goodreadsID { work.goodreadsWorkIDs = [goodreadsID] }
        if let librarythingID { work.librarythingIDs = [librarythingID] }
        work.contributors = [format_.rawValue]

        let status_ = status ?? .toRead
        let hasEditionData = !isbns.isEmpty || publisher != nil || pages != nil || format != nil
        if status_ != .wishlist || hasEditionData {
            var e = Edition(publisher: publisher, publicationDate: pubYear.map(String.init), pageCount: pages,
                            format: format ?? .paperback, dateCreated: added)
            for i in isbns { e.addISBN(i, at: added) }
            e.isbn = e.primaryISBN
            e.lastModified = added
            work.editions = [e]
        }
        var entry = status_ == .wishlist ? UserLibraryEntry.createWishlistEntry(at: added)
            : UserLibraryEntry(editionID: nil, readingStatus: .toRead, dateAdded: added)
        if status_ != .wishlist && status_ != .toRead { entry.setStatus(status_, at: dateRead ?? added) }
        if status_ == .read, let dateRead { entry.dateCompleted = dateRead }
        entry.rating = rating
        entry.personalRating = personalRating
        entry.tags = tags
        entry.notes = notes
        entry.lastModified = added
        work.libraryEntry = entry
        work.lastModified = added
        return work
    }

    private var format_: ImportFormat { format }

    /// "Bunge, Mario, 1919-2020" → "Bunge, Mario": library catalogues append life dates to names.
    static func dropLifeDates(_ name: String) -> String {
        name.replacingOccurrences(of: #",\s*(\d{3,4})?\s*-\s*(\d{3,4})?\.?\s*$"#, with: "", options: .regularExpression)
    }

    /// "Le Guin, Ursula K." → "Ursula K. Le Guin" (LibraryThing lists authors last name first).
    static func unInvert(_ name: String) -> String {
        let parts = name.split(separator: ",", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        return parts.count == 2 && !parts[1].isEmpty ? "\(parts[1]) \(parts[0])" : name
    }

    static func format(_ raw: String?) -> EditionFormat? {
        guard let raw else { return nil }
        let key = TextNormalization.normalize(raw).replacingOccurrences(of: " ", with: "")
        if let exact = EditionFormat.allCases.first(where: { TextNormalization.normalize($0.rawValue).replacingOccurrences(of: " ", with: "") == key }) {
            return exact
        }
        if key.contains("hard") { return .hardcover }
        if key.contains("massmarket") { return .massMarket }
        if key.contains("paper") || key.contains("soft") { return .paperback }
        if key.contains("kindle") || key.contains("ebook") || key.contains("digital") || key.contains("epub") { return .ebook }
        if key.contains("audio") { return .audiobook }
        return nil
    }
}
