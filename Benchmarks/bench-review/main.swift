// bench-review: how fast the review queue feels with a big backlog.
//
// Files 10,000 pending Works (200 photos x 50 spines) into a fresh file-backed library that also holds
// 2,000 reviewed Works, then times what a reviewer waits for: listing the queue, moving to the next item
// (with its duplicate candidates), and deciding. Target: listing and next-item <= 50 ms each.
//
//   swift run -c release bench-review [pending-count]
import BookModel
import Foundation
import Library
import LibraryCore

func milliseconds(_ body: () async throws -> Void) async rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try await body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

func report(_ name: String, _ samples: [Double]) {
    let s = samples.sorted()
    let median = s[s.count / 2], p95 = s[min(s.count - 1, Int(Double(s.count) * 0.95))]
    print(name.padding(toLength: 46, withPad: " ", startingAt: 0)
          + String(format: "median %8.2f ms   p95 %8.2f ms   max %8.2f ms   (n=%d)", median, p95, s.last!, s.count))
}

let pendingTarget = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 10_000
let spinesPerPhoto = 50
let reviewedCount = 2_000
let words = ["Shadow", "River", "Empire", "Garden", "Night", "Glass", "Winter", "Ocean", "Iron", "Silent", "Golden",
             "Lost", "City", "Stars", "House", "Memory", "Fire", "Paper", "Queen", "Island", "Storm", "Secret"]
let names = ["Ada Moreno", "Kenji Sato", "Amara Okafor", "Lena Fischer", "Omar Haddad", "Priya Nair", "Tom Walsh",
             "Sofia Rossi", "Yuki Tanaka", "Ines Duarte", "Marek Nowak", "Chloe Martin"]
var rng = SystemRandomNumberGenerator()
func title(_ i: Int) -> String { "The \(words[i % words.count]) of \(words[(i / 7) % words.count]) \(i)" }

let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bench-review-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: dir) }
let store = try LibraryStore(path: dir.appendingPathComponent("library.sqlite").path)

let crop = [UInt8](repeating: 0xAB, count: 6_000)   // a small JPEG's worth of bytes
var filing: [Double] = []
for p in 0..<(pendingTarget / spinesPerPhoto) {
    let spines = (0..<spinesPerPhoto).map { s -> SpineFiling in
        let i = p * spinesPerPhoto + s
        let x = Double(s) / Double(spinesPerPhoto)
        return SpineFiling(title: i % 9 == 0 ? nil : title(i), authors: i % 9 == 0 ? [] : [names[i % names.count]],
                           boundingBox: BoundingBox(x: x, y: 0.1, width: 0.018, height: 0.8),
                           polygon: [[x, 0.1], [x + 0.018, 0.1], [x + 0.018, 0.9], [x, 0.9]], row: s / 25, position: s % 25,
                           detectionConfidence: 0.8, readingConfidence: 0.6, rawText: title(i), reader: "tesseract",
                           promptVersion: "v1", cropJPEG: crop)
    }
    let photo = PhotoFiling(contentHash: String(format: "%064x", p + 1), originalImagePath: "/photos/\(p).jpg",
                            imageWidth: 4000, imageHeight: 3000, spines: spines)
    filing.append(try await milliseconds { try await store.file(photo) })
}
for i in 0..<reviewedCount {
    var w = Work(title: title(1_000_000 + i), authors: [names[i % names.count]], reviewStatus: .verified)
    w.libraryEntry = UserLibraryEntry(readingStatus: .toRead)
    try await store.add(w)
}
print("library: \(try await store.pendingCount()) pending, \(reviewedCount) reviewed, \(filing.count) photos filed")
report("file one photo (50 spines + crops)", filing)

var listing: [Double] = []
var count = 0
for _ in 0..<20 { listing.append(try await milliseconds { count = try await store.pendingSummaries().count }) }
let pendingNow = try await store.pendingCount()
precondition(count == pendingNow)
report("list the whole queue (\(count) items)", listing)
var page: [Double] = []
for _ in 0..<50 { page.append(try await milliseconds { _ = try await store.pendingSummaries(limit: 50, offset: 5_000) }) }
report("list one page (50 items, offset 5,000)", page)

var indexLoad: [Double] = []
var index = DuplicateIndex()
for _ in 0..<5 { indexLoad.append(try await milliseconds { index = try await store.duplicateIndex() }) }
report("load duplicate index (\(index.count) works)", indexLoad)

var next: [Double] = []
var cursor: Work.ID? = nil
var dupes = 0
for _ in 0..<300 {
    next.append(try await milliseconds {
        let item = try await store.nextPending(after: cursor)!
        dupes += index.candidates(for: item.work).count
        cursor = item.work.id
        try await store.saveCursor(cursor, session: "bench")
    })
}
report("next item (+ duplicates, save cursor)", next)

var decide: [Double] = []
var undo: [Double] = []
for _ in 0..<100 {
    let item = try await store.nextPending(after: cursor)!
    cursor = item.work.id
    let action: ReviewAction = item.work.hasUnreadTitle ? .reject : .verify
    decide.append(try await milliseconds { try await store.review(ReviewDecision(workID: item.work.id!, action: action, expectedRevision: item.work.revision)) })
}
for _ in 0..<20 { undo.append(try await milliseconds { try await store.undoLast() }) }
report("decide (verify or reject, with journal)", decide)
report("undo the last decision", undo)

let worst = max(listing.sorted()[listing.count / 2], next.sorted()[next.count / 2])
print(String(format: "target: listing and next item <= 50 ms each: %@ (worst median %.2f ms)", worst <= 50 ? "met" : "NOT met", worst))

// Real data, when the shared dataset is present: a university library's catalogue (15,228 books) imported
// into a fresh library, then review steps against that library as the duplicate index.
let cataloguePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../shared/datasets/library-dataset/catalogue.csv").standardized.path
if let text = try? String(contentsOfFile: cataloguePath, encoding: .utf8) {
    let real = try LibraryStore(path: dir.appendingPathComponent("real.sqlite").path)
    var importReport: ImportReport?
    let importMs = try await milliseconds { importReport = try await real.importCSV(text) }
    let r = importReport!
    print(String(format: "import real catalogue: %d imported, %d merged as duplicates, %d rows skipped, in %.1f s",
                 r.imported, r.merged, r.skipped.count, importMs / 1000))
    var realIndex = DuplicateIndex()
    let loadMs = try await milliseconds { realIndex = try await real.duplicateIndex() }
    print(String(format: "load duplicate index (%d works): %.0f ms", realIndex.count, loadMs))
    let ids = try await real.file(PhotoFiling(contentHash: "real", originalImagePath: "/r.jpg", imageWidth: 1, imageHeight: 1,
                                              spines: (0..<200).map { i in
        SpineFiling(title: title(i), authors: [names[i % names.count]], boundingBox: BoundingBox(x: 0, y: 0, width: 0.1, height: 1),
                    row: 0, position: i, detectionConfidence: 0.9)
    }))
    var realNext: [Double] = []
    var after: Work.ID? = nil
    for _ in ids {
        realNext.append(try await milliseconds {
            let item = try await real.nextPending(after: after)!
            _ = realIndex.candidates(for: item.work)
            after = item.work.id
        })
    }
    report("next item against the real library", realNext)
} else {
    print("note: \(cataloguePath) is absent; real-catalogue figures skipped")
}
