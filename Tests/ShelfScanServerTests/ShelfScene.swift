import BookModel
import Foundation
import Library
import LibraryCore
import ShelfImage
import ShelfScanTestSupport

/// A shelf photo drawn in code with five books standing on it, each title printed down its spine, filed into a
/// fresh library with its boxes, readings and crops as a scan would file them (fast: no detector, no reader):
/// the browser shows real pictures, and the tests know every place and every confidence exactly.
struct ShelfScene {
    let path: String
    let ids: [Work.ID]
    let store: LibraryStore
    let photoPath: String
    let filings: [SpineFiling]

    static let width = 900, height = 600
    static let contentHash = String(repeating: "b", count: 64)
    static let books: [(title: String, author: String, spine: String, color: (UInt8, UInt8, UInt8), reading: Double)] = [
        ("Kindred", "Octavia E. Butler", "KINDRED", (170, 35, 35), 0.94),
        ("<b>Evil</b> & \"Co\"", "Mallory", "EVIL AND CO", (40, 90, 170), 0.81),
        ("Noise", "Daniel Kahneman", "NOISE", (225, 190, 60), 0.88),
        ("Middlemarch", "George Eliot", "MIDDLEMARCH", (40, 120, 80), 0.62),
        ("Walden", "Henry David Thoreau", "WALDEN", (230, 228, 215), 0.9),
    ]
    /// Each spine's pixel rectangle, left to right on the one shelf.
    static let spines: [(x: Int, y: Int, width: Int, height: Int)] = books.indices.map { i in
        let h = [380, 340, 400, 360, 320][i]
        return (x: 150 + i * 125, y: 500 - h, width: 90, height: h)
    }
    /// The markup title as a JavaScript string literal, for conditions.
    static let evilJS = "'<b>Evil</b> & \"Co\"'"

    static func make() async throws -> ShelfScene {
        var photo = RGBImage(width: width, height: height, fill: (92, 72, 58))
        photo.fillRect(x: 0, y: 500, width: width, height: 100, color: (150, 108, 70))
        for (book, box) in zip(books, spines) {
            photo.fillRect(x: box.x, y: box.y, width: box.width, height: box.height, color: book.color)
            let ink: (UInt8, UInt8, UInt8) = Int(book.color.0) + Int(book.color.1) + Int(book.color.2) > 380 ? (20, 20, 25) : (245, 240, 230)
            let text = BitmapText.standingSpine(BitmapText.render(book.spine, scale: 4, ink: ink, paper: book.color))
            photo.paste(text, x: box.x + (box.width - text.width) / 2, y: box.y + 20)
        }
        let dir = try ShelfscanProcess.temporaryDirectory("browser")
        let photoPath = dir.appendingPathComponent("shelf.jpg").path
        try Data(try photo.jpegData(quality: 90)).write(to: URL(fileURLWithPath: photoPath))
        let filings = try zip(books, spines).enumerated().map { i, pair in
            let (book, box) = pair
            let x = Double(box.x) / Double(width), y = Double(box.y) / Double(height)
            let w = Double(box.width) / Double(width), h = Double(box.height) / Double(height)
            return SpineFiling(title: book.title, authors: [book.author], boundingBox: BoundingBox(x: x, y: y, width: w, height: h),
                               polygon: [[x, y], [x + w, y], [x + w, y + h], [x, y + h]], row: 0, position: i,
                               detectionConfidence: 0.9, readingConfidence: book.reading, rawText: "\(book.spine) \(book.author.uppercased())",
                               reader: "ppocr", cropJPEG: try photo.cropped(x: box.x, y: box.y, width: box.width, height: box.height).jpegData(quality: 90))
        }
        let path = dir.appendingPathComponent("library.sqlite").path
        let store = try LibraryStore(path: path)
        let ids = try await store.file(PhotoFiling(contentHash: contentHash, originalImagePath: photoPath,
                                                   imageWidth: width, imageHeight: height, spines: filings))
        return ShelfScene(path: path, ids: ids, store: store, photoPath: photoPath, filings: filings)
    }

    /// Files `books` (indices into `books`) again, as from a second photo of the same shelf: new pending Works
    /// the library's duplicate index finds beside the first ones.
    func fileAgain(_ books: [Int]) async throws -> [Work.ID] {
        try await store.file(PhotoFiling(contentHash: String(repeating: "c", count: 64), originalImagePath: photoPath,
                                         imageWidth: Self.width, imageHeight: Self.height, spines: books.map { filings[$0] }))
    }

    /// Saves the viewport as `name` in `SHELFSCAN_WRITE_SCREENSHOTS` when that is set (README's pictures come from here).
    static func screenshot(_ browser: WebDriver, _ name: String) async throws {
        guard let dir = ProcessInfo.processInfo.environment["SHELFSCAN_WRITE_SCREENSHOTS"], !dir.isEmpty else { return }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try await browser.screenshot().write(to: URL(fileURLWithPath: dir).appendingPathComponent(name))
    }
}
