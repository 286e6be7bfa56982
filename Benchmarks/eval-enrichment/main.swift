// eval-enrichment: how well enrichment turns real OCR readings of real library spines into the right book,
// against the local catalogue matcher on the same readings.
//
//   swift run -c release eval-enrichment [--dataset DIR] [--rows N] [--searches K] [--threshold P] [--title-coverage C] [--failures N]
//
// The provider is a local OpenLibrary-format search server on 127.0.0.1 (ShelfScanTestSupport's
// FakeBookProviders) whose database is the Library Dataset's catalogue.csv: `/search.json` with every query
// word required, as the real service. Each reading goes through the real Enricher (URLSession, query words,
// retries with fewer words, calibrated ranking, threshold); the data never leaves the dataset directory.
//
// Rows: spine_annotations.csv with not_book=False and not_in_db=False (as eval-catalog). A hit is a best
// candidate with the annotated ISBN or, where that is empty, the same normalized title. Figures for all rows
// and for the held-out half (by photo hash, as eval-catalog: the calibration was fitted on the other half).
// Requests per book count HTTP requests sent (no cache).
import BookModel
import Catalog
import Enrichment
import Foundation
import ShelfScanTestSupport

var datasetDir = "../shared/datasets/library-dataset"
var maxRows = Int.max
var searches = EnrichmentConfiguration(providers: [.openlibrary]).maxSearchesPerBook
var showFailures = 0
var threshold = CatalogIndex.acceptThreshold
var titleCoverage: Double?
var args = CommandLine.arguments.dropFirst()
while let a = args.popFirst() {
    switch a {
    case "--dataset": datasetDir = args.popFirst() ?? datasetDir
    case "--rows": maxRows = Int(args.popFirst() ?? "") ?? maxRows
    case "--searches": searches = Int(args.popFirst() ?? "") ?? searches
    case "--failures": showFailures = Int(args.popFirst() ?? "20") ?? 20
    case "--threshold": threshold = Double(args.popFirst() ?? "") ?? threshold
    case "--title-coverage": titleCoverage = Double(args.popFirst() ?? "")
    default: print("usage: eval-enrichment [--dataset DIR] [--rows N] [--searches K] [--threshold P] [--title-coverage C] [--failures N]"); exit(2)
    }
}
let cataloguePath = datasetDir + "/catalogue.csv"
let annotationsPath = datasetDir + "/spine_annotations.csv"
guard FileManager.default.fileExists(atPath: cataloguePath), FileManager.default.fileExists(atPath: annotationsPath) else {
    print("eval-enrichment: dataset not found at \(datasetDir); skipping (pass --dataset DIR)")
    exit(0)
}

// MARK: The catalogue as an OpenLibrary database
let (catalog, _) = try Catalog.load(csvAt: cataloguePath)
/// "Bunge, Mario, 1919-2020" → "Mario Bunge": OpenLibrary lists names in reading order.
func readingOrder(_ name: String) -> String {
    let parts = name.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    guard parts.count >= 2, !parts[1].isEmpty, !parts[1].contains(where: \.isNumber) else { return parts.first ?? name }
    return parts[1] + " " + parts[0]
}
let books: [FakeBookProviders.Book] = catalog.entries.map { e in
    let title = e.title.trimmingCharacters(in: .whitespaces)
    let split = title.components(separatedBy: " : ")
    let main = split[0].trimmingCharacters(in: .whitespaces)
    let subtitle = split.count > 1 ? split.dropFirst().joined(separator: " : ").trimmingCharacters(in: .whitespaces) : nil
    // The catalogue's author column holds one name ("Last, First, dates"), split on commas by the loader.
    let authors = e.authors.isEmpty ? [] : [readingOrder(e.authors.joined(separator: ", "))]
    return FakeBookProviders.Book(title: main.isEmpty ? title : main, subtitle: subtitle, authors: authors,
                                  isbns: e.isbn.isEmpty ? [] : [e.isbn], language: "spa")
}
let server = try FakeBookProviders(books: books)
defer { server.stop() }

// MARK: Annotated rows (as eval-catalog)
typealias Row = AnnotatedSpine
let rows = Array(try AnnotatedSpine.load(csvAt: annotationsPath).prefix(maxRows))

func isHit(title: String, isbns: [String], _ row: Row) -> Bool {
    if !row.isbn.isEmpty { return isbns.contains(row.isbn) }
    return TextNormalization.normalize(title) == TextNormalization.normalize(row.title)
}

// MARK: Local catalogue matcher
let index = CatalogIndex(catalog)
struct Outcome { var hit = false; var accepted = false; var requests = 0 }
var local: [Outcome] = rows.map { row in
    guard let m = index.match(row.ocr, top: 1).first else { return Outcome() }
    return Outcome(hit: isHit(title: m.entry.title, isbns: [m.entry.isbn], row), accepted: m.score >= CatalogIndex.acceptThreshold)
}

// MARK: Enrichment through the local OpenLibrary
var configuration = EnrichmentConfiguration(providers: [.openlibrary])
configuration.baseURLs[.openlibrary] = server.baseURL
configuration.maxSearchesPerBook = searches
configuration.backoffBase = 0.05
if let titleCoverage { configuration.minTitleCoverage = titleCoverage }
let enricher = Enricher(configuration: configuration, acceptThreshold: threshold)
let start = Date()
let results: [(Int, EnrichmentResult)] = await withTaskGroup(of: (Int, EnrichmentResult).self) { group in
    var out: [(Int, EnrichmentResult)] = []
    var next = 0
    func add(_ group: inout TaskGroup<(Int, EnrichmentResult)>) {
        let i = next, text = rows[i].ocr
        group.addTask { (i, await enricher.enrich(EnrichmentRequest(rawText: text))) }
        next += 1
    }
    while next < min(rows.count, configuration.concurrency) { add(&group) }
    for await r in group {
        out.append(r)
        if next < rows.count { add(&group) }
    }
    return out
}
let seconds = Date().timeIntervalSince(start)
var enriched = [Outcome](repeating: Outcome(), count: rows.count)
var states: [EnrichmentStatus.State: Int] = [:]
var failures: [(Row, EnrichmentResult)] = []
for (i, r) in results {
    states[r.status.state, default: 0] += 1
    enriched[i].requests = r.status.requests ?? 0
    enriched[i].accepted = r.accepted != nil
    if let best = r.candidates.first {
        var title = best.book.work.title
        if let s = best.book.subtitle { title += " : " + s }
        enriched[i].hit = isHit(title: title, isbns: best.book.edition.isbns, rows[i])
    }
    if !enriched[i].hit { failures.append((rows[i], r)) }
}

// MARK: Report
func report(_ name: String, _ o: [Outcome], _ keep: [Bool]) -> String {
    let chosen = zip(o, keep).filter(\.1).map(\.0)
    let n = max(1, chosen.count)
    let hits = chosen.filter(\.hit).count
    let acc = chosen.filter(\.accepted)
    let accHits = acc.filter(\.hit).count
    return String(format: "%@ top-1 %.4f   accepted %.4f at precision %.4f", name as NSString, Double(hits) / Double(n),
                  Double(acc.count) / Double(n), acc.isEmpty ? 0 : Double(accHits) / Double(acc.count))
}
print("eval-enrichment: \(rows.count) readings, \(catalog.entries.count) catalogue entries served as OpenLibrary /search.json on 127.0.0.1")
for (label, keep) in [("all rows", rows.map { _ in true }), ("held-out half", rows.map { !$0.train })] {
    print("\(label) (\(keep.filter { $0 }.count)):")
    print("  " + report("catalogue matcher (local index)    ", local, keep))
    print("  " + report("enrichment (OpenLibrary search)    ", enriched, keep))
}
let totalRequests = enriched.map(\.requests).reduce(0, +)
print(String(format: "accept threshold %.4f, title coverage >= %.2f", threshold, configuration.minTitleCoverage))
print(String(format: "requests per book %.2f (max %d searches per book); %.1f ms per book wall (%d concurrent)",
             Double(totalRequests) / Double(max(1, rows.count)), searches, seconds * 1000 / Double(max(1, rows.count)), configuration.concurrency))
print(String(format: "server saw %.2f requests per book", Double(server.requestCount) / Double(max(1, rows.count))))
print("outcomes: " + states.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", "))
for (row, r) in failures.prefix(showFailures) {
    print("MISS ocr: \(row.ocr)\n     want: \(row.title) [\(row.isbn)]\n     got:  \(r.candidates.first.map { "\($0.book.work.title) (\(String(format: "%.3f", $0.score)))" } ?? "-") state \(r.status.state.rawValue)")
}
