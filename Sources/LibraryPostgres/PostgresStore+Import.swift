import BookModel
import Foundation
import Library
import PostgresNIO

/// Imports as the SQLite store does them (`ImportRows` reads the file, the same for both): a book already
/// present gains the row's IDs instead of a copy, and a failing row is skipped alone.
extension PostgresLibraryStore {
    public func importCSV(_ bytes: [UInt8], date: Date) throws -> ImportReport {
        var (report, rows) = try ImportRows.csv(bytes, date: date)
        try importWorks(rows, into: &report, date: date)
        report.skipped.sort { $0.line < $1.line }
        return report
    }

    public func importCSV(_ text: String, date: Date) throws -> ImportReport {
        try importCSV(Array(text.utf8), date: date)
    }

    public func importJSON(_ data: Data, date: Date) throws -> ImportReport {
        var (report, rows) = try ImportRows.json(data, date: date)
        try importWorks(rows, into: &report, date: date)
        return report
    }

    /// Transactions of a few hundred rows, each row in its own savepoint, so a failing row is skipped alone
    /// and reviewers deciding meanwhile never wait long behind a big import.
    private func importWorks(_ rows: [ImportRows.Row], into report: inout ImportReport, date: Date) throws {
        var index = try duplicateIndex()
        var start = 0
        while start < rows.count {
            let chunk = rows[start..<min(rows.count, start + 250)]
            start += chunk.count
            var chunkReport = report
            var chunkIndex = index
            try transaction {
                // From the chunk's start on every run: a run cut off by a lost connection counts nothing.
                chunkReport = report
                chunkIndex = index
                for (line, work, ownedOverride) in chunk {
                    try query("SAVEPOINT importrow")
                    do {
                        if let dup = chunkIndex.candidates(for: work, threshold: DuplicateRule.fuzzyThreshold, limit: 1).first,
                           var existing = try loadWork(dup.id, lock: true) {
                            var incoming = work
                            incoming.libraryEntry = nil
                            incoming.editions = incoming.editions.map { var e = $0; e.id = nil; return e }
                            existing.absorb(incoming, at: date)
                            chunkIndex.add(try saveWork(existing))
                            chunkReport.merged += 1
                        } else {
                            let owned = ownedOverride ?? (work.libraryEntry.map { $0.readingStatus != .wishlist } ?? false)
                            chunkIndex.add(try saveWork(work, bump: false, ownFirstEdition: owned))
                            chunkReport.imported += 1
                        }
                        try query("RELEASE SAVEPOINT importrow")
                    } catch where !Self.isConnectionLost(error) {
                        try query("ROLLBACK TO SAVEPOINT importrow")
                        chunkReport.skipped.append(.init(line: line, message: error is PSQLError ? Self.reason(error) : "\(error)"))
                    }
                }
            }
            // Counted only once the chunk committed: a chunk rerun after a reconnect is not counted twice.
            report = chunkReport
            index = chunkIndex
        }
    }
}
