import BookModel
import Foundation

/// One provider's answer for one book in seed 004's canonical shape: the Work, the Edition it was seen
/// through, and the people credited (seed 004 keeps authors beside the Work, not inside it).
public struct EnrichedBook: Sendable, Equatable, Codable {
    public var work: WorkDTO
    public var edition: EditionDTO
    public var authors: [AuthorDTO]
    /// The provider's subtitle, kept apart from `work.title` so duplicate detection compares main titles.
    public var subtitle: String?
    /// How many editions the provider knows of this Work (OpenLibrary search), when it says.
    public var editionCount: Int?

    public init(work: WorkDTO, edition: EditionDTO, authors: [AuthorDTO], subtitle: String? = nil, editionCount: Int? = nil) {
        self.work = work; self.edition = edition; self.authors = authors; self.subtitle = subtitle; self.editionCount = editionCount
    }

    /// The Work as the library holds it (credits and the edition inside), for seed 004's duplicate rule.
    public var libraryWork: Work {
        var w = Work(work, authors: authors.map { Author($0) })
        if !edition.isbns.isEmpty || edition.openLibraryEditionID != nil || edition.googleBooksVolumeID != nil {
            w.editions = [Edition(edition)]
        }
        return w
    }

    /// The title as a catalogue would list it ("Title : Subtitle"), which is what the ranker was fitted on.
    var catalogueTitle: String {
        guard let subtitle, !subtitle.isEmpty else { return work.title }
        return "\(work.title) : \(subtitle)"
    }
}

extension Work {
    /// Fills this Work (a scanned or filed one) from an accepted provider answer, seed 004 rule 2 style:
    /// the provider's title and authors replace what OCR read, IDs and ISBNs are unioned, metadata we lack
    /// is filled, and the provider joins `contributors`. Review status, the spine's provenance and the
    /// library entry stay ours: enrichment proposes, the reviewer decides.
    public mutating func applyEnrichment(_ book: EnrichedBook, replaceTitle: Bool = true, at date: Date = Date()) {
        let incoming = book.libraryWork
        if replaceTitle {
            title = book.work.title
            if !book.authors.isEmpty { setAuthorNames(book.authors.map(\.name), at: date) }
        }
        // Known people keep their details; the provider's IDs and years fill in.
        for author in book.authors {
            if let i = credits.firstIndex(where: { TextNormalization.normalize($0.author.name) == TextNormalization.normalize(author.name) }) {
                credits[i].author.mergeExternalIDs(from: Author(author), at: date)
                if credits[i].author.birthYear == nil { credits[i].author.birthYear = author.birthYear }
                if credits[i].author.deathYear == nil { credits[i].author.deathYear = author.deathYear }
            }
        }
        mergeExternalIDs(from: incoming, at: date)
        if firstPublicationYear == nil { firstPublicationYear = incoming.firstPublicationYear }
        if originalLanguage == nil { originalLanguage = incoming.originalLanguage }
        if description == nil { description = incoming.description }
        for tag in incoming.subjectTags where !subjectTags.contains(tag) && subjectTags.count < Rules.maxGenres { subjectTags.append(tag) }
        for name in [primaryProvider].compactMap({ $0 }) + [book.work.primaryProvider].compactMap({ $0 })
            where !contributors.contains(name) { contributors.append(name) }
        primaryProvider = book.work.primaryProvider ?? primaryProvider
        synthetic = synthetic || (book.work.synthetic ?? false)
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
