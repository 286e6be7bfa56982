import BookModel
import Foundation
import ShelfImage
import ShelfScanTestSupport
import Testing
@testable import SpineReading

@Suite("Tesseract reader")
struct TesseractReaderTests {
    static let reader: TesseractReader? = try? TesseractReader(concurrency: 2)

    @Test("Reads spine text in both directions and both polarities")
    func readsBothDirections() async throws {
        let reader = try #require(Self.reader, "tesseract-ocr-eng is installed by scripts/setup.sh")
        let dark = BitmapText.render("SILENT SPRING", ink: (240, 235, 220), paper: (30, 40, 90))
        let crops = [
            SpineCrop(id: 1, image: BitmapText.standingSpine(BitmapText.render("THE HOBBIT"), topToBottom: true)),
            SpineCrop(id: 2, image: BitmapText.standingSpine(BitmapText.render("MOBY DICK"), topToBottom: false)),
            SpineCrop(id: 3, image: BitmapText.standingSpine(dark, topToBottom: true)),
            SpineCrop(id: 4, image: BitmapText.render("GREAT EXPECTATIONS")),  // a lying book: wide crop
        ]
        let readings = await reader.read(crops)
        #expect(readings.map(\.spineID) == [1, 2, 3, 4])
        // The product's own criterion (similarity >= 0.8): the 5x7 fixture font makes N and H close.
        let expected = ["THE HOBBIT", "MOBY DICK", "SILENT SPRING", "GREAT EXPECTATIONS"]
        for (reading, title) in zip(readings, expected) {
            #expect(Similarity.ratio(reading.title ?? "", title) >= 0.8, "\(reading.title ?? "-") vs \(title): \(reading.rawText)")
        }
        #expect(readings[0].title == "THE HOBBIT")
        #expect(readings.allSatisfy { $0.confidence > 0.5 && $0.reader == "tesseract" })
        #expect(readings[0].model?.hasPrefix("tesseract-5") == true)
    }

    @Test("A blank crop is unread with a reason, not a made-up title")
    func blankCrop() async throws {
        let reader = try #require(Self.reader)
        let readings = await reader.read([SpineCrop(id: 5, image: RGBImage(width: 60, height: 400, fill: (120, 60, 40)))])
        #expect(readings[0].title == nil)
        #expect(readings[0].error != nil)
    }

    @Test("Missing language data is one clear error naming the package")
    func missingLanguage() {
        #expect {
            _ = try TesseractReader(language: "eng", dataPath: "/nonexistent/tessdata")
        } throws: { error in
            "\(error)".contains("tesseract-ocr-eng") && "\(error)".contains("/nonexistent/tessdata")
        }
        #expect {
            _ = try ReaderFactory.make(ReaderConfiguration(language: "xyz"))
        } throws: { error in
            "\(error)".contains("tesseract-ocr-xyz")
        }
    }

    @Test("Title and author split by size and name pattern")
    func split() {
        func word(_ t: String, _ x: Int, _ h: Int) -> OCRWord {
            OCRWord(text: t, confidence: 90, left: x, top: 0, right: x + 10 * t.count, bottom: h, fromDictionary: true)
        }
        let title = OCRLine(words: [word("Cien", 0, 40), word("años", 50, 40), word("de", 100, 40), word("soledad", 130, 40)], left: 0, top: 0, right: 200, bottom: 40)
        let author = OCRLine(words: [word("Gabriel", 400, 20), word("García", 480, 20), word("Márquez", 550, 20)], left: 400, top: 0, right: 620, bottom: 20)
        let noise = OCRLine(words: [word("843.9", 700, 15)], left: 700, top: 0, right: 750, bottom: 15)
        let s = TitleSplitter.split(TitleSplitter.segments([title, author, noise]))
        #expect(s.title == "Cien años de soledad")
        #expect(s.authors == ["Gabriel García Márquez"])
        #expect(abs(s.confidence - 0.9) < 0.001)
        #expect(TitleSplitter.looksLikeName("J. R. R. Tolkien"))
        #expect(!TitleSplitter.looksLikeName("Silent Spring"))

        // One line, label first, author before the title; and author after the title.
        func line(_ text: String) -> OCRLine {
            var x = 0
            let words = text.split(separator: " ").map { t -> OCRWord in
                defer { x += 12 * t.count + 10 }
                return word(String(t), x, 20)
            }
            return OCRLine(words: words, left: 0, top: 0, right: x, bottom: 20)
        }
        let labelled = TitleSplitter.split(TitleSplitter.segments([line("N Pam Amos Oz El meu Mikhael 291")]))
        #expect(labelled.title == "El meu Mikhael")
        #expect(labelled.authors == ["Amos Oz"])
        let trailing = TitleSplitter.split(TitleSplitter.segments([line("796.42 Aprendre a parlar amb les plantes Marta Orriols")]))
        #expect(trailing.title == "Aprendre a parlar amb les plantes")
        #expect(trailing.authors == ["Marta Orriols"])
        #expect(!TitleSplitter.looksLikeName("The Lord of the Rings"))
    }
}
