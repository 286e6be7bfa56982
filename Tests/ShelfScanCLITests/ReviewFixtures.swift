import BookModel
import Foundation
import Library
import ShelfImage
import ShelfScanTestSupport

/// A library on disk with four pending spines (real JPEG crops) and one reviewed book.
enum ReviewFixture {
    static let titles: [(String?, [String])] = [("The Dispossessed", ["Ursula K. Le Guin"]), (nil, []),
                                                ("Kindred", ["Octavia E. Butler"]), ("Noise", ["Daniel Kahneman"])]

    static func crop(_ i: Int) throws -> [UInt8] {
        // A 24x120 spine: a coloured body with a light band where a title would be.
        var image = RGBImage(width: 24, height: 120, fill: (UInt8(40 + 50 * i), 60, UInt8(200 - 40 * i)))
        for y in 30..<90 { for x in 6..<18 { let p = (y * 24 + x) * 3; image.pixels[p] = 240; image.pixels[p + 1] = 230; image.pixels[p + 2] = 210 } }
        return try image.jpegData(quality: 85)
    }

    static func make(at dir: URL) throws -> (path: String, store: LibraryStore, ids: [Work.ID]) {
        let path = dir.appendingPathComponent("library.sqlite").path
        let store = try LibraryStore(path: path)
        var dune = Work(title: "Dune", authors: ["Frank Herbert"], reviewStatus: .verified)
        dune.libraryEntry = UserLibraryEntry(readingStatus: .read)
        try store.add(dune)
        let spines = try titles.enumerated().map { i, t in
            SpineFiling(title: t.0, authors: t.1, boundingBox: BoundingBox(x: 0.1 * Double(i), y: 0.1, width: 0.08, height: 0.8),
                        polygon: [], row: 0, position: i, detectionConfidence: 0.9, readingConfidence: t.0 == nil ? nil : 0.8,
                        rawText: t.0, reader: "tesseract", readError: t.0 == nil ? "no text found" : nil, cropJPEG: try crop(i))
        }
        let ids = try store.file(PhotoFiling(contentHash: String(repeating: "c", count: 64), originalImagePath: "/photos/shelf.jpg",
                                             imageWidth: 1000, imageHeight: 800, spines: spines))
        return (path, store, ids)
    }

    static func tempDir() throws -> URL { try ScratchDirectory.make("review") }
}
