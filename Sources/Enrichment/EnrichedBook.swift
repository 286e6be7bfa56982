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

    /// What the library folds into a Work (`Work.applyEnrichment`).
    public var record: EnrichmentRecord { EnrichmentRecord(work: work, edition: edition, authors: authors) }

    /// The Work as the library holds it (credits and the edition inside), for seed 004's duplicate rule.
    public var libraryWork: Work { record.libraryWork }

    /// The title as a catalogue would list it ("Title : Subtitle"), which is what the ranker was fitted on.
    var catalogueTitle: String {
        guard let subtitle, !subtitle.isEmpty else { return work.title }
        return "\(work.title) : \(subtitle)"
    }
}
