import Foundation
import Testing
@testable import Catalog

@Suite struct CatalogLoadTests {
    @Test func goodreadsExportMapsColumnsAndCleansISBNs() throws {
        let csv = #"""
            Book Id,Title,Author,Author l-f,Additional Authors,ISBN,ISBN13,My Rating
            1,"The Two Towers (The Lord of the Rings, #2)",J.R.R. Tolkien,"Tolkien, J.R.R.",,"=""0618346252""","=""9780618346257""",5
            2,Good Omens,Terry Pratchett,"Pratchett, Terry",Neil Gaiman,"=""""","=""""",4
            """#
        let (catalog, errors) = try Catalog.parse(csv: Array(csv.utf8))
        #expect(errors.isEmpty)
        #expect(catalog.entries.count == 2)
        let towers = catalog.entries[0]
        #expect(towers.title == "The Two Towers")
        #expect(towers.series == "The Lord of the Rings, #2")
        #expect(towers.isbn == "9780618346257")
        #expect(towers.authors == ["J.R.R. Tolkien"])
        #expect(catalog.entries[1].authors == ["Terry Pratchett", "Neil Gaiman"])
        #expect(catalog.entries[1].isbn == "")
    }

    @Test func headerNamesAreCaseInsensitiveAndOptionalColumnsMayBeMissing() throws {
        let csv = "TITLE,Call Number\nCien años de soledad,N Gar\n"
        let (catalog, errors) = try Catalog.parse(csv: Array(csv.utf8))
        #expect(errors.isEmpty)
        #expect(catalog.entries == [CatalogEntry(title: "Cien años de soledad", tag: "N Gar")])
    }

    @Test func semicolonAndTabSeparatedSheetsAreRecognised() throws {
        let semicolons = "Título;Autor;Signatura\n\"Poesía, completa\";\"Lorca, Federico\";P 860 Lor\n"
        let (a, _) = try Catalog.parse(csv: Array(semicolons.utf8))
        #expect(a.entries == [CatalogEntry(title: "Poesía, completa", authors: ["Lorca, Federico"], tag: "P 860 Lor")])
        let tabs = "title\tauthor\nEl Quijote\tCervantes\n"
        let (b, _) = try Catalog.parse(csv: Array(tabs.utf8))
        #expect(b.entries == [CatalogEntry(title: "El Quijote", authors: ["Cervantes"])])
    }

    @Test func windows1252FilesAreReadAsText() throws {
        // "Cien años" with ñ as the single byte 0xF1.
        let bytes: [UInt8] = Array("title\nCien a".utf8) + [0xF1] + Array("os de soledad\n".utf8)
        let (catalog, errors) = try Catalog.parse(csv: bytes)
        #expect(errors.isEmpty)
        #expect(catalog.entries.first?.title == "Cien años de soledad")
    }

    @Test func badRowsAreSkippedWithTheirLineNumbers() throws {
        let csv = "title,author,isbn\nGood,A,1\nToo,many,fields,here\n,B,2\n\"Broken\"x,C,3\nAlso good,D,4\n"
        let (catalog, errors) = try Catalog.parse(csv: Array(csv.utf8))
        #expect(catalog.entries.map(\.title) == ["Good", "Also good"])
        #expect(errors.map(\.line) == [3, 4, 5])
        #expect(errors[0].reason.contains("4 fields"))
        #expect(errors[1].reason == "empty title")
    }

    @Test func aFileWithoutATitleColumnIsRejectedWithOneLine() {
        #expect(throws: CatalogError.self) { try Catalog.parse(csv: Array("name_x,author\nA,B\n".utf8)) }
        do {
            _ = try Catalog.parse(csv: Array("isbn,author\n1,B\n".utf8))
        } catch let error as CatalogError {
            #expect(error.description.contains("no title column"))
            #expect(!error.description.contains("\n"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
        #expect(throws: CatalogError.self) { try Catalog.parse(csv: []) }
    }

    @Test func aMissingFileIsAnUnreadableError() {
        #expect(throws: CatalogError.unreadable(path: "/nonexistent/books.csv", reason: "no such file")) {
            try Catalog.load(csvAt: "/nonexistent/books.csv")
        }
    }

    @Test func loadsFromDisk() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID().uuidString).csv")
        try Data("title,author,tag,series,isbn\r\nEl Quijote,\"Cervantes, Miguel de\",N Cer,,978\r\n".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let (catalog, errors) = try Catalog.load(csvAt: url.path)
        #expect(errors.isEmpty)
        #expect(catalog.entries == [CatalogEntry(title: "El Quijote", authors: ["Cervantes, Miguel de"], isbn: "978", tag: "N Cer")])
    }
}
