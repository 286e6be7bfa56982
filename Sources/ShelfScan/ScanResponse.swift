import BookModel
import Foundation
import SpineDetection

extension ScannedSpine {
    /// The title a person would file: the catalogue's when it was accepted, else the reading's, else
    /// `Work.unreadTitle` so the spine still reaches the review queue.
    public var bestTitle: String {
        if let book = enrichment?.accepted?.book { return book.work.title }
        if let match = catalogMatch, match.accepted { return match.title }
        if let title = reading?.title?.trimmingCharacters(in: .whitespacesAndNewlines), !title.isEmpty { return title }
        return Work.unreadTitle
    }

    public var bestAuthors: [String] {
        if let book = enrichment?.accepted?.book, !book.authors.isEmpty { return book.authors.map(\.name) }
        if let match = catalogMatch, match.accepted, !match.authors.isEmpty { return match.authors }
        return reading?.authors.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? []
    }

    public var bestISBN: String? {
        if let book = enrichment?.accepted?.book, let isbn = book.edition.isbn { return isbn }
        if let match = catalogMatch, match.accepted { return match.isbn }
        return nil
    }

    /// The normalized quad as seed-004-style `[[x, y]] x 4`, top-left first, clockwise.
    public var polygon: [[Double]] {
        detection.quad.points.map { [Self.rounded($0.x), Self.rounded($0.y)] }
    }

    public var boundingBox: BoundingBox {
        let b = detection.boundingBox
        return BoundingBox(x: Self.rounded(b.x), y: Self.rounded(b.y), width: Self.rounded(b.width), height: Self.rounded(b.height))
    }

    /// Six decimals: a tenth of a pixel on a 12 MP photo, and JSON a person can read.
    static func rounded(_ value: Double) -> Double { (value * 1_000_000).rounded() / 1_000_000 }
}

extension PhotoScan {
    /// Seed 004's `BookshelfScanResponse` for this photo: one `detectedBooks` entry per spine, each a
    /// pending-review Work with the photo's path and the spine's box, plus its polygon and authors.
    public var response: BookshelfScanResponse {
        let books = spines.map { spine in
            if let enriched = spine.enrichedBook(photoPath: path) { return enriched }
            let isbn = spine.bestISBN
            let unread = spine.bestTitle == Work.unreadTitle
            return DetectedBook(
                work: WorkDTO(title: unread ? "" : spine.bestTitle, reviewStatus: .needsReview, originalImagePath: path,
                              boundingBox: spine.boundingBox.dto),
                edition: EditionDTO(isbn: isbn, isbns: isbn.map { [$0] } ?? []),
                confidence: ScannedSpine.rounded(spine.confidence),
                polygon: spine.polygon,
                authors: spine.bestAuthors.map { AuthorDTO(name: $0) },
                unreadReason: unread ? (spine.reading?.error ?? (spine.reading == nil ? "not read" : "no title found")) : nil,
                enrichmentStatus: spine.enrichment?.status
            )
        }
        return BookshelfScanResponse(jobId: contentHash, detectedBooks: books)
    }
}
