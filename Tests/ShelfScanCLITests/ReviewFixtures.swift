import BookModel
import Foundation
import Library
import LibraryCore
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

    /// A 1000x800 photo of the four spines where the filing says they stand, so the shelf strip can be drawn.
    static func photo(at url: URL) throws {
        var image = RGBImage(width: 1000, height: 800, fill: (70, 50, 30))
        for i in 0..<titles.count {
            for y in 80..<720 { for x in (100 * i + 4)..<(100 * i + 76) {
                let p = (y * 1000 + x) * 3
                image.pixels[p] = UInt8(40 + 50 * i); image.pixels[p + 1] = 60; image.pixels[p + 2] = UInt8(200 - 40 * i)
            } }
        }
        try Data(try image.jpegData(quality: 85)).write(to: url)
    }

    static func make(at dir: URL, withPhoto: Bool = false) async throws -> (path: String, store: LibraryStore, ids: [Work.ID]) {
        let path = dir.appendingPathComponent("library.sqlite").path
        let store = try LibraryStore(path: path)
        var dune = Work(title: "Dune", authors: ["Frank Herbert"], reviewStatus: .verified)
        dune.libraryEntry = UserLibraryEntry(readingStatus: .read)
        try await store.add(dune)
        let spines = try titles.enumerated().map { i, t in
            SpineFiling(title: t.0, authors: t.1, boundingBox: BoundingBox(x: 0.1 * Double(i), y: 0.1, width: 0.08, height: 0.8),
                        polygon: [], row: 0, position: i, detectionConfidence: 0.9, readingConfidence: t.0 == nil ? nil : 0.8,
                        rawText: t.0, reader: "tesseract", readError: t.0 == nil ? "no text found" : nil, cropJPEG: try crop(i))
        }
        var photoPath = "/photos/shelf.jpg"
        if withPhoto {
            photoPath = dir.appendingPathComponent("shelf.jpg").path
            try photo(at: URL(fileURLWithPath: photoPath))
        }
        let ids = try await store.file(PhotoFiling(contentHash: String(repeating: "c", count: 64), originalImagePath: photoPath,
                                                   imageWidth: 1000, imageHeight: 800, spines: spines))
        return (path, store, ids)
    }

    static func tempDir() throws -> URL { try ScratchDirectory.make("review") }
}
