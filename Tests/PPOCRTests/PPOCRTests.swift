import Foundation
@testable import PPOCR
import ShelfImage
import ShelfScanTestSupport
import Testing

@Suite("PP-OCR detector and recognizer")
struct PPOCRTests {
    @Test("The recognizer reads rendered words, and scores them upside down far lower")
    func recognizes() throws {
        let recognizer = try #require(Engine.recognizer, Engine.missing)
        let words = ["SILENT SPRING", "MOBY DICK", "THE HOBBIT"]
        let images = words.map { BitmapText.render($0, scale: 4) }
        let upright = try recognizer.recognize(images)
        for (text, word) in zip(upright, words) {
            #expect(text.text == word, "read \(text.text)")
            #expect(text.confidence > 0.8)
            // Character positions run left to right across the line.
            #expect(text.characters.map(\.position) == text.characters.map(\.position).sorted())
        }
        let flipped = try recognizer.recognize(images.map { $0.rotated(.half) })
        for (up, down) in zip(upright, flipped) {
            #expect(down.confidence < up.confidence)
        }
    }

    @Test("A dictionary with Windows line ends gives the same classes as one with Unix line ends")
    func dictionaryLineEnds() {
        // PP-OCRv6's dictionary ends its lines in CR LF; read whole, its 18,708 entries were one class.
        let unix = TextRecognizer.alphabet(dictionary: "!\na\nü\n \n")
        let windows = TextRecognizer.alphabet(dictionary: "!\r\na\r\nü\r\n \r\n")
        #expect(unix == ["", "!", "a", "ü", " ", " "])
        #expect(windows == unix)
        #expect(TextRecognizer.alphabet(dictionary: "!\na") == ["", "!", "a", " "])
    }

    @Test("The detector finds each line of a two-line label, in place")
    func detects() throws {
        let detector = try #require(Engine.detector, Engine.missing)
        let top = BitmapText.render("GREAT EXPECTATIONS", scale: 4)
        let bottom = BitmapText.render("DICKENS", scale: 4)
        var page = RGBImage(width: top.width, height: top.height + bottom.height, fill: (235, 225, 200))
        for y in 0..<top.height { for x in 0..<top.width { for c in 0..<3 { page.pixels[3 * (y * page.width + x) + c] = top.pixels[3 * (y * top.width + x) + c] } } }
        for y in 0..<bottom.height { for x in 0..<bottom.width { for c in 0..<3 { page.pixels[3 * ((y + top.height) * page.width + x) + c] = bottom.pixels[3 * (y * bottom.width + x) + c] } } }
        let lines = try detector.detect(page).sorted { $0.rect.center.y < $1.rect.center.y }
        #expect(lines.count == 2)
        guard lines.count == 2 else { return }
        #expect(lines[0].rect.center.y < Double(top.height))
        #expect(lines[1].rect.center.y > Double(top.height))
        // The first line spans the long word, the second the short one.
        #expect(lines[0].rect.length > 2 * lines[1].rect.length)
        #expect(lines.allSatisfy { !$0.rect.isVertical && $0.score > 0.6 })
    }

    @Test("A blank image has no text lines")
    func blank() throws {
        let detector = try #require(Engine.detector, Engine.missing)
        #expect(try detector.detect(RGBImage(width: 400, height: 80, fill: (120, 60, 40))).isEmpty)
        // Too small to hold text: answered without running the network.
        #expect(try detector.detect(RGBImage(width: 3, height: 3)).isEmpty)
    }

    @Test("Minimum-area rectangles of a tilted bar come out tilted, with the long side as the axis")
    func minAreaRect() throws {
        var points: [Point] = []
        let angle = 0.3
        for i in 0..<50 {
            for j in 0..<6 {
                let u = Double(i), v = Double(j)
                points.append(Point(x: 100 + u * cos(angle) - v * sin(angle), y: 50 + u * sin(angle) + v * cos(angle)))
            }
        }
        let box = try #require(RectGeometry.minAreaRect(points))
        #expect(abs(box.length - 49) < 0.5)
        #expect(abs(box.thickness - 5) < 0.5)
        #expect(abs(atan2(box.axis.y, box.axis.x) - angle) < 0.01)
        #expect(!box.isVertical)
        let q = box.quad
        #expect(q.topLeft.x < q.topRight.x)
    }
}
