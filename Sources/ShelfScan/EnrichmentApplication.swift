import BookModel
import Enrichment
import Foundation
import SpineReading

/// Asks the metadata providers about each read spine. The request carries what the pipeline knows best:
/// the catalogue's accepted title, authors and ISBN when it snapped the reading to a known book, else the
/// reader's split, and the raw text the ranker scores against. Spines are enriched concurrently; the
/// enricher's own limit bounds the requests in flight.
enum EnrichmentApplication {
    static func request(for spine: ScannedSpine) -> EnrichmentRequest? {
        guard let reading = spine.reading, reading.error == nil else { return nil }
        if let match = spine.catalogMatch, match.accepted {
            return EnrichmentRequest(rawText: reading.rawText, title: match.title, authors: match.authors, isbn: match.isbn)
        }
        return EnrichmentRequest(rawText: reading.rawText, title: reading.title, authors: reading.authors)
    }

    static func enrich(_ spines: inout [ScannedSpine], with enricher: Enricher) async {
        let requests = spines.map(request(for:))
        let results = await withTaskGroup(of: (Int, EnrichmentResult).self) { group in
            for (i, request) in requests.enumerated() {
                guard let request else { continue }
                group.addTask { (i, await enricher.enrich(request)) }
            }
            var out: [Int: EnrichmentResult] = [:]
            for await (i, r) in group { out[i] = r }
            return out
        }
        for i in spines.indices {
            spines[i].enrichment = results[i]
                ?? EnrichmentResult(status: EnrichmentStatus(state: .nothingToSearch, requests: 0), accepted: nil, candidates: [])
        }
    }
}

extension ScannedSpine {
    /// Seed 004's detected book from the provider's accepted answer: its Work (pending review, with this
    /// photo and box), Edition and authors, carrying the provider IDs and ISBNs.
    func enrichedBook(photoPath: String) -> DetectedBook? {
        guard let result = enrichment, let book = result.accepted?.book else { return nil }
        var work = book.work
        work.reviewStatus = .needsReview
        work.originalImagePath = photoPath
        work.boundingBox = boundingBox.dto
        return DetectedBook(work: work, edition: book.edition, confidence: ScannedSpine.rounded(confidence), polygon: polygon,
                            authors: book.authors, enrichmentStatus: result.status)
    }
}
