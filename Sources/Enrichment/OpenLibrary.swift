import BookModel
import Foundation

/// OpenLibrary's JSON, as documented at openlibrary.org/dev/docs/api (search, books, works, authors).
/// Every field is optional: records are community-edited and any of them may be missing.
enum OpenLibrary {
    /// `/search.json`: one doc per Work, with the ISBNs and IDs of all its editions.
    struct SearchResponse: Decodable {
        var numFound: Int?
        var docs: [SearchDoc]?
    }

    struct SearchDoc: Decodable {
        var key: String?
        var title: String?
        var subtitle: String?
        var author_name: [String]?
        var author_key: [String]?
        var first_publish_year: Int?
        var edition_count: Int?
        var edition_key: [String]?
        var cover_i: Int?
        var cover_edition_key: String?
        var isbn: [String]?
        var subject: [String]?
        var language: [String]?
        var publisher: [String]?
        var number_of_pages_median: Int?
        var id_goodreads: [String]?
        var id_amazon: [String]?
        var id_librarything: [String]?
        var id_google: [String]?
    }

    /// The fields asked for: the search's default set leaves out ISBNs and the other providers' IDs.
    static let searchFields = "key,title,subtitle,author_name,author_key,first_publish_year,edition_count,edition_key,"
        + "cover_i,cover_edition_key,isbn,subject,language,publisher,number_of_pages_median,"
        + "id_goodreads,id_amazon,id_librarything,id_google"

    struct Key: Decodable { var key: String? }
    struct AuthorRole: Decodable { var author: Key? }

    /// A description is either a string or `{"type": "/type/text", "value": "..."}`.
    struct Text: Decodable {
        var value: String?
        init(from decoder: Decoder) throws {
            if let s = try? decoder.singleValueContainer().decode(String.self) { value = s; return }
            struct Typed: Decodable { var value: String? }
            value = try? Typed(from: decoder).value
        }
    }

    /// `/books/OL…M.json`, which `/isbn/{isbn}.json` redirects to.
    struct EditionRecord: Decodable {
        var key: String?
        var title: String?
        var subtitle: String?
        var authors: [Key]?
        var works: [Key]?
        var isbn_10: [String]?
        var isbn_13: [String]?
        var publishers: [String]?
        var publish_date: String?
        var number_of_pages: Int?
        var covers: [Int]?
        var physical_format: String?
        var languages: [Key]?
        var identifiers: [String: [String]]?
        var edition_name: String?
        var description: Text?
    }

    /// `/works/OL…W.json`.
    struct WorkRecord: Decodable {
        var key: String?
        var title: String?
        var subtitle: String?
        var authors: [AuthorRole]?
        var subjects: [String]?
        var description: Text?
        var first_publish_date: String?
        var covers: [Int]?
    }

    /// `/authors/OL…A.json`.
    struct AuthorRecord: Decodable {
        var key: String?
        var name: String?
        var personal_name: String?
        var birth_date: String?
        var death_date: String?
    }

    static func coverURL(_ id: Int?) -> String? {
        guard let id, id > 0 else { return nil }
        return "https://covers.openlibrary.org/b/id/\(id)-L.jpg"
    }

    /// "/languages/eng" → "eng".
    static func language(_ keys: [Key]?) -> String? { keys?.compactMap { Normalize.olid($0.key) }.first }

    // MARK: Normalizers (seed 004)

    /// A search doc is a Work with its editions folded in: the Work takes the doc's title, year, subjects
    /// and cross-provider IDs; the Edition is the cover edition with the ISBNs of the editions listed.
    static func book(from doc: SearchDoc) -> EnrichedBook? {
        guard let title = Normalize.trimmed(doc.title) else { return nil }
        let provider = BookProvider.openlibrary.provenanceName
        var work = WorkDTO(title: title, subjectTags: SubjectTags.normalize(doc.subject ?? []),
                           firstPublicationYear: doc.first_publish_year, primaryProvider: provider, contributors: [provider],
                           openLibraryWorkID: Normalize.olid(doc.key), goodreadsWorkIDs: Normalize.ids(doc.id_goodreads),
                           amazonASINs: Normalize.ids(doc.id_amazon), librarythingIDs: Normalize.ids(doc.id_librarything),
                           googleBooksVolumeIDs: Normalize.ids(doc.id_google))
        work.originalLanguage = doc.language?.first
        let isbns = Normalize.isbns(doc.isbn ?? [])
        let edition = EditionDTO(isbn: isbns.first, isbns: isbns, title: title, publisher: doc.publisher?.first,
                                 pageCount: doc.number_of_pages_median, coverImageURL: coverURL(doc.cover_i),
                                 language: doc.language?.first, primaryProvider: provider, contributors: [provider],
                                 openLibraryEditionID: Normalize.trimmed(doc.cover_edition_key) ?? doc.edition_key?.first)
        let names = doc.author_name ?? []
        let keys = doc.author_key ?? []
        let authors = names.enumerated().compactMap { i, name -> AuthorDTO? in
            guard let n = Normalize.trimmed(name) else { return nil }
            return AuthorDTO(name: n, openLibraryID: i < keys.count ? Normalize.olid(keys[i]) : nil)
        }
        return EnrichedBook(work: work, edition: edition, authors: authors, subtitle: Normalize.trimmed(doc.subtitle),
                            editionCount: doc.edition_count)
    }

    /// An edition record, and its Work when OpenLibrary links one; with no Work the Work is synthetic
    /// (seed 004 rule 1), built from the edition itself.
    static func book(edition record: EditionRecord, work: WorkRecord?, authors: [AuthorRecord]) -> EnrichedBook? {
        let provider = BookProvider.openlibrary.provenanceName
        let isbns = Normalize.isbns((record.isbn_13 ?? []) + (record.isbn_10 ?? []))
        guard let title = Normalize.trimmed(record.title) ?? Normalize.trimmed(work?.title) else { return nil }
        let ids = record.identifiers ?? [:]
        let edition = EditionDTO(isbn: isbns.first, isbns: isbns, title: title, publisher: record.publishers?.first,
                                 publicationDate: Normalize.publicationDate(record.publish_date), pageCount: record.number_of_pages,
                                 format: Normalize.format(record.physical_format), coverImageURL: coverURL(record.covers?.first),
                                 editionTitle: Normalize.trimmed(record.edition_name),
                                 description: Normalize.description(record.description?.value),
                                 language: language(record.languages), primaryProvider: provider, contributors: [provider],
                                 openLibraryID: Normalize.olid(record.key), openLibraryEditionID: Normalize.olid(record.key),
                                 goodreadsID: ids["goodreads"]?.first, amazonASINs: Normalize.ids(ids["amazon"]),
                                 googleBooksVolumeIDs: Normalize.ids(ids["google"]), librarythingIDs: Normalize.ids(ids["librarything"]))
        var dto: WorkDTO
        if let work, let workTitle = Normalize.trimmed(work.title) {
            dto = WorkDTO(title: workTitle, subjectTags: SubjectTags.normalize(work.subjects ?? []),
                          firstPublicationYear: CanonicalRules.extractYear(fromDate: work.first_publish_date),
                          description: Normalize.description(work.description?.value), primaryProvider: provider,
                          contributors: [provider], openLibraryWorkID: Normalize.olid(work.key),
                          goodreadsWorkIDs: Normalize.ids(ids["goodreads"]), amazonASINs: edition.amazonASINs,
                          librarythingIDs: edition.librarythingIDs, googleBooksVolumeIDs: edition.googleBooksVolumeIDs)
        } else {
            dto = CanonicalRules.ensureWorkForEdition(edition, provider: provider)
            dto.contributors = [provider]
            dto.openLibraryID = Normalize.olid(record.key)
        }
        let people = authors.compactMap { a -> AuthorDTO? in
            guard let name = Normalize.trimmed(a.name) ?? Normalize.trimmed(a.personal_name) else { return nil }
            return AuthorDTO(name: name, birthYear: CanonicalRules.extractYear(fromDate: a.birth_date),
                             deathYear: CanonicalRules.extractYear(fromDate: a.death_date), openLibraryID: Normalize.olid(a.key))
        }
        return EnrichedBook(work: dto, edition: edition, authors: people,
                            subtitle: Normalize.trimmed(record.subtitle) ?? Normalize.trimmed(work?.subtitle))
    }
}

/// OpenLibrary's search, ISBN, works and authors endpoints, normalized to seed 004.
struct OpenLibraryClient: Sendable {
    let http: ProviderHTTP

    /// `/search.json?title=&author=` (or `q=` for words that may be either).
    func search(title: [String], author: [String], anyField: [String], limit: Int) async throws(EnrichmentError) -> [EnrichedBook] {
        var query: [URLQueryItem] = []
        if !anyField.isEmpty { query.append(URLQueryItem(name: "q", value: anyField.joined(separator: " "))) }
        if !title.isEmpty { query.append(URLQueryItem(name: "title", value: title.joined(separator: " "))) }
        if !author.isEmpty { query.append(URLQueryItem(name: "author", value: author.joined(separator: " "))) }
        query += [URLQueryItem(name: "fields", value: OpenLibrary.searchFields), URLQueryItem(name: "limit", value: String(limit))]
        let reply = try await http.get(.openlibrary, path: "/search.json", query: query)
        guard reply.status == 200 else { return [] }
        let decoded: OpenLibrary.SearchResponse = try decode(reply.body)
        return (decoded.docs ?? []).compactMap(OpenLibrary.book(from:))
    }

    /// `/isbn/{isbn}.json` (a redirect to the edition), then its Work and authors. nil when OpenLibrary
    /// does not know the ISBN.
    func lookup(isbn: String) async throws(EnrichmentError) -> EnrichedBook? {
        let reply = try await http.get(.openlibrary, path: "/isbn/\(isbn).json")
        guard reply.status == 200 else { return nil }
        let edition: OpenLibrary.EditionRecord = try decode(reply.body)
        var work: OpenLibrary.WorkRecord?
        if let key = edition.works?.first?.key, let id = Normalize.olid(key) {
            let w = try await http.get(.openlibrary, path: "/works/\(id).json")
            if w.status == 200 { work = try decode(w.body) }
        }
        let authorKeys = (edition.authors?.compactMap(\.key) ?? []) + (work?.authors?.compactMap { $0.author?.key } ?? [])
        var seen = Set<String>()
        var authors: [OpenLibrary.AuthorRecord] = []
        for key in authorKeys.prefix(6) {
            guard let id = Normalize.olid(key), seen.insert(id).inserted else { continue }
            let a = try await http.get(.openlibrary, path: "/authors/\(id).json")
            if a.status == 200 { authors.append(try decode(a.body)) }
        }
        return OpenLibrary.book(edition: edition, work: work, authors: authors)
    }

    private func decode<T: Decodable>(_ data: Data) throws(EnrichmentError) -> T {
        do { return try JSONDecoder().decode(T.self, from: data) } catch {
            throw .malformed(.openlibrary, "not OpenLibrary's JSON")
        }
    }
}
