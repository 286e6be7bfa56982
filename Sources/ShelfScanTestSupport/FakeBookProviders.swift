import BookModel
import Foundation

/// A local stand-in for OpenLibrary and Google Books on 127.0.0.1, speaking their documented JSON: OpenLibrary's
/// `/search.json` (title/author/q, `fields`, `limit`), `/isbn/{isbn}.json` (a 302 to `/books/{olid}.json`, as
/// the real service answers), `/works/{olid}.json` and `/authors/{olid}.json`; Google Books'
/// `/books/v1/volumes?q=intitle:…+inauthor:…|isbn:…` (no `items` key when nothing matches, as the real API).
/// Search is the real services' kind: every query word must match (case and accents folded), ranked by how
/// rare the matched words are and how short the title is. Faults are injected FIFO, per request.
public final class FakeBookProviders: @unchecked Sendable {
    /// One book in the stand-in's database: enough to render a search doc, an edition, a work, authors
    /// and a Google volume.
    public struct Book: Sendable {
        public var title: String
        public var subtitle: String?
        /// Names; empty for the odd record with no author.
        public var authors: [String]
        /// As the provider stores them: ISBN-10 and -13, possibly with hyphens, possibly invalid.
        public var isbns: [String]
        public var year: Int?
        public var subjects: [String]
        public var publisher: String?
        public var pages: Int?
        public var language: String?
        /// Extra editions' ISBNs (a work with many editions lists them all in its search doc).
        public var editionCount: Int
        /// When false the edition record has no `works` link (OpenLibrary has such orphans).
        public var linkedToWork: Bool

        public init(title: String, subtitle: String? = nil, authors: [String] = [], isbns: [String] = [], year: Int? = nil,
                    subjects: [String] = [], publisher: String? = nil, pages: Int? = nil, language: String? = "eng",
                    editionCount: Int = 1, linkedToWork: Bool = true) {
            self.title = title; self.subtitle = subtitle; self.authors = authors; self.isbns = isbns; self.year = year
            self.subjects = subjects; self.publisher = publisher; self.pages = pages; self.language = language
            self.editionCount = editionCount; self.linkedToWork = linkedToWork
        }
    }

    public enum Fault: Sendable {
        /// 429 with `Retry-After` (seconds) and the provider's error body.
        case rateLimited(retryAfter: Int)
        case serverError
        /// Wait this long before answering normally.
        case slow(seconds: Double)
        /// A 200 whose JSON body is cut in half.
        case truncated
        /// Close the connection without a reply.
        case drop
    }

    private let server: LoopbackHTTPServer
    private let state: State

    /// - Parameter googleKey: when set, Google requests must carry `key=` with it (400 otherwise, as Google
    ///   answers an invalid key); OpenLibrary needs no key.
    public init(books: [Book], googleKey: String? = nil) throws {
        let state = State(books: books, googleKey: googleKey)
        self.state = state
        server = try LoopbackHTTPServer { request in state.handle(request) }
    }

    public func stop() { server.stop() }
    public var baseURL: URL { server.baseURL }

    public func inject(_ faults: Fault...) { state.locked { $0.faults.append(contentsOf: faults) } }
    /// Every request that reached the server (path and query), in order.
    public var requests: [HTTPRequestRecord] { state.locked { $0.requests } }
    public var requestCount: Int { state.locked { $0.requests.count } }
    /// The most requests this server was answering at the same moment.
    public var peakConcurrency: Int { state.locked { $0.peak } }
    /// Every answer waits this long first (a distant provider), so concurrency can be observed.
    public func setLatency(_ seconds: Double) { state.locked { $0.latency = seconds } }
    /// Serves exactly this body (status 200) for this path, ahead of the database: for fixtures written
    /// from the providers' documentation.
    public func serve(path: String, json: String) { state.locked { $0.fixtures[path] = json } }

    /// The OpenLibrary IDs the stand-in gives book `i`: work, edition, and author `j`.
    public static func workID(_ i: Int) -> String { "OL\(1000 + i)W" }
    public static func editionID(_ i: Int) -> String { "OL\(1000 + i)M" }
    public static func googleID(_ i: Int) -> String { "gb\(String(1000 + i, radix: 36))vol" }

    // MARK: Handling

    private final class State: @unchecked Sendable {
        let lock = NSLock()
        let books: [Book]
        let googleKey: String?
        var faults: [Fault] = []
        var requests: [HTTPRequestRecord] = []
        var fixtures: [String: String] = [:]
        var inFlight = 0
        var peak = 0
        var latency: Double = 0
        /// Word → books with it, per field; IDF per word.
        var titleIndex: [String: Set<Int>] = [:]
        var authorIndex: [String: Set<Int>] = [:]
        var authorIDs: [String: String] = [:]
        var titleLength: [Int] = []

        init(books: [Book], googleKey: String?) {
            self.books = books
            self.googleKey = googleKey
            for (i, b) in books.enumerated() {
                let t = TextNormalization.tokens(b.title + " " + (b.subtitle ?? ""))
                titleLength.append(max(1, t.count))
                for w in t { titleIndex[w, default: []].insert(i) }
                for a in b.authors {
                    for w in TextNormalization.tokens(a) { authorIndex[w, default: []].insert(i) }
                    if authorIDs[a] == nil { authorIDs[a] = "OL\(100 + authorIDs.count)A" }
                }
            }
        }

        func locked<T>(_ body: (State) -> T) -> T { lock.withLock { body(self) } }

        func handle(_ r: HTTPRequestRecord) -> HTTPServerAction {
            let (fault, latency): (Fault?, Double) = locked { s in
                s.requests.append(r)
                s.inFlight += 1
                s.peak = max(s.peak, s.inFlight)
                return (s.faults.isEmpty ? nil : s.faults.removeFirst(), s.latency)
            }
            defer { locked { $0.inFlight -= 1 } }
            if latency > 0 { Thread.sleep(forTimeInterval: latency) }
            let google = r.path.hasPrefix("/books/v1/")
            switch fault {
            case .rateLimited(let seconds)?:
                let body = google ? #"{"error":{"code":429,"message":"Quota exceeded","status":"RESOURCE_EXHAUSTED"}}"#
                    : #"{"error":"rate limited"}"#
                return .respond(status: 429, headers: ["Retry-After": String(seconds), "Content-Type": "application/json"], body: Data(body.utf8))
            case .serverError?:
                return .respond(status: 500, headers: ["Content-Type": "text/html"], body: Data("<html><body>Internal Server Error</body></html>".utf8))
            case .slow(let seconds)?:
                Thread.sleep(forTimeInterval: seconds)
            case .drop?:
                return .drop
            case .truncated?, nil:
                break
            }
            var action = route(r, google: google)
            if case .truncated? = fault, case .respond(200, let headers, let body) = action {
                action = .respond(status: 200, headers: headers, body: body.prefix(body.count / 2))
            }
            return action
        }

        func json(_ object: Any, status: Int = 200) -> HTTPServerAction {
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
            return .respond(status: status, headers: ["Content-Type": "application/json"], body: data)
        }

        func route(_ r: HTTPRequestRecord, google: Bool) -> HTTPServerAction {
            if let fixture = locked({ $0.fixtures[r.path] }) {
                return .respond(status: 200, headers: ["Content-Type": "application/json"], body: Data(fixture.utf8))
            }
            if google { return googleVolumes(r) }
            let parts = r.path.split(separator: "/").map(String.init)
            if r.path == "/search.json" { return openLibrarySearch(r) }
            if parts.count == 2, parts[0] == "isbn", parts[1].hasSuffix(".json") {
                let isbn = String(parts[1].dropLast(5))
                guard let i = book(isbn: isbn) else { return json(["error": "notfound", "key": "/isbn/\(isbn)"], status: 404) }
                return .respond(status: 302, headers: ["Location": "/books/\(FakeBookProviders.editionID(i)).json"], body: Data())
            }
            guard parts.count == 2, parts[1].hasSuffix(".json") else { return json(["error": "notfound"], status: 404) }
            let id = String(parts[1].dropLast(5))
            switch parts[0] {
            case "books":
                guard let i = books.indices.first(where: { FakeBookProviders.editionID($0) == id }) else { break }
                return json(editionRecord(i))
            case "works":
                guard let i = books.indices.first(where: { FakeBookProviders.workID($0) == id }) else { break }
                return json(workRecord(i))
            case "authors":
                guard let name = authorIDs.first(where: { $0.value == id })?.key else { break }
                return json(["key": "/authors/\(id)", "name": name, "personal_name": name, "birth_date": "1 January 1950",
                             "type": ["key": "/type/author"]])
            default: break
            }
            return json(["error": "notfound", "key": r.path], status: 404)
        }

        func book(isbn: String) -> Int? {
            let n = isbn.filter { $0.isNumber || $0 == "X" }
            return books.indices.first { i in books[i].isbns.contains { $0.filter { $0.isNumber || $0 == "X" } == n } }
        }

        /// Books containing every word (AND), best first.
        func search(title: [String], author: [String], any: [String]) -> [Int] {
            guard !(title.isEmpty && author.isEmpty && any.isEmpty) else { return [] }
            var result: Set<Int>? = nil
            func narrow(_ s: Set<Int>) { result = result.map { $0.intersection(s) } ?? s }
            for w in title { narrow(titleIndex[w] ?? []) }
            for w in author { narrow(authorIndex[w] ?? []) }
            for w in any { narrow((titleIndex[w] ?? []).union(authorIndex[w] ?? [])) }
            // Every hit holds every word, so the shorter title is the closer one (as a search engine's
            // length normalization ranks it); ties keep database order.
            let scored: [(Int, Int)] = (result ?? []).map { ($0, titleLength[$0]) }
            return scored.sorted { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }.map { $0.0 }
        }

        func allISBNs(_ i: Int) -> [String] {
            var out = books[i].isbns
            // Further editions of a many-edition work: invented, valid ISBN-13s.
            if books[i].editionCount > 1 {
                for e in 1..<books[i].editionCount {
                    let core = "979" + String(format: "%09d", (i * 1000 + e) % 1_000_000_000)
                    let digits = core.compactMap(\.wholeNumberValue)
                    let sum = digits.enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 1 : 3) }
                    out.append(core + String((10 - sum % 10) % 10))
                }
            }
            return out
        }

        func openLibrarySearch(_ r: HTTPRequestRecord) -> HTTPServerAction {
            let hits = search(title: TextNormalization.tokens(r.query["title"] ?? ""), author: TextNormalization.tokens(r.query["author"] ?? ""),
                              any: TextNormalization.tokens(r.query["q"] ?? ""))
            let limit = Int(r.query["limit"] ?? "") ?? 100
            let fields = r.query["fields"].map { Set($0.split(separator: ",").map(String.init)) }
            let docs: [[String: Any]] = hits.prefix(limit).map { i in
                let b = books[i]
                var d: [String: Any] = ["key": "/works/\(FakeBookProviders.workID(i))", "type": "work", "title": b.title,
                                        "edition_count": b.editionCount, "cover_edition_key": FakeBookProviders.editionID(i),
                                        "edition_key": [FakeBookProviders.editionID(i)], "cover_i": 8_000_000 + i,
                                        "has_fulltext": false, "public_scan_b": false]
                if let s = b.subtitle { d["subtitle"] = s }
                if !b.authors.isEmpty {
                    d["author_name"] = b.authors
                    d["author_key"] = b.authors.map { authorIDs[$0]! }
                }
                if let y = b.year { d["first_publish_year"] = y }
                let isbns = allISBNs(i)
                if !isbns.isEmpty { d["isbn"] = isbns }
                if !b.subjects.isEmpty { d["subject"] = b.subjects }
                if let p = b.publisher { d["publisher"] = [p] }
                if let p = b.pages { d["number_of_pages_median"] = p }
                if let l = b.language { d["language"] = [l] }
                d["id_goodreads"] = ["\(5000 + i)"]
                d["id_google"] = [FakeBookProviders.googleID(i)]
                // Without `fields`, OpenLibrary answers its default set, which has no ISBNs or other IDs.
                guard let fields else {
                    return d.filter { ["key", "type", "title", "author_name", "author_key", "first_publish_year", "edition_count",
                                       "cover_i", "cover_edition_key", "has_fulltext", "public_scan_b"].contains($0.key) }
                }
                return d.filter { fields.contains($0.key) || fields.contains("*") }
            }
            return json(["numFound": hits.count, "start": 0, "numFoundExact": true, "docs": docs, "q": r.query["q"] ?? "",
                         "offset": NSNull()])
        }

        func editionRecord(_ i: Int) -> [String: Any] {
            let b = books[i]
            var d: [String: Any] = ["key": "/books/\(FakeBookProviders.editionID(i))", "title": b.title,
                                    "type": ["key": "/type/edition"], "covers": [8_000_000 + i],
                                    "physical_format": "Paperback", "latest_revision": 3, "revision": 3,
                                    "identifiers": ["goodreads": ["\(5000 + i)"], "librarything": ["\(7000 + i)"]]]
            if let s = b.subtitle { d["subtitle"] = s }
            if b.linkedToWork { d["works"] = [["key": "/works/\(FakeBookProviders.workID(i))"]] }
            if !b.authors.isEmpty { d["authors"] = b.authors.map { ["key": "/authors/\(authorIDs[$0]!)"] } }
            let digits = b.isbns.map { $0.filter { $0.isNumber || $0 == "X" } }
            let ten = b.isbns.enumerated().filter { digits[$0.offset].count == 10 }.map(\.element)
            let thirteen = b.isbns.enumerated().filter { digits[$0.offset].count == 13 }.map(\.element)
            if !ten.isEmpty { d["isbn_10"] = ten }
            if !thirteen.isEmpty { d["isbn_13"] = thirteen }
            if let p = b.publisher { d["publishers"] = [p] }
            if let y = b.year { d["publish_date"] = "May 1, \(y)" }
            if let p = b.pages { d["number_of_pages"] = p }
            if let l = b.language { d["languages"] = [["key": "/languages/\(l)"]] }
            return d
        }

        func workRecord(_ i: Int) -> [String: Any] {
            let b = books[i]
            var d: [String: Any] = ["key": "/works/\(FakeBookProviders.workID(i))", "title": b.title, "type": ["key": "/type/work"],
                                    "description": ["type": "/type/text", "value": "About \(b.title)."], "covers": [8_000_000 + i]]
            if let s = b.subtitle { d["subtitle"] = s }
            if !b.authors.isEmpty {
                d["authors"] = b.authors.map { ["author": ["key": "/authors/\(authorIDs[$0]!)"], "type": ["key": "/type/author_role"]] }
            }
            if !b.subjects.isEmpty { d["subjects"] = b.subjects }
            if let y = b.year { d["first_publish_date"] = String(y) }
            return d
        }

        func googleVolumes(_ r: HTTPRequestRecord) -> HTTPServerAction {
            guard r.path == "/books/v1/volumes" else { return json(["error": ["code": 404, "message": "Not Found"]], status: 404) }
            if let key = googleKey, r.query["key"] != key {
                return json(["error": ["code": 400, "message": "API key not valid. Please pass a valid API key.",
                                       "status": "INVALID_ARGUMENT"]], status: 400)
            }
            var title: [String] = [], author: [String] = [], any: [String] = []
            var hits: [Int] = []
            var isbnQuery = false
            for term in (r.query["q"] ?? "").split(whereSeparator: { $0 == " " || $0 == "+" }) {
                let t = String(term)
                if t.hasPrefix("isbn:") { isbnQuery = true; if let i = book(isbn: String(t.dropFirst(5))) { hits = [i] } }
                else if t.hasPrefix("intitle:") { title += TextNormalization.tokens(String(t.dropFirst(8))) }
                else if t.hasPrefix("inauthor:") { author += TextNormalization.tokens(String(t.dropFirst(9))) }
                else { any += TextNormalization.tokens(t) }
            }
            if !isbnQuery { hits = search(title: title, author: author, any: any) }
            let limit = Int(r.query["maxResults"] ?? "") ?? 10
            guard !hits.isEmpty else { return json(["kind": "books#volumes", "totalItems": 0]) }
            let items: [[String: Any]] = hits.prefix(limit).map { i in
                let b = books[i]
                var info: [String: Any] = ["title": b.title, "printType": "BOOK", "previewLink": "http://books.google.com/books?id=x",
                                           "imageLinks": ["smallThumbnail": "http://books.google.com/books/content?id=\(FakeBookProviders.googleID(i))&zoom=5",
                                                          "thumbnail": "http://books.google.com/books/content?id=\(FakeBookProviders.googleID(i))&zoom=1"]]
                if let s = b.subtitle { info["subtitle"] = s }
                if !b.authors.isEmpty { info["authors"] = b.authors }
                if let p = b.publisher { info["publisher"] = p }
                if let y = b.year { info["publishedDate"] = "\(y)-05" }
                if let p = b.pages { info["pageCount"] = p }
                if !b.subjects.isEmpty { info["categories"] = b.subjects }
                if let l = b.language { info["language"] = String(l.prefix(2)) }
                let ids: [[String: String]] = b.isbns.map { raw in
                    let d = raw.filter { $0.isNumber || $0 == "X" }
                    return ["type": d.count == 13 ? "ISBN_13" : "ISBN_10", "identifier": d]
                } + [["type": "OTHER", "identifier": "UOM:39015\(i)"]]
                info["industryIdentifiers"] = ids
                return ["kind": "books#volume", "id": FakeBookProviders.googleID(i), "etag": "e\(i)",
                        "selfLink": "https://www.googleapis.com/books/v1/volumes/\(FakeBookProviders.googleID(i))",
                        "volumeInfo": info, "saleInfo": ["country": "US", "saleability": "NOT_FOR_SALE", "isEbook": false]]
            }
            return json(["kind": "books#volumes", "totalItems": hits.count, "items": items])
        }
    }
}
