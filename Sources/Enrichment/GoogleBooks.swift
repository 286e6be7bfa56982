import BookModel
import Foundation

/// Google Books' JSON, as documented in the Books API v1 reference (`volumes.list`, `Volume`). A search
/// with no results has no `items` at all, only `totalItems: 0`.
enum GoogleBooks {
    struct Volumes: Decodable {
        var kind: String?
        var totalItems: Int?
        var items: [Volume]?
    }

    struct Volume: Decodable {
        var id: String?
        var volumeInfo: VolumeInfo?
        var saleInfo: SaleInfo?
    }

    struct VolumeInfo: Decodable {
        var title: String?
        var subtitle: String?
        var authors: [String]?
        var publisher: String?
        var publishedDate: String?
        var description: String?
        var industryIdentifiers: [Identifier]?
        var pageCount: Int?
        var printType: String?
        var categories: [String]?
        var language: String?
        var imageLinks: [String: String]?
    }

    struct Identifier: Decodable {
        var type: String?
        var identifier: String?
    }

    struct SaleInfo: Decodable { var isEbook: Bool? }

    /// Google describes editions (volumes) only: the Work is synthetic (seed 004 rule 1), made from the
    /// volume, with the categories as subject tags.
    static func book(from volume: Volume) -> EnrichedBook? {
        guard let info = volume.volumeInfo, let title = Normalize.trimmed(info.title) else { return nil }
        let provider = BookProvider.googlebooks.provenanceName
        let ids = info.industryIdentifiers ?? []
        let isbns = Normalize.isbns(ids.filter { ($0.type ?? "").hasPrefix("ISBN") }.compactMap(\.identifier))
        let volumeID = Normalize.trimmed(volume.id)
        // Thumbnails come as http://; the same URL serves https.
        let cover = (info.imageLinks?["thumbnail"] ?? info.imageLinks?["smallThumbnail"])
            .map { $0.hasPrefix("http://") ? "https://" + $0.dropFirst("http://".count) : $0 }
        let edition = EditionDTO(isbn: isbns.first, isbns: isbns, title: title, publisher: Normalize.trimmed(info.publisher),
                                 publicationDate: Normalize.publicationDate(info.publishedDate),
                                 pageCount: (info.pageCount ?? 0) > 0 ? info.pageCount : nil,
                                 format: Normalize.format(nil, ebook: volume.saleInfo?.isEbook ?? false), coverImageURL: cover,
                                 description: Normalize.description(info.description), language: Normalize.trimmed(info.language),
                                 primaryProvider: provider, contributors: [provider], googleBooksVolumeID: volumeID,
                                 googleBooksVolumeIDs: volumeID.map { [$0] } ?? [])
        var work = CanonicalRules.ensureWorkForEdition(edition, provider: provider)
        work.subjectTags = SubjectTags.normalize(info.categories ?? [])
        work.contributors = [provider]
        work.googleBooksVolumeID = volumeID
        work.description = edition.description
        let authors = (info.authors ?? []).compactMap { Normalize.trimmed($0).map { AuthorDTO(name: $0) } }
        return EnrichedBook(work: work, edition: edition, authors: authors, subtitle: Normalize.trimmed(info.subtitle))
    }
}

/// Google Books' `volumes` search, by title and author words or by ISBN.
struct GoogleBooksClient: Sendable {
    let http: ProviderHTTP
    let key: ProviderKey?

    /// `q=intitle:w intitle:w inauthor:w` (plain words for `anyField`).
    func search(title: [String], author: [String], anyField: [String], limit: Int) async throws(EnrichmentError) -> [EnrichedBook] {
        let q = (anyField + title.map { "intitle:\($0)" } + author.map { "inauthor:\($0)" }).joined(separator: " ")
        return try await volumes(q: q, limit: limit)
    }

    /// `q=isbn:…`; nil when Google does not know it.
    func lookup(isbn: String) async throws(EnrichmentError) -> EnrichedBook? {
        try await volumes(q: "isbn:\(isbn)", limit: 1).first
    }

    private func volumes(q: String, limit: Int) async throws(EnrichmentError) -> [EnrichedBook] {
        let query = [URLQueryItem(name: "q", value: q), URLQueryItem(name: "maxResults", value: String(min(40, limit))),
                     URLQueryItem(name: "printType", value: "books")]
        let secret = key.map { k in [k.withValue { URLQueryItem(name: "key", value: $0) }] } ?? []
        let reply = try await http.get(.googlebooks, path: "/books/v1/volumes", query: query, secretQuery: secret)
        guard reply.status == 200 else { return [] }
        let decoded: GoogleBooks.Volumes
        do { decoded = try JSONDecoder().decode(GoogleBooks.Volumes.self, from: reply.body) } catch {
            throw .malformed(.googlebooks, "not Google Books' JSON")
        }
        return (decoded.items ?? []).compactMap(GoogleBooks.book(from:))
    }
}
