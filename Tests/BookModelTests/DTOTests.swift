import Foundation
import Testing
@testable import BookModel

private func json(_ value: some Encodable) throws -> [String: Any] {
    let data = try ISO8601.makeEncoder().encode(value)
    return try JSONSerialization.jsonObject(with: data) as! [String: Any]
}

@Suite struct CanonicalDTOs {
    @Test func enumStringsAreSeed004s() throws {
        #expect(EditionFormat.allCases.map(\.rawValue) == ["Hardcover", "Paperback", "E-book", "Audiobook", "Mass Market"])
        #expect(AuthorGender.allCases.map(\.rawValue) == ["Female", "Male", "Non-binary", "Other", "Unknown"])
        #expect(CulturalRegion.allCases.map(\.rawValue) == ["Africa", "Asia", "Europe", "North America", "South America",
                                                            "Oceania", "Middle East", "Caribbean", "Central Asia",
                                                            "Indigenous", "International"])
        #expect(ReviewStatus.allCases.map(\.rawValue) == ["verified", "needsReview", "userEdited"])
    }

    @Test func workDTOHasExactlyTheSeedKeys() throws {
        var w = WorkDTO(title: "1984", subjectTags: ["Dystopian"], reviewStatus: .needsReview, originalImagePath: "/p.jpg",
                        boundingBox: BoundingBoxDTO(x: 0.1, y: 0.2, width: 0.05, height: 0.6))
        w.synthetic = true; w.primaryProvider = "tesseract"; w.contributors = ["tesseract"]
        w.openLibraryID = "a"; w.openLibraryWorkID = "b"; w.isbndbID = "c"; w.googleBooksVolumeID = "d"; w.goodreadsID = "e"
        w.originalLanguage = "en"; w.firstPublicationYear = 1949; w.description = "d"; w.lastISBNDBSync = "2025-10-29T12:00:00Z"
        let keys = Set(try json(w).keys)
        #expect(keys == ["title", "subjectTags", "originalLanguage", "firstPublicationYear", "description", "synthetic",
                         "primaryProvider", "contributors", "openLibraryID", "openLibraryWorkID", "isbndbID",
                         "googleBooksVolumeID", "goodreadsID", "goodreadsWorkIDs", "amazonASINs", "librarythingIDs",
                         "googleBooksVolumeIDs", "lastISBNDBSync", "isbndbQuality", "reviewStatus", "originalImagePath",
                         "boundingBox"])
        let minimal = try json(WorkDTO(title: "x"))
        #expect(Set(minimal.keys) == ["title", "subjectTags", "goodreadsWorkIDs", "amazonASINs", "librarythingIDs",
                                      "googleBooksVolumeIDs", "isbndbQuality", "reviewStatus"], "optionals are omitted")
        #expect((try json(w))["reviewStatus"] as? String == "needsReview")
        let box = (try json(w))["boundingBox"] as! [String: Double]
        #expect(box == ["x": 0.1, "y": 0.2, "width": 0.05, "height": 0.6])
    }

    @Test func editionAndAuthorDTOKeys() throws {
        let e = try json(EditionDTO(isbn: "9780451524935", isbns: ["9780451524935"], format: .massMarket))
        #expect(e["format"] as? String == "Mass Market")
        #expect(Set(e.keys) == ["isbn", "isbns", "format", "amazonASINs", "googleBooksVolumeIDs", "librarythingIDs", "isbndbQuality"])
        let a = try json(AuthorDTO(name: "N", gender: .nonBinary, culturalRegion: .northAmerica))
        #expect(a["gender"] as? String == "Non-binary" && a["culturalRegion"] as? String == "North America")
    }

    @Test func decodesTheSeedsSearchExample() throws {
        let text = """
        {"success": true, "data": {"works": [{"title": "1984", "subjectTags": ["Dystopian", "Science Fiction", "Classics"],
          "firstPublicationYear": 1949, "openLibraryWorkID": "OL45804W", "goodreadsWorkIDs": ["5470", "40961427"],
          "amazonASINs": [], "librarythingIDs": [], "googleBooksVolumeIDs": [],
          "isbndbQuality": 95, "reviewStatus": "verified"}],
          "authors": [{"name": "George Orwell", "gender": "Male", "culturalRegion": "Europe", "birthYear": 1903, "deathYear": 1950}]},
         "meta": {"timestamp": "2025-10-29T12:00:00Z", "processingTime": 234, "provider": "google-books", "cached": false}}
        """
        let r = try JSONDecoder().decode(ApiResponse<BookSearchResponse>.self, from: Data(text.utf8))
        guard case let .success(ok) = r else { Issue.record("expected success"); return }
        #expect(ok.data.works[0].goodreadsWorkIDs == ["5470", "40961427"])
        #expect(ok.data.authors[0].culturalRegion == .europe && ok.meta.processingTime == 234 && ok.meta.cached == false)
    }

    @Test func errorEnvelopeRoundTrips() throws {
        let text = """
        {"success": false, "error": {"message": "Invalid ISBN format", "code": "INVALID_ISBN",
          "details": {"provided": "123", "expected": "10 or 13 digits"}},
         "meta": {"timestamp": "2025-10-29T12:00:00Z", "processingTime": 5}}
        """
        let r = try JSONDecoder().decode(ApiResponse<BookSearchResponse>.self, from: Data(text.utf8))
        guard case let .failure(err) = r else { Issue.record("expected failure"); return }
        #expect(err.error.code == "INVALID_ISBN")
        #expect(err.error.details == .object(["provided": .string("123"), "expected": .string("10 or 13 digits")]))
        let again = try json(err)
        #expect(again["success"] as? Bool == false && (again["error"] as? [String: Any])?["message"] as? String == "Invalid ISBN format")
    }

    @Test func scanResponseCarriesPolygon() throws {
        let book = DetectedBook(work: WorkDTO(title: "x", reviewStatus: .needsReview), edition: EditionDTO(),
                                confidence: 0.8, polygon: [[0.1, 0.1], [0.2, 0.1], [0.2, 0.9], [0.1, 0.9]])
        let env = SuccessResponse(data: BookshelfScanResponse(jobId: "j", detectedBooks: [book]), meta: .now())
        let top = try json(env)
        #expect(top["success"] as? Bool == true)
        let data = top["data"] as! [String: Any]
        #expect(Set(data.keys) == ["jobId", "detectedBooks"])
        let entry = (data["detectedBooks"] as! [[String: Any]])[0]
        #expect(Set(entry.keys) == ["work", "edition", "confidence", "polygon"])
        #expect((entry["polygon"] as! [[Double]]).count == 4)
        let meta = top["meta"] as! [String: Any]
        #expect(ISO8601.date(from: meta["timestamp"] as! String) != nil)
    }

    @Test func workMapsToDTOAndBack() {
        var w = Work(title: "Dune", authors: ["Frank Herbert"], firstPublicationYear: 1965, reviewStatus: .needsReview)
        w.goodreadsWorkIDs = ["1"]; w.boundingBox = BoundingBox(x: 0.1, y: 0.1, width: 0.1, height: 0.8)
        w.lastISBNDBSync = Date(timeIntervalSince1970: 1_761_739_200)
        let back = Work(w.dto, authors: w.authors)
        #expect(back.dto == w.dto)
        #expect(w.dto.lastISBNDBSync == "2025-10-29T12:00:00Z")
        let e = Edition(isbn: "9780441172719", pageCount: 412, format: .hardcover)
        #expect(Edition(e.dto).dto == e.dto)
        let a = Author(name: "Frank Herbert", gender: .male, birthYear: 1920)
        #expect(Author(a.dto).dto == a.dto)
    }
}

@Suite struct DeduplicationRules {
    @Test func syntheticWorkFromEdition() {
        var e = EditionDTO(title: "Dune", publicationDate: "2005-08-02", googleBooksVolumeIDs: ["gb1"], isbndbQuality: 70)
        let w = CanonicalRules.ensureWorkForEdition(e, provider: "google")
        #expect(w.synthetic == true && w.primaryProvider == "google" && w.title == "Dune")
        #expect(w.firstPublicationYear == 2005 && w.googleBooksVolumeIDs == ["gb1"] && w.isbndbQuality == 70)
        #expect(w.reviewStatus == .verified)
        e.title = nil
        #expect(CanonicalRules.ensureWorkForEdition(e, provider: "x").title == "Unknown")
    }

    @Test func mergeWorksUnionsIDsAndKeepsBestQuality() {
        var a = WorkDTO(title: "1984", goodreadsWorkIDs: ["5470"], amazonASINs: ["A"], isbndbQuality: 50)
        a.contributors = ["openlibrary"]
        var b = WorkDTO(title: "Nineteen Eighty-Four", firstPublicationYear: 1949, goodreadsWorkIDs: ["5470", "40961427"],
                        librarythingIDs: ["lt"], googleBooksVolumeIDs: ["g"], isbndbQuality: 95)
        b.contributors = ["google", "openlibrary"]
        let m = CanonicalRules.mergeWorks(a, b)
        #expect(m.title == "1984" && m.firstPublicationYear == 1949)
        #expect(m.goodreadsWorkIDs == ["5470", "40961427"] && m.amazonASINs == ["A"] && m.librarythingIDs == ["lt"])
        #expect(m.isbndbQuality == 95 && m.contributors == ["openlibrary", "google"])
    }

    @Test func sameWorkByIDThenISBNThenFuzzyText() {
        var a = Work(title: "The Left Hand of Darkness", authors: ["Ursula K. Le Guin"])
        var b = Work(title: "Completely different", authors: ["X"])
        a.librarythingIDs = ["99"]; b.librarythingIDs = ["99"]
        #expect(DuplicateRule.match(a, b) == .externalID("lt:99"))
        b.librarythingIDs = []
        a.editions = [Edition(isbn: "0441172717")]; b.editions = [Edition(isbn: "9780441172719")]
        #expect(DuplicateRule.match(a, b) == .isbn("0441172717"))
        b.editions = []
        let c = Work(title: "THE LEFT HAND OF DARKNESS.", authors: ["Le Guin, Ursula K."])
        #expect(DuplicateRule.match(a, c)?.similarity == 1.0)
        let typo = Work(title: "The Left Hand of Darknes", authors: ["Ursula K Le Guin"])
        #expect((DuplicateRule.match(a, typo)?.similarity ?? 0) >= 0.9)
        let other = Work(title: "The Lathe of Heaven", authors: ["Ursula K. Le Guin"])
        #expect(DuplicateRule.match(a, other) == nil)
        #expect(DuplicateRule.match(Work(title: Work.unreadTitle), Work(title: Work.unreadTitle)) == nil)
    }

    @Test func levenshteinBasics() {
        #expect(Similarity.levenshtein(Array("kitten"), Array("sitting")) == 3)
        #expect(Similarity.ratio("Cien años de soledad", "CIEN ANOS DE SOLEDAD!") == 1)
        #expect(Similarity.ratio("", "") == 1)
    }

    @Test func absorbKeepsOursAndGainsTheirs() {
        var kept = Work(title: "Dune", authors: ["Frank Herbert"])
        kept.editions = [Edition(isbn: "9780441172719")]
        var other = Work(title: "dune", authors: ["Frank Herbert", "Brian Herbert"], firstPublicationYear: 1965)
        other.goodreadsWorkIDs = ["g"]
        other.editions = [Edition(isbn: "0441172717", amazonASINs: ["A"]), Edition(isbn: "9780340960196")]
        kept.absorb(other)
        #expect(kept.title == "Dune" && kept.firstPublicationYear == 1965 && kept.goodreadsWorkIDs == ["g"])
        #expect(kept.authors.map(\.name) == ["Frank Herbert", "Brian Herbert"])
        #expect(kept.editions.count == 2 && kept.editions[0].amazonASINs == ["A"])
    }
}
