import BookModel
import Catalog
import LibraryCore

/// A book found by the reviewer's search, wherever it came from.
struct SearchHit: Equatable, Sendable {
    /// Who found it, shown beside it: "library", "catalogue", later "OpenLibrary"...
    var source: String
    var title: String
    var authors: [String]
    var isbn: String?
    /// Set when the book is already in the library: taking it merges the spine into that Work.
    var workID: Work.ID?
    /// 0...1, comparable within one source.
    var score: Double
    /// A provider's whole record (IDs, edition, year, subjects), taken along with the title and authors.
    var record: EnrichmentRecord? = nil
}

/// Somewhere the review's `/` search looks. Each provider answers on its own; the screen shows their hits
/// together, library first. Local ones answer as the words are typed; remote ones (`ProviderSearch`) only
/// when Enter is pressed.
protocol SearchProvider: Sendable {
    var name: String { get }
    /// Asked only on Enter, not on every key: a network round trip per keystroke would be slow for the
    /// reviewer and a burden on a free service.
    var isRemote: Bool { get }
    /// - Throws: when the source cannot answer; the error's description is shown to the reviewer.
    func search(_ query: String, limit: Int) async throws -> [SearchHit]
}

extension SearchProvider {
    var isRemote: Bool { false }
}

/// The reviewed library, by the words of titles and author names (each query word a word prefix: "dispo
/// le gu" finds The Dispossessed by Ursula K. Le Guin). Loaded once per search; a library of ten thousand
/// books is one query.
struct LibrarySearch: SearchProvider {
    let store: any LibraryStoring
    var name: String { "library" }

    func search(_ query: String, limit: Int) async throws -> [SearchHit] {
        let words = TextNormalization.tokens(query)
        guard !words.isEmpty else { return [] }
        var hits: [SearchHit] = []
        for s in try await store.librarySummaries() {
            guard let score = BookFinder.score(words, title: s.title, authors: s.authors) else { continue }
            hits.append(SearchHit(source: name, title: s.title, authors: s.authors, isbn: nil, workID: s.id, score: score))
        }
        return Array(hits.sorted { $0.score > $1.score }.prefix(limit))
    }
}

/// The catalogue CSV given with `--catalog`, through the same matcher `shelfscan match` uses.
struct CatalogSearch: SearchProvider {
    let index: CatalogIndex
    var name: String { "catalogue" }

    func search(_ query: String, limit: Int) throws -> [SearchHit] {
        guard !query.trimmingCharacters(in: .whitespaces).isEmpty else { return [] }
        return index.match(query, top: limit).map {
            SearchHit(source: name, title: $0.entry.title, authors: $0.entry.authors, isbn: $0.entry.isbn.isEmpty ? nil : $0.entry.isbn,
                      workID: nil, score: $0.score)
        }
    }
}
