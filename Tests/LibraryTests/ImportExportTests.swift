import BookModel
import Foundation
import Testing
@testable import Library
@testable import LibraryCore
import LibraryTestSupport

let goodreadsCSV = "\u{FEFF}" + #"""
Book Id,Title,Author,Author l-f,Additional Authors,ISBN,ISBN13,My Rating,Average Rating,Publisher,Binding,Number of Pages,Year Published,Original Publication Year,Date Read,Date Added,Bookshelves,Bookshelves with positions,Exclusive Shelf,My Review,Spoiler,Private Notes,Read Count,Owned Copies\#r
234225,Dune,Frank Herbert,"Herbert, Frank",,"=""0441172717""","=""9780441172719""",5,4.25,Ace,Mass Market Paperback,604,1990,1965,2024/03/01,2023/12/24,"sf, favorites","sf (#1)",read,,,"Loved it,
really",1,1\#r
13496,"A Game of Thrones (A Song of Ice and Fire, #1)",George R.R. Martin,"Martin, George R.R.",,"=""""","=""""",0,4.4,,Paperback,,,1996,,2024/01/02,to-read,,to-read,,,,0,0\#r
1,,Nobody,,,,,0,,,,,,,,2024/01/02,,,read,,,,0,0\#r
2,Bad Rating,Someone,,,,,9,,,,,,,,2024/01/02,,,read,,,,0,0\#r
3,Bad ISBN,Someone,,,"=""0441172718""",,0,,,,,,,,2024/01/02,,,read,,,,0,0\#r
4,Good Omens,Terry Pratchett,,Neil Gaiman,,,4,,,Hardcover,,,1990,,2024/01/05,currently-reading,,currently-reading,,,,0,1\#r
234225,Dune,Frank Herbert,,,,,0,,,,,,,,2024/01/06,,,read,,,,0,0\#r

"""#

@Suite struct Importing {
    @Test(arguments: Engine.available)
    func goodreadsExportImportsWithLineNumberedProblems(engine: Engine) async throws {
        let store = try await engine.makeStore()
        defer { removeTemporary(store.cropsDirectory) }
        let report = try await store.importCSV(goodreadsCSV)
        #expect(report.format == .goodreads && report.imported == 3 && report.merged == 1)
        #expect(report.skipped.map(\.line) == [5, 6, 7])
        #expect(report.skipped[0].message.contains("title") && report.skipped[1].message.contains("rating")
                && report.skipped[2].message.contains("check digit"))
        let works = try await store.works()
        let dune = try #require(works.first { $0.title == "Dune" })
        #expect(dune.authors.map(\.name) == ["Frank Herbert"] && dune.firstPublicationYear == 1965)
        #expect(dune.editions.first?.primaryISBN == "9780441172719" && dune.editions.first?.format == .massMarket)
        #expect(dune.libraryEntry?.readingStatus == .read && dune.libraryEntry?.rating == 5 && dune.isOwned)
        #expect(dune.libraryEntry?.notes == "Loved it,\nreally" && dune.libraryEntry?.tags == ["sf", "favorites"])
        #expect(dune.goodreadsWorkIDs == ["234225"] && dune.reviewStatus == .verified)
        let got = try #require(works.first { $0.title.hasPrefix("A Game of Thrones") })
        #expect(got.libraryEntry?.readingStatus == .toRead && got.seriesInfo?.name == "A Song of Ice and Fire")
        let omens = try #require(works.first { $0.title == "Good Omens" })
        #expect(omens.authors.map(\.name) == ["Terry Pratchett", "Neil Gaiman"] && omens.libraryEntry?.dateStarted != nil)
        // Importing the same file again only merges
        let again = try await store.importCSV(goodreadsCSV)
        #expect(again.imported == 0)
        #expect(again.merged == 4)
        #expect(try await store.works().count == 3)
    }

    @Test(arguments: Engine.available)
    func libraryThingExport(engine: Engine) async throws {
        let csv = """
        "Book Id","Title","Sort Character","Primary Author","Primary Author Role","Secondary Author","Secondary Author Roles","Publication","Date","Review","Rating","Comment","Private Comment","Summary","Media","Page Count","Entry Date","Tags","Collections","ISBN","ISBNs","Work id"
        "101","The Left Hand of Darkness","5","Le Guin, Ursula K.","Author","","","Ace (1987), Paperback","1969","","4.5","","mine","","Paperback","304","2020-05-01","sf,classics","Your library, Read but unowned","[0441478123]","0441478123","12345"
        "102","Kindred","1","Butler, Octavia E.","","","","","1979","","","","","","Ebook","","2021-01-01","","Currently Reading","","",""
        "103","","1","Nobody","","","","","","","","","","","","","2021-01-01","","","","",""
        """
        let store = try await engine.makeStore()
        defer { removeTemporary(store.cropsDirectory) }
        let report = try await store.importCSV(csv)
        #expect(report.format == .librarything && report.imported == 2 && report.skipped.map(\.line) == [4])
        let lhod = try #require(try await store.works().first { $0.title == "The Left Hand of Darkness" })
        #expect(lhod.authors.map(\.name) == ["Ursula K. Le Guin"] && lhod.librarythingIDs == ["12345"])
        #expect(lhod.libraryEntry?.readingStatus == .read && lhod.libraryEntry?.rating == 5 && lhod.libraryEntry?.personalRating == 4.5)
        #expect(lhod.editions.first?.isbn == "0441478123" && lhod.firstPublicationYear == 1969)
        let kindred = try #require(try await store.works().first { $0.title == "Kindred" })
        #expect(kindred.libraryEntry?.readingStatus == .reading && kindred.editions.first?.format == .ebook)
    }

    @Test(arguments: Engine.available)
    func storyGraphExport(engine: Engine) async throws {
        let csv = """
        Title,Authors,Contributors,ISBN/UID,Format,Read Status,Date Added,Last Date Read,Dates Read,Read Count,Moods,Pace,Star Rating,Review,Content Warnings,Tags,Owned?
        The Three-Body Problem,Liu Cixin,Ken Liu (Translator),9780765382030,paperback,did-not-finish,2023/02/01,,,0,,,,,,,Yes
        Piranesi,Susanna Clarke,,9781635575637,hardcover,to-read,2023/03/01,,,0,,,,,,"gift, fantasy",No
        Circe,Madeline Miller,,abc123xyz,digital,paused,2023/04/01,,,0,,,3.75,,,,Yes
        """
        let store = try await engine.makeStore()
        defer { removeTemporary(store.cropsDirectory) }
        let report = try await store.importCSV(csv)
        #expect(report.format == .storygraph && report.imported == 3 && report.skipped.isEmpty)
        let works = try await store.works()
        let tbp = try #require(works.first { $0.title == "The Three-Body Problem" })
        #expect(tbp.libraryEntry?.readingStatus == .dnf && tbp.people(withRole: .translator).map(\.name) == ["Ken Liu"])
        let piranesi = try #require(works.first { $0.title == "Piranesi" })
        #expect(piranesi.isOnWishlist && piranesi.libraryEntry?.tags == ["gift", "fantasy"])
        let circe = try #require(works.first { $0.title == "Circe" })
        #expect(circe.libraryEntry?.readingStatus == .onHold && circe.libraryEntry?.rating == 4 && circe.editions.first?.isbns == [])
    }

    @Test(arguments: Engine.available)
    func aSpreadsheetSavedOnWindowsImportsAsItIsMeant(engine: Engine) async throws {
        // Semicolons (a Spanish-locale spreadsheet) and Windows-1252: "ñ" is the byte 0xF1, "’" is 0x92.
        let bytes: [UInt8] = Array("Title;Author;ISBN\r\nCien a".utf8) + [0xF1] + Array("os de soledad;Gabriel Garc".utf8)
            + [0xED] + Array("a M".utf8) + [0xE1] + Array("rquez;9780307474728\r\nThe Handmaid".utf8) + [0x92]
            + Array("s Tale;Margaret Atwood;\r\n".utf8)
        let store = try await engine.makeStore()
        defer { removeTemporary(store.cropsDirectory) }
        let report = try await store.importCSV(bytes)
        #expect(report.format == .generic && report.imported == 2 && report.skipped.isEmpty)
        let titles = try await store.works().map(\.title).sorted()
        #expect(titles == ["Cien años de soledad", "The Handmaid\u{2019}s Tale"])
        #expect(try await store.works().first { $0.title.hasPrefix("Cien") }?.authors.map(\.name) == ["Gabriel García Márquez"])
    }

    @Test(arguments: Engine.available)
    func unknownFilesAreRefusedWithAReason(engine: Engine) async throws {
        let store = try await engine.makeStore()
        defer { removeTemporary(store.cropsDirectory) }
        await #expect(throws: LibraryError.self) { try await store.importCSV("") }
        do { _ = try await store.importCSV("foo,bar\n1,2\n"); Issue.record("expected failure") } catch {
            #expect("\(error)".contains("not a Goodreads, LibraryThing or StoryGraph export"))
        }
    }
}

@Suite struct RoundTrips {
    func comparable(_ works: [Work]) -> [String] {
        works.map { w in
            let e = w.libraryEntry
            return [w.title, w.authors.map(\.name).joined(separator: "|"), w.isbns.sorted().joined(separator: "|"),
                    "\(w.firstPublicationYear ?? 0)", e?.readingStatus.rawValue ?? "-", "\(e?.rating ?? 0)",
                    e?.tags.joined(separator: "|") ?? "", e?.notes ?? "", "\(w.isOwned)"].joined(separator: " / ")
        }.sorted()
    }

    @Test(arguments: Engine.available)
    func csvExportImportsBackToTheSameLibrary(engine: Engine) async throws {
        let source = try await engine.makeStore()
        defer { removeTemporary(source.cropsDirectory) }
        _ = try await source.importCSV(goodreadsCSV)
        let csv = try await source.exportCSV()
        #expect(csv.hasPrefix("Book Id,Title,Author,Author l-f,Additional Authors,ISBN,ISBN13,My Rating"))
        let target = try await engine.makeStore()
        defer { removeTemporary(target.cropsDirectory) }
        let report = try await target.importCSV(csv)
        #expect(report.skipped.isEmpty && report.imported == 3)
        await #expect(comparable(try target.works()) == comparable(try source.works()))
    }

    @Test(arguments: Engine.available)
    func jsonExportIsTheSeedEnvelopeAndImportsBack(engine: Engine) async throws {
        let source = try await engine.makeStore()
        let (ids, _) = try await seed(source)
        defer { removeTemporary(source.cropsDirectory) }
        try await source.review(ReviewDecision(workID: ids[2], action: .verify), defaults: ReviewDefaults(readingStatus: .wishlist, owned: false))
        var w = Work(title: "The Little Prince", authors: ["Antoine de Saint-Exupéry"], reviewStatus: .verified)
        w.addAuthor(Author(name: "Antoine de Saint-Exupéry"), role: .illustrator)
        w.addAuthor(Author(name: "Richard Howard"), role: .translator)
        w.libraryEntry = UserLibraryEntry(readingStatus: .toRead)
        try await source.add(w)
        let export = try await source.exportLibrary()
        let data = try ISO8601.makeEncoder().encode(SuccessResponse(data: export, meta: .now()))
        let top = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        #expect(top["success"] as? Bool == true && (top["meta"] as? [String: Any])?["timestamp"] != nil)
        let target = try await engine.makeStore()
        defer { removeTemporary(target.cropsDirectory) }
        let report = try await target.importJSON(data)
        #expect(report.imported == 3 && report.skipped.isEmpty)
        await #expect(comparable(try target.works()) == comparable(try source.works()))
        let prince = try #require(try await target.works().first { $0.title == "The Little Prince" })
        #expect(prince.credits.first?.roles == [.author, .illustrator] && prince.people(withRole: .translator).count == 1)
        #expect(try await target.exportLibrary().works.map(\.work) == export.works.map(\.work))
    }
}

@Suite struct GenericAndRealImports {
    @Test(arguments: Engine.available)
    func anyCSVWithTitleAndAuthorColumns(engine: Engine) async throws {
        let csv = """
            title,author,tag,series,isbn
            "Las Pseudociencias : ¡vaya timo! ","Bunge, Mario, 1919-2020",001 Bun,¡Vaya timo!   14,9788492422241
            Sin autor,"  ",001 X,,
            Cosmos,Carl Sagan; Ann Druyan,520 Sag,,
            """
        let store = try await engine.makeStore()
        defer { removeTemporary(store.cropsDirectory) }
        let report = try await store.importCSV(csv)
        #expect(report.format == .generic && report.imported == 2 && report.skipped.map(\.line) == [3])
        let bunge = try #require(try await store.works().first { $0.title.hasPrefix("Las Pseudociencias") })
        #expect(bunge.authors.map(\.name) == ["Mario Bunge"] && bunge.editions.first?.isbn == "9788492422241" && bunge.isOwned)
        #expect(try await store.works().first { $0.title == "Cosmos" }?.authors.count == 2)
    }

    /// The first 200 books of the shared dataset's real library catalogue, when present: every row is
    /// imported, merged or reported with its line. (bench-review imports all 15,228 in a release build.)
    @Test func theRealLibraryCatalogueImports() async throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../shared/datasets/library-dataset/catalogue.csv").standardized.path
        guard FileManager.default.fileExists(atPath: path) else {
            print("note: \(path) is absent; skipping the real-catalogue import")
            return
        }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let text = lines.prefix(201).joined(separator: "\n")
        let rows = CSVReader.read(Array(text.utf8)).records.count - 1
        let dir = try temporaryDirectory()
        defer { removeTemporary(dir) }
        let store = try LibraryStore(path: dir.appendingPathComponent("lib.sqlite").path)
        let report = try await store.importCSV(text)
        #expect(report.imported + report.merged + report.skipped.count == rows)
        #expect(rows > 180 && report.imported > rows * 3 / 4, "most of the catalogue is importable")
        #expect(report.skipped.allSatisfy { $0.line > 1 && !$0.message.isEmpty })
        let stats = try await store.stats()
        #expect(stats.verified == report.imported && stats.pending == 0)
    }
}
