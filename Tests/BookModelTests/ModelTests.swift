import Foundation
import Testing
@testable import BookModel

let t0 = Date(timeIntervalSince1970: 1_700_000_000)
let t1 = t0.addingTimeInterval(60)

@Suite struct WorkModel {
    @Test func touchOnEveryMutation() {
        var w = Work(title: "Good Omens", dateCreated: t0)
        w.addAuthor(Author(name: "Terry Pratchett"), at: t1)
        #expect(w.lastModified == t1 && w.dateCreated == t0)
        let t2 = t1.addingTimeInterval(1)
        w.addGoodreadsWorkID("123", at: t2)
        #expect(w.lastModified == t2)
        w.addGoodreadsWorkID("123", at: t2.addingTimeInterval(5))
        #expect(w.lastModified == t2, "no change, no touch")
        w.removeAuthor(named: "terry pratchett", at: t2.addingTimeInterval(9))
        #expect(w.authors.isEmpty && w.lastModified == t2.addingTimeInterval(9))
    }

    @Test func contributorRolesAreSeveralAtOnce() {
        var w = Work(title: "The Little Prince")
        w.addAuthor(Author(name: "Antoine de Saint-Exupéry"), role: .author)
        w.addAuthor(Author(name: "Antoine de Saint-Exupery"), role: .illustrator)
        w.addAuthor(Author(name: "Richard Howard"), role: .translator)
        #expect(w.credits.count == 2)
        #expect(w.credits[0].roles == [.author, .illustrator])
        #expect(w.authors.map(\.name) == ["Antoine de Saint-Exupéry"])
        #expect(w.people(withRole: .translator).map(\.name) == ["Richard Howard"])
        w.removeAuthor(named: "Antoine de Saint-Exupéry", role: .illustrator)
        #expect(w.credits[0].roles == [.author])
        w.setAuthorNames(["Someone Else"])
        #expect(w.authors.map(\.name) == ["Someone Else"])
        #expect(w.people(withRole: .translator).count == 1, "other roles survive an author edit")
        #expect(w.primaryAuthor?.name == "Someone Else" && w.authorNames == "Someone Else")
    }

    @Test func mergeExternalIDsUnionsArraysAndFillsSingles() {
        var a = Work(title: "1984", dateCreated: t0)
        a.goodreadsWorkIDs = ["5470"]; a.openLibraryWorkID = "OL45804W"; a.isbndbQuality = 40
        var b = Work(title: "1984")
        b.goodreadsWorkIDs = ["5470", "40961427"]; b.openLibraryWorkID = "OTHER"; b.isbndbID = "I1"
        b.amazonASINs = ["B08N5WRWNW"]; b.librarythingIDs = ["12"]; b.googleBooksVolumeIDs = ["beSP5CCpiGUC"]; b.isbndbQuality = 95
        a.mergeExternalIDs(from: b, at: t1)
        #expect(a.goodreadsWorkIDs == ["5470", "40961427"])
        #expect(a.openLibraryWorkID == "OL45804W" && a.isbndbID == "I1")
        #expect(a.amazonASINs == ["B08N5WRWNW"] && a.librarythingIDs == ["12"] && a.googleBooksVolumeIDs == ["beSP5CCpiGUC"])
        #expect(a.isbndbQuality == 95 && a.lastModified == t1)
        #expect(a.externalIDKeys.contains("gr:40961427"))
    }

    @Test func ownershipFollowsTheEntry() {
        var w = Work(title: "x")
        #expect(!w.isInLibrary && !w.isOwned && !w.isOnWishlist)
        w.libraryEntry = .createWishlistEntry()
        #expect(w.isInLibrary && w.isOnWishlist && !w.isOwned)
        w.libraryEntry?.acquireEdition(7)
        #expect(w.isOwned && !w.isOnWishlist && w.libraryEntry?.readingStatus == .toRead)
    }

    @Test func culturalRegionComesFromPrimaryAuthor() {
        var w = Work(title: "Things Fall Apart")
        w.addAuthor(Author(name: "Chinua Achebe", gender: .male, culturalRegion: .africa))
        #expect(w.culturalRegion == .africa)
        #expect(w.primaryAuthor!.representsMarginalizedVoices())
        #expect(!Author(name: "x", gender: .male, culturalRegion: .europe).representsMarginalizedVoices())
        #expect(Author(name: "x", gender: .female).representsMarginalizedVoices())
        #expect(Author(name: "x", culturalRegion: .indigenous).representsIndigenousVoices())
        #expect(Author(name: "Ursula K. Le Guin", birthYear: 1929, deathYear: 2018).displayName == "Ursula K. Le Guin (1929-2018)")
    }

    @Test func authorMergeFillsOnlyMissingIDs() {
        var a = Author(name: "A", openLibraryID: "OL1", dateCreated: t0)
        a.mergeExternalIDs(from: Author(name: "A", openLibraryID: "OL2", goodreadsID: "G"), at: t1)
        #expect(a.openLibraryID == "OL1" && a.goodreadsID == "G" && a.lastModified == t1)
        a.updateStatistics(bookCount: 3, at: t1)
        #expect(a.bookCount == 3)
    }
}

@Suite struct EditionModel {
    @Test func primaryISBNPrefersThirteenDigits() {
        var e = Edition(isbn: "0441172717")
        #expect(e.primaryISBN == "0441172717")
        e.addISBN("978-0-441-17271-9")
        #expect(e.primaryISBN == "9780441172719")
        #expect(e.hasISBN("0-441-17271-7") && e.hasISBN("9780441172719"))
        e.removeISBN("9780441172719")
        #expect(e.primaryISBN == "0441172717" && !e.isbns.contains("9780441172719"))
        #expect(Edition(isbns: ["B00X"]).primaryISBN == "B00X")
    }

    @Test func addISBNIsIdempotentAndTouches() {
        var e = Edition(dateCreated: t0)
        e.addISBN("9780441172719", at: t1)
        e.addISBN("9780441172719", at: t1.addingTimeInterval(10))
        #expect(e.isbns == ["9780441172719"] && e.isbn == "9780441172719" && e.lastModified == t1)
    }

    @Test func displayTitleAndMerge() {
        var e = Edition(title: "Dune", editionTitle: "Deluxe Edition")
        #expect(e.displayTitle(workTitle: "x") == "Dune (Deluxe Edition)")
        #expect(Edition().displayTitle(workTitle: "Dune") == "Dune")
        e.mergeExternalIDs(from: Edition(isbn: "9780441172719", amazonASINs: ["A1"], isbndbQuality: 50))
        #expect(e.isbn == "9780441172719" && e.amazonASINs == ["A1"] && e.isbndbQuality == 50)
        #expect(Edition(coverImageURL: "https://x.example/c.jpg").coverURL?.host == "x.example")
    }
}

@Suite struct LibraryEntryModel {
    @Test func statusDateRules() {
        var e = UserLibraryEntry(editionID: 1, dateAdded: t0)
        e.setStatus(.reading, at: t1)
        #expect(e.dateStarted == t1 && e.dateCompleted == nil)
        e.setStatus(.reading, at: t1.addingTimeInterval(99))
        #expect(e.dateStarted == t1, "dateStarted kept when already set")
        var fresh = UserLibraryEntry(editionID: 1, dateAdded: t0)
        fresh.setStatus(.read, at: t1)
        #expect(fresh.dateStarted == t1 && fresh.dateCompleted == t1 && fresh.lastModified == t1)
    }

    @Test func progressAutoCompletesAtOneHundredPercent() {
        var e = UserLibraryEntry(editionID: 1, dateAdded: t0)
        e.currentPage = 150
        e.updateReadingProgress(pageCount: 300, at: t1)
        #expect(e.readingProgress == 0.5 && e.readingStatus == .reading && e.dateStarted == t1)
        e.currentPage = 300
        e.updateReadingProgress(pageCount: 300, at: t1)
        #expect(e.readingStatus == .read && e.readingProgress == 1 && e.dateCompleted == t1)
        var over = UserLibraryEntry(editionID: 1)
        over.currentPage = 500
        over.updateReadingProgress(pageCount: 300)
        #expect(over.readingProgress == 1 && over.currentPage == 300)
    }

    @Test func markAsCompletedAndStartReading() {
        var e = UserLibraryEntry(editionID: 1)
        e.startReading(at: t0)
        #expect(e.readingStatus == .reading && e.dateStarted == t0)
        e.markAsCompleted(pageCount: 200, at: t1)
        #expect(e.readingStatus == .read && e.currentPage == 200 && e.readingProgress == 1 && e.dateStarted == t0)
        e.startReading(at: t1)
        #expect(e.readingStatus == .read, "a finished book does not restart by itself")
    }

    @Test func paceAndEstimatedFinish() {
        var e = UserLibraryEntry(editionID: 1)
        e.startReading(at: t0)
        e.currentPage = 100
        let now = t0.addingTimeInterval(4 * 86_400)
        #expect(e.readingPace(now: now) == 25)
        let finish = e.calculateEstimatedFinishDate(pageCount: 300, now: now)
        #expect(finish == now.addingTimeInterval(8 * 86_400))
        #expect(UserLibraryEntry().readingPace() == nil)
    }

    @Test func wishlistHasNoEditionAndAcquireKeepsDateAdded() {
        var w = UserLibraryEntry.createWishlistEntry(at: t0)
        #expect(w.isWishlist && !w.isOwned && w.validationIssues().isEmpty)
        w.acquireEdition(3, status: .reading, at: t1)
        #expect(w.isOwned && w.readingStatus == .reading && w.dateAdded == t0 && w.dateStarted == t1)
        var bad = UserLibraryEntry(editionID: 2, readingStatus: .wishlist)
        #expect(bad.validationIssues().map(\.field) == ["readingStatus"])
        bad.setStatus(.toRead)
        #expect(bad.validationIssues().isEmpty)
        #expect(UserLibraryEntry.createOwnedEntry(edition: 1, status: .wishlist).readingStatus == .toRead)
    }
}

@Suite struct ReadingStatusParsing {
    @Test(arguments: [
        ("want to read", ReadingStatus.wishlist), ("Wishlist", .wishlist),
        ("to-read", .toRead), ("To read", .toRead), ("to-be-read", .toRead), ("TBR", .toRead), ("TBR - To Be Read", .toRead),
        ("currently-reading", .reading), ("Currently reading", .reading), ("in progress", .reading),
        ("read", .read), ("Finished", .read), ("Read but unowned", .read),
        ("on hold", .onHold), ("paused", .onHold), ("on-hold", .onHold),
        ("did-not-finish", .dnf), ("DNF", .dnf), ("DNF - Did Not Finish", .dnf), ("abandoned", .dnf),
        ("toRead", .toRead), ("onHold", .onHold),
    ])
    func parsesExportVariants(text: String, expected: ReadingStatus) {
        #expect(ReadingStatus.from(string: text) == expected)
    }

    @Test func unknownIsNil() {
        #expect(ReadingStatus.from(string: nil) == nil)
        #expect(ReadingStatus.from(string: "  ") == nil)
        #expect(ReadingStatus.from(string: "favorites") == nil)
    }
}

@Suite struct SeriesFromTitles {
    @Test(arguments: [
        ("The Fellowship of the Ring (The Lord of the Rings, #1)", "The Lord of the Rings", 1.0),
        ("Dune Messiah (Dune #2)", "Dune", 2.0),
        ("Edgedancer (The Stormlight Archive, #2.5)", "The Stormlight Archive", 2.5),
        ("Leviathan Wakes (The Expanse, Book 1)", "The Expanse", 1.0),
        ("Discworld 12: Witches Abroad", "Discworld", 12.0),
        ("Caliban's War: Book 2 of the Expanse", "Expanse", 2.0),
    ])
    func extracts(title: String, name: String, number: Double) {
        let info = Work(title: title).seriesInfo
        #expect(info?.name == name)
        #expect(info?.number == number)
    }

    @Test func plainTitlesHaveNoSeries() {
        #expect(Work(title: "Middlemarch").seriesInfo == nil)
        #expect(Work(title: "Catch-22").seriesInfo == nil)
        #expect(SeriesInfo(name: "Dune", number: 2).description == "Dune #2")
    }
}
