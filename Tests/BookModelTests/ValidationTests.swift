import Foundation
import Testing
@testable import BookModel

@Suite struct ValidationRules {
    @Test func titleIsTrimmedAndBounded() {
        #expect(Rules.title("  Dune  ") == nil)
        #expect(Rules.title("   ")?.message == "must not be empty")
        #expect(Rules.title(String(repeating: "a", count: 512)) == nil)
        #expect(Rules.title(" " + String(repeating: "a", count: 512) + " ") == nil, "trimmed before counting")
        #expect(Rules.title(String(repeating: "a", count: 513))?.message.contains("512") == true)
    }

    @Test func authorNamesAreOneToHundredCharacters() {
        #expect(Rules.authorName("Ursula K. Le Guin") == nil)
        #expect(Rules.authorName(" ") != nil)
        #expect(Rules.authorName(String(repeating: "b", count: 100)) == nil)
        #expect(Rules.authorName(String(repeating: "b", count: 101))?.message.contains("100") == true)
        #expect(Rules.authors([], required: true)?.message == "a verified book needs at least one author")
        #expect(Rules.authors([], required: false) == nil)
        #expect(Rules.authors(["ok", ""], required: false) != nil)
    }

    @Test func descriptionPagesGenresTags() {
        #expect(Rules.description(String(repeating: "d", count: 10_000)) == nil)
        #expect(Rules.description(String(repeating: "d", count: 10_001)) != nil)
        #expect(Rules.pageCount(1) == nil && Rules.pageCount(nil) == nil)
        #expect(Rules.pageCount(0) != nil && Rules.pageCount(-3) != nil)
        #expect(Rules.genres(Array(repeating: "SF", count: 10)) == nil)
        #expect(Rules.genres(Array(repeating: "SF", count: 11))?.message.contains("10") == true)
        #expect(Rules.genres([String(repeating: "g", count: 51)]) != nil)
        #expect(Rules.tags(Array(repeating: "t", count: 20)) == nil)
        #expect(Rules.tags(Array(repeating: "t", count: 21)) != nil)
        #expect(Rules.tags([""])?.message == "a tag must not be empty")
        #expect(Rules.tags([String(repeating: "t", count: 51)]) != nil)
    }

    @Test func ratingsAndNotes() {
        #expect(Rules.rating(nil) == nil && Rules.rating(1) == nil && Rules.rating(5) == nil)
        #expect(Rules.rating(0) != nil && Rules.rating(6) != nil)
        #expect(Rules.personalRating(0) == nil && Rules.personalRating(4.5) == nil && Rules.personalRating(5) == nil)
        #expect(Rules.personalRating(-0.1) != nil && Rules.personalRating(5.01) != nil && Rules.personalRating(.nan) != nil)
        #expect(Rules.notes(String(repeating: "n", count: 2_000)) == nil)
        #expect(Rules.notes(String(repeating: "n", count: 2_001))?.message.contains("2000") == true)
    }

    @Test func isbnCheckDigits() {
        #expect(Rules.isbn("978-0-441-17271-9") == nil)        // Dune, ISBN-13
        #expect(Rules.isbn("0441172717") == nil)               // Dune, ISBN-10
        #expect(Rules.isbn("080442957X") == nil)               // X check digit
        #expect(Rules.isbn("9780441172718")?.message.contains("ISBN-13 check digit") == true)
        #expect(Rules.isbn("0441172718")?.message.contains("ISBN-10 check digit") == true)
        #expect(Rules.isbn("12345")?.message.contains("10 or 13 digits") == true)
        #expect(Rules.isbn("97804411727X9") != nil)
        #expect(ISBN.toISBN13("0441172717") == "9780441172719")
        #expect(ISBN.valid("abc") == nil)
    }

    @Test func workValidationDependsOnReviewState() throws {
        var pending = Work(title: Work.unreadTitle, reviewStatus: .needsReview)
        #expect(pending.validationIssues().isEmpty, "a pending unread spine is a valid row")
        let verifyIssues = pending.validationIssues(forVerification: true).map(\.field)
        #expect(verifyIssues.contains("title") && verifyIssues.contains("authors"))
        pending.title = "The Dispossessed"
        pending.setAuthorNames(["Ursula K. Le Guin"])
        try pending.validate(forVerification: true)
        pending.boundingBox = BoundingBox(x: 0.9, y: 0, width: 0.2, height: 1)
        #expect(pending.validationIssues().map(\.field) == ["boundingBox"])
        let verified = Work(title: "No Author", reviewStatus: .verified)
        #expect(throws: ValidationError.self) { try verified.validate() }
    }

    @Test func nestedEditionAndEntryRulesAreReported() {
        var work = Work(title: "T", authors: ["A"])
        work.editions = [Edition(id: 1, isbn: "9780441172718", pageCount: 0)]
        var entry = UserLibraryEntry(editionID: 1)
        entry.rating = 9
        entry.notes = String(repeating: "x", count: 2_001)
        work.libraryEntry = entry
        let fields = Set(work.validationIssues().map(\.field))
        #expect(fields == ["pageCount", "isbn", "rating", "notes"])
    }
}
