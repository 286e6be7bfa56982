import BookModel
import Foundation
import ShelfScanTestSupport
@testable import Library
@testable import LibraryCore

/// A few bytes standing for a JPEG: the store treats crops as opaque files.
func fakeJPEG(_ seed: UInt8) -> [UInt8] { [0xFF, 0xD8, 0xFF, 0xE0, seed, seed &+ 1, 0xFF, 0xD9] }

func spine(_ title: String?, _ authors: [String] = [], row: Int = 0, position: Int, isbn: String? = nil) -> SpineFiling {
    let x = 0.05 * Double(position)
    return SpineFiling(title: title, authors: authors, boundingBox: BoundingBox(x: x, y: 0.1, width: 0.04, height: 0.8),
                       polygon: [[x, 0.1], [x + 0.04, 0.1], [x + 0.04, 0.9], [x, 0.9]], row: row, position: position,
                       detectionConfidence: 0.9, readingConfidence: title == nil ? nil : 0.7, rawText: title,
                       reader: "tesseract", model: nil, promptVersion: "v1", readError: title == nil ? "no text" : nil,
                       isbn: isbn, cropJPEG: fakeJPEG(UInt8(position)))
}

func photo(_ hash: String, _ spines: [SpineFiling], path: String = "/photos/shelf.jpg") -> PhotoFiling {
    PhotoFiling(contentHash: hash, originalImagePath: path, imageWidth: 4000, imageHeight: 3000, spines: spines)
}

/// Deletes what a test made under the temporary directory (a `temporaryDirectory()`, or the crops folder an
/// in-memory store makes there); call it from a `defer`, so a failing test cleans up too.
func removeTemporary(_ url: URL) {
    try? FileManager.default.removeItem(at: url)
}

/// A fresh folder under the test run's scratch root; the test removes it with `removeTemporary`, and the
/// root goes at exit whatever happens.
func temporaryDirectory() throws -> URL { try ScratchDirectory.make("library") }

/// A store holding one verified "Dune" and one photo with three pending spines (Dune again, an unread one,
/// and The Dispossessed).
func seededStore() async throws -> (LibraryStore, [Work.ID], Work) {
    let store = try LibraryStore.inMemory()
    let (ids, saved) = try await seed(store)
    return (store, ids, saved)
}

/// Fills `store` as `seededStore()` does, on any engine; returns the three spines' IDs and the verified Dune.
func seed(_ store: any LibraryStoring) async throws -> ([Work.ID], Work) {
    var dune = Work(title: "Dune", authors: ["Frank Herbert"], firstPublicationYear: 1965, reviewStatus: .verified)
    dune.goodreadsWorkIDs = ["234225"]
    dune.editions = [Edition(isbn: "9780441172719", format: .hardcover)]
    dune.libraryEntry = UserLibraryEntry(readingStatus: .toRead)
    let saved = try await store.add(dune)
    let ids = try await store.file(photo(String(repeating: "a", count: 64), [
        spine("DUNE", ["Frank Herbert"], position: 0, isbn: "0441172717"),
        spine(nil, position: 1),
        spine("The Dispossessed", ["Ursula K. Le Guin"], position: 2),
    ]))
    return (ids, saved)
}
