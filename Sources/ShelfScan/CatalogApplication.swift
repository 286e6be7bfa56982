import Catalog
import SpineReading

/// Snaps a reading to the catalogue. The raw text is the query, as the catalogue was calibrated on raw
/// spine OCR (title, author, call number and publisher in any order); title and authors fill in when a
/// reader returned no raw text.
enum CatalogApplication {
    static func bestMatch(for reading: Reading, in index: CatalogIndex) -> CatalogMatchSummary? {
        var query = reading.rawText.trimmingCharacters(in: .whitespacesAndNewlines)
        if query.isEmpty {
            query = ([reading.title ?? ""] + reading.authors).joined(separator: " ")
        }
        guard !query.trimmingCharacters(in: .whitespaces).isEmpty, let best = index.match(query, top: 1).first else {
            return nil
        }
        return CatalogMatchSummary(
            title: best.entry.title.trimmingCharacters(in: .whitespaces),
            authors: best.entry.authors,
            isbn: best.entry.isbn.isEmpty ? nil : best.entry.isbn,
            callNumber: best.entry.tag.isEmpty ? nil : best.entry.tag,
            score: best.score,
            accepted: best.score >= CatalogIndex.acceptThreshold
        )
    }
}
