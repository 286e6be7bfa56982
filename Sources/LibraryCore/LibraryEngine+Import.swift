import BookModel
import Foundation

/// Imports on either engine (`ImportRows` reads the file): a book already present gains the row's IDs instead
/// of a copy, and a failing row is skipped alone.
extension LibraryEngine {
    /// Imports a Goodreads, LibraryThing or StoryGraph CSV export (or any CSV with title and author columns),
    /// as saved: UTF-8 or Windows-1252, comma, semicolon or tab separated. A bad row is reported with its line
    /// and skipped; a book already present gains the row's IDs instead of a copy.
    public func importCSV(_ bytes: [UInt8], date: Date) async throws -> ImportReport {
        var (report, rows) = try ImportRows.csv(bytes, date: date)
        try await importWorks(rows, into: &report, date: date)
        report.skipped.sort { $0.line < $1.line }
        return report
    }

    /// `importCSV` of text already in memory.
    public func importCSV(_ text: String, date: Date) async throws -> ImportReport {
        try await importCSV(Array(text.utf8), date: date)
    }

    /// Imports a JSON export (the `data` of the envelope, or the whole envelope); deduplicated like CSV.
    public func importJSON(_ data: Data, date: Date) async throws -> ImportReport {
        var (report, rows) = try ImportRows.json(data, date: date)
        try await importWorks(rows, into: &report, date: date)
        return report
    }

    /// Writes imported Works in transactions of a few hundred rows (one per row would be one fsync per row),
    /// each row in its own savepoint so a failing row is skipped alone. Short transactions let a review
    /// session decide while a big import runs.
    /// - Parameter rows: `owned` says whether the entry holds its first edition; nil: unless it is a wishlist entry.
    private func importWorks(_ rows: [ImportRows.Row], into report: inout ImportReport, date: Date) async throws {
        var index = try await duplicateIndex()
        var start = 0
        while start < rows.count {
            let chunk = rows[start..<min(rows.count, start + 250)]
            start += chunk.count
            let (startReport, startIndex) = (report, index)
            let (chunkReport, chunkIndex) = try await writing(replay: .never) { tx in
                // From the chunk's start on every run: a run cut off by a lost connection counts nothing.
                var chunkReport = startReport
                var chunkIndex = startIndex
                for (line, work, ownedOverride) in chunk {
                    let failure = try tx.inSavepoint {
                        if let dup = chunkIndex.candidates(for: work, threshold: DuplicateRule.fuzzyThreshold, limit: 1).first,
                           var existing = try tx.loadWork(dup.id, forUpdate: true) {
                            var incoming = work
                            incoming.libraryEntry = nil
                            incoming.editions = incoming.editions.map { var e = $0; e.id = nil; return e }
                            existing.absorb(incoming, at: date)
                            chunkIndex.add(try tx.saveWork(existing, photoID: nil, bump: true, insertWithID: false, ownFirstEdition: false))
                            chunkReport.merged += 1
                        } else {
                            let owned = ownedOverride ?? (work.libraryEntry.map { $0.readingStatus != .wishlist } ?? false)
                            chunkIndex.add(try tx.saveWork(work, photoID: nil, bump: false, insertWithID: false, ownFirstEdition: owned))
                            chunkReport.imported += 1
                        }
                    }
                    if let failure { chunkReport.skipped.append(.init(line: line, message: failure)) }
                }
                return (chunkReport, chunkIndex)
            }
            // Counted only once the chunk committed: a chunk rerun after a reconnect is not counted twice.
            report = chunkReport
            index = chunkIndex
        }
    }
}
