/// Maps a CSV header onto catalogue fields, case-insensitively, so the same loader reads a Goodreads export
/// ("Title, Author, Additional Authors, ISBN, ISBN13"), a library dump ("title,author,tag,series,isbn") or a
/// hand-made sheet ("Book Title; Call Number").
struct CatalogColumns {
    let title: Int
    let author: Int?
    let additionalAuthors: Int?
    let isbn13: Int?
    let isbn: Int?
    let tag: Int?
    let series: Int?
    let count: Int

    struct RowProblem: Error { let reason: String }

    init(header: [String]) throws {
        let names = header.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        func find(_ candidates: [String]) -> Int? {
            for c in candidates { if let i = names.firstIndex(of: c) { return i } }
            return nil
        }
        guard let title = find(["title", "book title", "titulo", "título", "títol", "titol", "name"]) else {
            let shown = header.prefix(8).joined(separator: ",")
            throw CatalogError.badHeader("no title column (header: \(shown)); expected e.g. title,author,isbn,tag,series")
        }
        self.title = title
        author = find(["author", "authors", "author l-f", "autor", "autora", "autor/a", "creator"])
        additionalAuthors = find(["additional authors"])
        isbn13 = find(["isbn13", "isbn 13", "isbn_13", "isbn-13"])
        isbn = find(["isbn", "isbn10", "isbn 10", "isbn_10", "isbn-10"])
        tag = find(["tag", "call number", "call_number", "callnumber", "call no", "shelfmark", "signatura", "shelf mark",
                    "signatura topográfica", "signatura topogràfica"])
        series = find(["series", "serie", "collection", "colección", "col·lecció"])
        count = names.count
    }

    func entry(from fields: [String]) -> Result<CatalogEntry, RowProblem> {
        guard fields.count == count else {
            return .failure(RowProblem(reason: "\(fields.count) fields where the header has \(count)"))
        }
        var title = fields[title].trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { return .failure(RowProblem(reason: "empty title")) }
        var series = series.map { fields[$0].trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        if series.isEmpty, let split = Self.goodreadsSeries(title) { (title, series) = split }

        var authors: [String] = []
        if let a = author {
            let main = fields[a].trimmingCharacters(in: .whitespacesAndNewlines)
            if !main.isEmpty { authors.append(main) }
        }
        if let a = additionalAuthors {
            authors += fields[a].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        let isbn = [isbn13, isbn].lazy.compactMap { $0 }.map { Self.cleanISBN(fields[$0]) }.first { !$0.isEmpty } ?? ""
        let tag = tag.map { fields[$0].trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        return .success(CatalogEntry(title: title, authors: authors, isbn: isbn, tag: tag, series: series))
    }

    /// Goodreads writes ISBNs as `="0123456789"` so spreadsheets keep the leading zero.
    static func cleanISBN(_ raw: String) -> String {
        var s = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if s.hasPrefix("=") { s.removeFirst() }
        s = s.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        return s
    }

    /// Goodreads appends the series to the title: "The Two Towers (The Lord of the Rings, #2)".
    static func goodreadsSeries(_ title: String) -> (String, String)? {
        guard title.hasSuffix(")"), let open = title.lastIndex(of: "("), title[open...].contains("#") else { return nil }
        let main = title[..<open].trimmingCharacters(in: .whitespaces)
        let inner = title[title.index(after: open)..<title.index(before: title.endIndex)]
        guard !main.isEmpty else { return nil }
        return (main, inner.trimmingCharacters(in: .whitespaces))
    }
}

import Foundation
