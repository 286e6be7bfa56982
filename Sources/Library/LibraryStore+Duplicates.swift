import BookModel
import Foundation
import GRDB
import LibraryCore

extension LibraryStore {
    /// Every reviewed Work, with only what duplicate detection needs: read with four plain queries and no
    /// JSON decoding for the (mostly empty) ID arrays, so a session over a big library starts quickly.
    public func duplicateIndex() async throws -> DuplicateIndex {
        try await read { db in
            var works: [Int64: Work] = [:]
            var order: [Int64] = []
            let rows = try Row.fetchCursor(db, sql: """
                SELECT id, title, openLibraryID, openLibraryWorkID, isbndbID, googleBooksVolumeID, goodreadsID,
                       goodreadsWorkIDs, amazonASINs, librarythingIDs, googleBooksVolumeIDs
                FROM work WHERE reviewStatus != 'needsReview'
                """)
            while let row = try rows.next() {
                var w = Work(id: row[0], title: row[1])
                w.openLibraryID = row[2]; w.openLibraryWorkID = row[3]; w.isbndbID = row[4]
                w.googleBooksVolumeID = row[5]; w.goodreadsID = row[6]
                w.goodreadsWorkIDs = Self.stringArray(row[7]); w.amazonASINs = Self.stringArray(row[8])
                w.librarythingIDs = Self.stringArray(row[9]); w.googleBooksVolumeIDs = Self.stringArray(row[10])
                works[w.id!] = w
                order.append(w.id!)
            }
            let credits = try Row.fetchCursor(db, sql: """
                SELECT c.workId, a.name FROM credit c JOIN author a ON a.id = c.authorId
                WHERE c.role = 'author' ORDER BY c.workId, c.position
                """)
            while let row = try credits.next() {
                let id: Int64 = row[0]
                works[id]?.credits.append(Credit(author: Author(name: row[1])))
            }
            let editions = try Row.fetchCursor(db, sql: "SELECT workId, isbn, isbns FROM edition WHERE workId IS NOT NULL")
            while let row = try editions.next() {
                let id: Int64 = row[0]
                guard works[id] != nil else { continue }
                works[id]!.editions.append(Edition(isbn: row[1], isbns: Self.stringArray(row[2])))
            }
            return DuplicateIndex(works: order.compactMap { works[$0] })
        }
    }

    /// A JSON array of strings as stored by the records; "[]" (the usual case) without a decoder.
    static func stringArray(_ text: String?) -> [String] {
        guard let text, text != "[]", let data = text.data(using: .utf8) else { return [] }
        return (try? JSONDecoder().decode([String].self, from: data)) ?? []
    }
}
