import BookModel
import Foundation
import Testing
@testable import Enrichment

/// The normalizers on replies shaped as the providers document them (openlibrary.org/dev/docs/api/search,
/// /books, /works; developers.google.com/books/docs/v1/reference/volumes), odd cases included.
@Suite struct NormalizerTests {
    static let searchReply = """
    {"numFound": 3, "start": 0, "numFoundExact": true, "docs": [
      {"key": "/works/OL45804W", "type": "work", "title": "Nineteen Eighty-Four", "subtitle": "a novel",
       "author_name": ["George Orwell"], "author_key": ["OL118077A"], "first_publish_year": 1949, "edition_count": 412,
       "edition_key": ["OL1168083M", "OL9999999M"], "cover_edition_key": "OL1168083M", "cover_i": 9267242,
       "isbn": ["0451524934", "978-0-452-28423-4", "0451524935", "9780141036144", "0451524934"],
       "subject": ["Dystopias", "Fiction", "Totalitarianism", "Science Fiction"], "language": ["eng", "spa"],
       "publisher": ["Signet Classic"], "number_of_pages_median": 328,
       "id_goodreads": ["5470", "40961427"], "id_amazon": ["", "B08N5WRWNW"], "id_librarything": ["10517"], "id_google": ["kotPYEqx7kMC"]},
      {"key": "/works/OL2W", "title": "Anonymous chronicle", "edition_count": 1},
      {"key": "/works/OL3W", "title": "三体", "author_name": ["刘慈欣"], "author_key": ["OL7A"], "isbn": ["9787536692930"],
       "first_publish_year": 2006, "language": ["chi"]},
      {"key": "/works/OL4W"}
    ]}
    """

    @Test func openLibrarySearchDocBecomesWorkEditionAndAuthors() throws {
        // Given a search reply as documented, with a bad ISBN, a duplicate, hyphens and an empty ASIN
        let reply = try JSONDecoder().decode(OpenLibrary.SearchResponse.self, from: Data(Self.searchReply.utf8))
        // When it is normalized
        let books = reply.docs!.compactMap(OpenLibrary.book(from:))
        // Then the doc with no title is dropped, and the first is seed 004's Work / Edition / Author
        #expect(books.count == 3)
        let b = books[0]
        #expect(b.work.title == "Nineteen Eighty-Four")
        #expect(b.subtitle == "a novel")
        #expect(b.work.firstPublicationYear == 1949)
        #expect(b.work.openLibraryWorkID == "OL45804W")
        #expect(b.work.primaryProvider == "openlibrary")
        #expect(b.work.contributors == ["openlibrary"])
        #expect(b.work.synthetic == nil)
        #expect(b.work.goodreadsWorkIDs == ["5470", "40961427"])
        #expect(b.work.amazonASINs == ["B08N5WRWNW"])
        #expect(b.work.librarythingIDs == ["10517"])
        #expect(b.work.googleBooksVolumeIDs == ["kotPYEqx7kMC"])
        #expect(b.work.subjectTags == ["Dystopian", "Fiction", "Science Fiction"])
        // ISBNs: a wrong check digit dropped, hyphens removed, duplicates dropped, ISBN-13 first.
        #expect(b.edition.isbns.prefix(2) == ["9780452284234", "9780141036144"])
        #expect(b.edition.isbn == "9780452284234")
        #expect(b.edition.isbns == ["9780452284234", "9780141036144", "0451524934"])
        #expect(Set(b.edition.isbns).count == b.edition.isbns.count)
        #expect(b.edition.openLibraryEditionID == "OL1168083M")
        #expect(b.edition.coverImageURL == "https://covers.openlibrary.org/b/id/9267242-L.jpg")
        #expect(b.edition.pageCount == 328)
        #expect(b.edition.publisher == "Signet Classic")
        #expect(b.editionCount == 412)
        #expect(b.authors == [AuthorDTO(name: "George Orwell", openLibraryID: "OL118077A")])
        // No authors, no ISBNs: still a Work, with empty lists rather than invented data.
        #expect(books[1].authors.isEmpty)
        #expect(books[1].edition.isbns.isEmpty && books[1].edition.isbn == nil)
        // A non-Latin title is kept as written.
        #expect(books[2].work.title == "三体")
        #expect(books[2].authors.first?.name == "刘慈欣")
        #expect(books[2].edition.isbn == "9787536692930")
    }

    @Test func manyEditionsKeepABoundedListOfValidISBNs() throws {
        var isbns: [String] = []
        for n in 0..<500 {
            let core = "978" + String(format: "%09d", n)
            let sum = core.compactMap(\.wholeNumberValue).enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 1 : 3) }
            isbns.append(core + String((10 - sum % 10) % 10))
        }
        let doc = try JSONDecoder().decode(OpenLibrary.SearchDoc.self, from: JSONSerialization.data(withJSONObject: [
            "key": "/works/OL1W", "title": "Don Quixote", "edition_count": 500, "isbn": isbns]))
        let b = try #require(OpenLibrary.book(from: doc))
        #expect(b.edition.isbns.count == 20)
        #expect(b.edition.isbns == Array(isbns.prefix(20)))
        #expect(b.editionCount == 500)
    }

    static let editionReply = """
    {"key": "/books/OL7353617M", "title": "Fantastic Mr. Fox", "publishers": ["Puffin"], "publish_date": "October 1, 1988",
     "number_of_pages": 96, "isbn_10": ["0140328726"], "isbn_13": ["9780140328721"], "covers": [8739161],
     "physical_format": "Paperback", "languages": [{"key": "/languages/eng"}], "authors": [{"key": "/authors/OL34184A"}],
     "works": [{"key": "/works/OL45883W"}], "identifiers": {"goodreads": ["1507552"], "librarything": ["6446"]},
     "type": {"key": "/type/edition"}}
    """
    static let workReply = """
    {"key": "/works/OL45883W", "title": "Fantastic Mr Fox", "authors": [{"author": {"key": "/authors/OL34184A"},
     "type": {"key": "/type/author_role"}}], "subjects": ["Foxes", "Juvenile fiction", "Animals"],
     "description": {"type": "/type/text", "value": "The main character of Fantastic Mr. Fox is an extremely clever anthropomorphized fox."},
     "first_publish_date": "1970", "covers": [6498519]}
    """
    static let authorReply = """
    {"key": "/authors/OL34184A", "name": "Roald Dahl", "personal_name": "Roald Dahl", "birth_date": "13 September 1916",
     "death_date": "23 November 1990", "type": {"key": "/type/author"}}
    """

    @Test func openLibraryEditionWithWorkAndAuthor() throws {
        let e = try JSONDecoder().decode(OpenLibrary.EditionRecord.self, from: Data(Self.editionReply.utf8))
        let w = try JSONDecoder().decode(OpenLibrary.WorkRecord.self, from: Data(Self.workReply.utf8))
        let a = try JSONDecoder().decode(OpenLibrary.AuthorRecord.self, from: Data(Self.authorReply.utf8))
        let b = try #require(OpenLibrary.book(edition: e, work: w, authors: [a]))
        #expect(b.work.title == "Fantastic Mr Fox")
        #expect(b.work.synthetic == nil)
        #expect(b.work.openLibraryWorkID == "OL45883W")
        #expect(b.work.firstPublicationYear == 1970)
        #expect(b.work.description?.hasPrefix("The main character") == true)
        #expect(b.work.subjectTags == ["Young Adult", "Fiction"])
        #expect(b.edition.title == "Fantastic Mr. Fox")
        #expect(b.edition.isbns == ["9780140328721", "0140328726"])
        #expect(b.edition.publicationDate == "1988")
        #expect(b.edition.format == .paperback)
        #expect(b.edition.language == "eng")
        #expect(b.edition.openLibraryEditionID == "OL7353617M")
        #expect(b.edition.goodreadsID == "1507552")
        #expect(b.edition.librarythingIDs == ["6446"])
        #expect(b.authors == [AuthorDTO(name: "Roald Dahl", birthYear: 1916, deathYear: 1990, openLibraryID: "OL34184A")])
    }

    @Test func editionWithoutWorkGetsASyntheticWork() throws {
        let e = try JSONDecoder().decode(OpenLibrary.EditionRecord.self, from: Data("""
            {"key": "/books/OL1M", "title": "Orphan pamphlet", "publish_date": "1901", "description": "Plain string form"}
            """.utf8))
        let b = try #require(OpenLibrary.book(edition: e, work: nil, authors: []))
        #expect(b.work.synthetic == true)
        #expect(b.work.title == "Orphan pamphlet")
        #expect(b.work.firstPublicationYear == 1901)
        #expect(b.work.primaryProvider == "openlibrary")
        #expect(b.edition.description == "Plain string form")
        #expect(b.edition.isbns.isEmpty)
    }

    static let volumesReply = """
    {"kind": "books#volumes", "totalItems": 2, "items": [
      {"kind": "books#volume", "id": "zyTCAlFPjgYC", "etag": "f0zKg75Mx/I",
       "selfLink": "https://www.googleapis.com/books/v1/volumes/zyTCAlFPjgYC",
       "volumeInfo": {"title": "The Google Story", "authors": ["David A. Vise", "Mark Malseed"], "publisher": "Random House Digital, Inc.",
         "publishedDate": "2005-11-15", "description": "Here is the story...",
         "industryIdentifiers": [{"type": "ISBN_10", "identifier": "055380457X"}, {"type": "ISBN_13", "identifier": "9780553804577"}],
         "pageCount": 207, "printType": "BOOK", "categories": ["Browsers (Computer programs)", "Biography & Autobiography / Business"],
         "language": "en", "imageLinks": {"smallThumbnail": "http://books.google.com/books?id=zyTCAlFPjgYC&zoom=5",
           "thumbnail": "http://books.google.com/books?id=zyTCAlFPjgYC&zoom=1"}},
       "saleInfo": {"country": "US", "saleability": "FOR_SALE", "isEbook": true}},
      {"kind": "books#volume", "id": "noIsbn01",
       "volumeInfo": {"title": "Война и мир", "publishedDate": "1869-03", "industryIdentifiers": [{"type": "OTHER", "identifier": "UOM:39015"}]}}
    ]}
    """

    @Test func googleVolumeIsAnEditionWithASyntheticWork() throws {
        let reply = try JSONDecoder().decode(GoogleBooks.Volumes.self, from: Data(Self.volumesReply.utf8))
        let books = reply.items!.compactMap(GoogleBooks.book(from:))
        #expect(books.count == 2)
        let b = books[0]
        #expect(b.work.synthetic == true)
        #expect(b.work.primaryProvider == "google")
        #expect(b.work.contributors == ["google"])
        #expect(b.work.title == "The Google Story")
        #expect(b.work.firstPublicationYear == 2005)
        #expect(b.work.googleBooksVolumeIDs == ["zyTCAlFPjgYC"])
        #expect(b.work.subjectTags == ["Biography"])
        #expect(b.edition.isbns == ["9780553804577", "055380457X"])
        #expect(b.edition.googleBooksVolumeID == "zyTCAlFPjgYC")
        #expect(b.edition.format == .ebook)
        #expect(b.edition.publicationDate == "2005-11-15")
        #expect(b.edition.coverImageURL == "https://books.google.com/books?id=zyTCAlFPjgYC&zoom=1")
        #expect(b.authors.map(\.name) == ["David A. Vise", "Mark Malseed"])
        // No authors, an OTHER identifier only, a year-month date, a Cyrillic title.
        #expect(books[1].work.title == "Война и мир")
        #expect(books[1].authors.isEmpty)
        #expect(books[1].edition.isbns.isEmpty)
        #expect(books[1].edition.publicationDate == "1869")
        #expect(books[1].work.firstPublicationYear == 1869)
    }

    @Test func emptyGoogleReplyHasNoItemsKey() throws {
        let reply = try JSONDecoder().decode(GoogleBooks.Volumes.self, from: Data(#"{"kind": "books#volumes", "totalItems": 0}"#.utf8))
        #expect(reply.items == nil)
        #expect(reply.totalItems == 0)
    }

    @Test func queryWordsDropNoiseAndPlanFewerWordsNext() {
        let raw = QueryWords(EnrichmentRequest(rawText: "PENSA: MANIFEST INQUIETANT A FAVOR DE LA IGNORÂNCIA-ORTEU 1 Ort"))
        #expect(raw.any == ["pensa", "manifest", "inquietant", "favor", "ignorancia", "orteu"])
        #expect(raw.attempts.map(\.any) == [raw.any, ["inquietant", "ignorancia"], ["pensa", "manifest"], ["favor", "orteu"], ["inquietant"]])
        let split = QueryWords(EnrichmentRequest(title: "The Left Hand of Darkness", authors: ["Ursula K. Le Guin"]))
        #expect(split.title == ["left", "hand", "darkness"])
        #expect(split.author == ["ursula", "guin"])
        #expect(split.attempts.first == QueryWords.Attempt(title: ["left", "hand", "darkness"], author: ["ursula", "guin"]))
        #expect(QueryWords(EnrichmentRequest(title: "三体")).title == ["三体"])
        #expect(QueryWords(EnrichmentRequest(rawText: "12 3 de la")).isEmpty)
        #expect(QueryWords.withoutShelfMarks(TextNormalization.tokens("9 Ben 1(Fin) 1984 Orwell 77.6 Gom")) == ["9", "1", "1984", "orwell", "77", "6"])
        #expect(QueryWords(EnrichmentRequest(rawText: "Maalouf 008 Maa ndo")).any == ["maalouf", "ndo"])
    }

    @Test func subjectTagsMapProviderTaxonomies() {
        #expect(SubjectTags.normalize(["Fiction / Science Fiction / General"]) == ["Fiction", "Science Fiction"])
        #expect(SubjectTags.normalize(["Dystopian fiction"]) == ["Dystopian", "Fiction"])
        #expect(SubjectTags.normalize(["Totalitarianism", "London (England)"]) == [])
    }
}
