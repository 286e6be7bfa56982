import Foundation

/// A metadata provider's answer for one book in seed 004's shape (the Work, the Edition it was seen
/// through, the people), as the pipeline hands it to the library. The Enrichment target makes these;
/// BookModel only knows how to fold one into a Work.
public struct EnrichmentRecord: Sendable, Equatable, Codable {
    public var work: WorkDTO
    public var edition: EditionDTO
    public var authors: [AuthorDTO]

    public init(work: WorkDTO, edition: EditionDTO, authors: [AuthorDTO]) {
        self.work = work; self.edition = edition; self.authors = authors
    }

    /// The Work as the library holds it (credits and the edition inside), for seed 004's duplicate rule.
    public var libraryWork: Work {
        var w = Work(work, authors: authors.map { Author($0) })
        if !edition.isbns.isEmpty || edition.openLibraryEditionID != nil || edition.googleBooksVolumeID != nil {
            w.editions = [Edition(edition)]
        }
        return w
    }
}

/// Why a book is, or is not, enriched: data for JSON (`detectedBooks[].enrichmentStatus`), never display text.
public struct EnrichmentStatus: Sendable, Hashable, Codable {
    public enum State: String, Sendable, Codable {
        /// A candidate scored at or above the threshold (or an ISBN matched) and was applied.
        case enriched
        /// Providers answered, but no candidate was sure enough: the book stays as read, candidates kept.
        case candidatesOnly
        /// Providers answered and found nothing.
        case notFound
        /// No provider could answer (offline, failing, paused): the book stays as read.
        case unavailable
        /// Nothing was read from the spine, so there was nothing to search for.
        case nothingToSearch
    }

    public struct Failure: Sendable, Hashable, Codable {
        /// The provider as `--enrich` names it ("openlibrary", "googlebooks").
        public var provider: String
        /// A stable code, e.g. PROVIDER_TIMEOUT, PROVIDER_RATE_LIMITED, PROVIDER_PAUSED.
        public var code: String
        public init(provider: String, code: String) { self.provider = provider; self.code = code }
    }

    public var state: State
    /// The provider whose answer was applied or offered.
    public var provider: String?
    /// Calibrated probability of the applied or best candidate (0...1).
    public var score: Double?
    /// Providers that could not answer, in chain order.
    public var failures: [Failure]?
    /// HTTP requests this book cost (retries included, cache hits not).
    public var requests: Int?

    public init(state: State, provider: String? = nil, score: Double? = nil, failures: [Failure]? = nil, requests: Int? = nil) {
        self.state = state; self.provider = provider; self.score = score; self.failures = failures; self.requests = requests
    }
}

extension Work {
    /// Folds an accepted provider answer into this Work (a scanned or a filed one), seed 004 rule 2 style:
    /// with `replaceTitle` the provider's title and authors replace what OCR read; IDs and ISBNs are unioned,
    /// metadata we lack is filled in, and the provider joins `contributors` and becomes `primaryProvider`.
    /// Review status, the spine's provenance and the library entry stay ours: enrichment proposes, the
    /// reviewer decides.
    public mutating func applyEnrichment(_ record: EnrichmentRecord, replaceTitle: Bool = true, at date: Date = Date()) {
        let incoming = record.libraryWork
        if replaceTitle {
            title = String(record.work.title.prefix(Rules.titleMaxLength))
            if !record.authors.isEmpty { setAuthorNames(record.authors.map { String($0.name.prefix(Rules.authorNameMaxLength)) }, at: date) }
        }
        // Known people keep their details; the provider's IDs and years fill in.
        for author in record.authors {
            let key = TextNormalization.normalize(author.name)
            guard let i = credits.firstIndex(where: { TextNormalization.normalize($0.author.name) == key }) else { continue }
            credits[i].author.mergeExternalIDs(from: Author(author), at: date)
            if credits[i].author.birthYear == nil { credits[i].author.birthYear = author.birthYear }
            if credits[i].author.deathYear == nil { credits[i].author.deathYear = author.deathYear }
        }
        mergeExternalIDs(from: incoming, at: date)
        if firstPublicationYear == nil { firstPublicationYear = incoming.firstPublicationYear }
        if originalLanguage == nil { originalLanguage = incoming.originalLanguage }
        if description == nil { description = incoming.description }
        for tag in incoming.subjectTags where !subjectTags.contains(tag) && subjectTags.count < Rules.maxGenres { subjectTags.append(tag) }
        for name in [primaryProvider, record.work.primaryProvider].compactMap({ $0 }) where !contributors.contains(name) {
            contributors.append(name)
        }
        primaryProvider = record.work.primaryProvider ?? primaryProvider
        synthetic = synthetic || (record.work.synthetic ?? false)
        for e in incoming.editions {
            if let i = editions.firstIndex(where: { mine in e.isbns.contains { mine.hasISBN($0) } }) {
                editions[i].mergeExternalIDs(from: e, at: date)
                if editions[i].coverImageURL == nil { editions[i].coverImageURL = e.coverImageURL }
                if editions[i].publisher == nil { editions[i].publisher = e.publisher }
                if editions[i].pageCount == nil { editions[i].pageCount = e.pageCount }
                if editions[i].publicationDate == nil { editions[i].publicationDate = e.publicationDate }
            } else {
                editions.append(e)
            }
        }
        touch(at: date)
    }
}
