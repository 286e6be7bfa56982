import BookModel
import Foundation
import PPOCR
import ShelfImage
import ShelfScanTestSupport
import Testing
@testable import SpineReading

@Suite("PP-OCR reader")
struct PPOCRReaderTests {
    static let reader: PPOCRReader? = (try? PPOCRModels.inDirectory(PPOCRModels.defaultDirectory()))
        .flatMap { try? PPOCRReader(models: $0, concurrency: 2) }
    static let missing: Comment = "scripts/setup.sh fetches ONNX Runtime and the PP-OCR models"

    @Test("Reads spines running either way, light on dark too, and lying books")
    func readsBothDirections() async throws {
        let reader = try #require(Self.reader, Self.missing)
        let dark = BitmapText.render("SILENT SPRING", ink: (240, 235, 220), paper: (30, 40, 90))
        let crops = [
            SpineCrop(id: 1, image: BitmapText.standingSpine(BitmapText.render("THE HOBBIT"), topToBottom: true)),
            SpineCrop(id: 2, image: BitmapText.standingSpine(BitmapText.render("MOBY DICK"), topToBottom: false)),
            SpineCrop(id: 3, image: BitmapText.standingSpine(dark, topToBottom: true)),
            SpineCrop(id: 4, image: BitmapText.render("GREAT EXPECTATIONS")),
            SpineCrop(id: 5, image: BitmapText.render("ULYSSES").rotated(.half)),  // a lying book, upside down
        ]
        let readings = await reader.read(crops)
        #expect(readings.map(\.spineID) == [1, 2, 3, 4, 5])
        let expected = ["THE HOBBIT", "MOBY DICK", "SILENT SPRING", "GREAT EXPECTATIONS", "ULYSSES"]
        for (reading, title) in zip(readings, expected) {
            // The product's own criterion (similarity >= 0.8): the blocky 5x7 fixture font makes N look like
            // H and P like F to a recognizer trained on printed fonts.
            #expect(Similarity.ratio(reading.title ?? "", title) >= 0.8, "read \(reading.title ?? "-"): \(reading.rawText) \(reading.error ?? "")")
            #expect(reading.confidence > 0.5)
            #expect(reading.reader == "ppocr")
        }
        #expect(readings[0].model?.hasPrefix("ppocr-v5det-v6rec/onnxruntime-") == true)
        // Which way each title runs is kept, so the review can show the spine the right way up.
        #expect(readings.map(\.textRunsUp) == [false, true, false, false, true])
    }

    @Test("Title and author on two lines of one spine are split, the name as the author")
    func titleAndAuthor() async throws {
        let reader = try #require(Self.reader, Self.missing)
        let spine = Self.stacked([BitmapText.render("THE LONG GOODBYE", scale: 6), BitmapText.render("RAYMOND CHANDLER", scale: 3)])
        let reading = await reader.read([SpineCrop(id: 9, image: BitmapText.standingSpine(spine, topToBottom: false))])[0]
        #expect(Similarity.ratio(reading.title ?? "", "THE LONG GOODBYE") >= 0.8, "\(reading.rawText)")
        #expect(reading.authors.count == 1)
        #expect(Similarity.ratio(reading.authors.first ?? "", "RAYMOND CHANDLER") >= 0.8, "\(reading.rawText)")
    }

    @Test("A spine on which only a name was read keeps the name as the author, the title left unread")
    func nameAlone() async throws {
        let reader = try #require(Self.reader, Self.missing)
        let spine = BitmapText.standingSpine(BitmapText.render("DAVID BALDACCI", scale: 6), topToBottom: true)
        let reading = await reader.read([SpineCrop(id: 12, image: spine)])[0]
        #expect(reading.isRead, "\(reading.error ?? "")")
        #expect(reading.title == nil, "\(reading.rawText)")
        #expect(reading.authors.count == 1)
        #expect(Similarity.ratio(reading.authors.first ?? "", "DAVID BALDACCI") >= 0.8, "\(reading.rawText)")
    }

    @Test("A name printed across a standing spine's top, the title along it, is the author")
    func nameAcrossTheTop() async throws {
        let reader = try #require(Self.reader, Self.missing)
        let along = BitmapText.standingSpine(BitmapText.render("THE HOBBIT", scale: 8), topToBottom: true)
        let spine = Self.stacked([BitmapText.render("TOLKIEN", scale: 2), along])
        let reading = await reader.read([SpineCrop(id: 11, image: spine)])[0]
        #expect(Similarity.ratio(reading.title ?? "", "THE HOBBIT") >= 0.8, "\(reading.rawText)")
        #expect(reading.authors.count == 1)
        #expect(Similarity.ratio(reading.authors.first ?? "", "TOLKIEN") >= 0.8, "\(reading.rawText)")
        // What was read across comes first in the raw text, as it stands first on the spine.
        #expect(reading.rawText.split(separator: "\n").count == 2)
    }

    @Test("With no line drawn across the top, bands of it read straight give the name")
    func nameInTopBands() throws {
        let reader = try #require(Self.reader, Self.missing)
        let along = BitmapText.standingSpine(BitmapText.render("THE HOBBIT", scale: 8), topToBottom: true)
        let spine = Self.stacked([BitmapText.render("TOLKIEN", scale: 2), along])
        let name = try PPOCRSpine.nameInBands(spine, along: "THE HOBBIT", recognizer: reader.recognizer)
        #expect(name.map { Similarity.ratio($0, "TOLKIEN") >= 0.8 } == true, "\(name ?? "-")")
        // The title's own letters in the top bands are no name: they were read along the spine already.
        #expect(try PPOCRSpine.nameInBands(along, along: "THE HOBBIT", recognizer: reader.recognizer) == nil)
    }

    @Test("Top bands: a fifth of the spine at most, each 0.3 of its width high, 0.1 of it apart")
    func topBandsGeometry() {
        let bands = PPOCRSpine.topBands(width: 40, height: 600)
        #expect(bands.first?.y == 0 && bands.allSatisfy { $0.height == 12 })
        #expect(bands.count == 28 && bands.last.map { $0.y + $0.height } == 120)
        // A spine too short for one band in its top fifth gets none.
        #expect(PPOCRSpine.topBands(width: 40, height: 30).isEmpty)
    }

    @Test("Of the bands' readings, the surest that is a name wins; a sure number or logo does not")
    func surestBandName() {
        #expect(PPOCRSpine.surestName([("1", 0.98), ("SCHOLASTIC", 0.97), ("CESARE", 0.86), ("SNICKT", 0.6)],
                                      along: "CLOWN IN A CORNFIELD") == "CESARE")
        #expect(PPOCRSpine.surestName([("CESARE", 0.8)], along: "CLOWN IN A CORNFIELD") == nil)
        #expect(PPOCRSpine.surestName([("CLOWN", 0.99)], along: "CLOWN IN A CORNFIELD") == nil)
        #expect(PPOCRSpine.surestName([("MILLER", 0.99), ("MILER", 0.9)], along: "REDEMPTION") == "MILLER")
    }

    @Test("Only what looks like a name, read nowhere else on the spine, is taken from across its top")
    func nameAcrossChecks() {
        #expect(PPOCRSpine.name(across: ["Paolini"], along: "ERAGON") == "Paolini")
        #expect(PPOCRSpine.name(across: ["HOLLY", "BLACK"], along: "THE COLDEST GIRL IN COLDTOWN") == "HOLLY BLACK")
        // A publisher, a series or genre word, digits, lower case, or four words or more are no name.
        #expect(PPOCRSpine.name(across: ["SCHOLASTIC"], along: "ECHO") == nil)
        #expect(PPOCRSpine.name(across: ["ROMAN"], along: "DAS SCHATTENHAUS") == nil)
        #expect(PPOCRSpine.name(across: ["BAND 3"], along: "DAS SCHATTENHAUS") == nil)
        #expect(PPOCRSpine.name(across: ["dtv"], along: "FROSCH ODER TRAUMPRINZ") == nil)
        #expect(PPOCRSpine.name(across: ["THE", "ART OF WAR"], along: "SUN TZU") == nil)
        // A wide spine's title rows, read along it too, are not taken for a name.
        #expect(PPOCRSpine.name(across: ["ELA YELDEPORTE"], along: "79()010 O PAIDOTRIBO\nFÍSICA Y EL DEPORTE") == nil)
    }

    @Test("A thick spine printed across, in short rows under its head, is read across")
    func printedAcross() async throws {
        let reader = try #require(Self.reader, Self.missing)
        // The rows stand upright at the head of a tall crop, nothing runs along it: read along, nothing is found.
        let rows = Self.stacked([BitmapText.render("SILKE REDOLFI", scale: 3), BitmapText.render("FRAUEN", scale: 5),
                                 BitmapText.render("BAUEN STAAT", scale: 5)])
        let spine = Self.stacked([rows], height: 5 * rows.width)
        let reading = await reader.read([SpineCrop(id: 10, image: spine)])[0]
        #expect(Similarity.ratio(reading.title ?? "", "FRAUEN BAUEN STAAT") >= 0.8, "\(reading.rawText)")
        #expect(reading.authors.contains { Similarity.ratio($0, "SILKE REDOLFI") >= 0.8 }, "\(reading.rawText)")
        #expect(reading.textRunsUp == nil, "rows across the spine say nothing of which way text runs along it")
    }

    @Test("A box whose long side runs across the spine is read across, however near square")
    func boxesAcrossTheSpine() {
        // In the reading frame (the spine's length runs left to right): "EMILY / TESH" in two short rows across
        // a real spine's foot came as one box 208 px across the spine and 175 px along it.
        func rect(along: Double, across: Double) -> RotatedRect {
            let vertical = across > along
            return RotatedRect(center: Point(x: 500, y: 100), axis: vertical ? Point(x: 0, y: 1) : Point(x: 1, y: 0),
                               halfLength: max(along, across) / 2, halfThickness: min(along, across) / 2)
        }
        #expect(PPOCRSpine.runsAcross(rect(along: 175, across: 208)))
        #expect(PPOCRSpine.runsAcross(rect(along: 40, across: 160)))
        #expect(!PPOCRSpine.runsAcross(rect(along: 959, across: 79)))
        #expect(!PPOCRSpine.runsAcross(rect(along: 110, across: 100)))
    }

    @Test("Small words stacked between a title's large ones are read into it; other small print there is not")
    func smallWordsBetween() throws {
        let reader = try #require(Self.reader, Self.missing)
        // Set close, as printed, and seen as a phone sees it (a third of the drawn size, the strokes soft).
        func word(_ text: String, _ scale: Int) -> RGBImage {
            let image = BitmapText.render(text, scale: scale)
            return image.cropped(x: 2 * scale, y: 2 * scale, width: image.width - 4 * scale, height: image.height - 4 * scale)
        }
        func photographed(_ image: RGBImage) -> RGBImage { image.resized(width: image.width / 3, height: image.height / 3) }
        func title(between small: [String]) -> RGBImage {
            photographed(Self.beside([word("YEAR", 9), Self.stacked(small.map { word($0, 3) }), word("REAPER", 9)]))
        }
        // Each is the one line the detector drew over the whole title, as on the photos, where the recognizer
        // alone reads "YEARREAPER".
        let line = title(between: ["OF", "THE"])
        let read = try reader.recognizer.recognize([line])[0]
        let filled = try PPOCRSpine.fillGaps(read, line: line, detector: reader.detector, recognizer: reader.recognizer,
                                             options: reader.options)
        #expect(read.text.filter(\.isLetter) == "YEARREAPER")
        #expect(filled.text.split(separator: " ").joined(separator: " ") == "YEAR OF THE REAPER", "read \(read.text)")
        // Other small print there (a sticker's word, a logo's letters) is left out.
        let other = title(between: ["BOX", "WX"])
        let otherRead = try reader.recognizer.recognize([other])[0]
        let otherFilled = try PPOCRSpine.fillGaps(otherRead, line: other, detector: reader.detector,
                                                  recognizer: reader.recognizer, options: reader.options)
        #expect(otherFilled == otherRead, "read \(otherRead.text)")
        #expect(otherRead.text.filter(\.isLetter) == "YEARREAPER")
    }

    @Test("What a gap holds goes in only as function words, run together or not")
    func gapWordsAreFunctionWords() {
        #expect(PPOCRSpine.functionWords("of") == ["of"])
        #expect(PPOCRSpine.functionWords("INTHE") == ["IN", "THE"])
        #expect(PPOCRSpine.functionWords("ofthe") == ["of", "the"])
        #expect(PPOCRSpine.functionWords("&") == ["&"])
        // A letter (a sticker's, a stroke's), a word of the title, a logo's letters: left out.
        #expect(PPOCRSpine.functionWords("o") == nil)
        #expect(PPOCRSpine.functionWords("HORSE") == nil)
        #expect(PPOCRSpine.functionWords("OPUN") == nil)
        #expect(PPOCRSpine.functionWords("1") == nil)
    }

    /// Images side by side, centred up and down on the paper colour.
    static func beside(_ images: [RGBImage]) -> RGBImage {
        let height = images.map(\.height).max() ?? 1
        var canvas = RGBImage(width: max(1, images.reduce(0) { $0 + $1.width }), height: height, fill: (235, 225, 200))
        var x0 = 0
        for image in images {
            let y0 = (height - image.height) / 2
            for y in 0..<image.height {
                for x in 0..<image.width {
                    for c in 0..<3 { canvas.pixels[3 * ((y + y0) * canvas.width + x + x0) + c] = image.pixels[3 * (y * image.width + x) + c] }
                }
            }
            x0 += image.width
        }
        return canvas
    }

    /// Images one under the other, left-aligned on the paper colour, on a canvas at least `height` tall.
    static func stacked(_ images: [RGBImage], height: Int = 0) -> RGBImage {
        var canvas = RGBImage(width: images.map(\.width).max() ?? 1, height: max(height, images.reduce(0) { $0 + $1.height }),
                              fill: (235, 225, 200))
        var y0 = 0
        for image in images {
            for y in 0..<image.height {
                for x in 0..<image.width {
                    for c in 0..<3 { canvas.pixels[3 * ((y + y0) * canvas.width + x) + c] = image.pixels[3 * (y * image.width + x) + c] }
                }
            }
            y0 += image.height
        }
        return canvas
    }

    @Test("A crop without text is unread, with the reason")
    func blank() async throws {
        let reader = try #require(Self.reader, Self.missing)
        let readings = await reader.read([
            SpineCrop(id: 1, image: RGBImage(width: 60, height: 400, fill: (120, 60, 40))),
            SpineCrop(id: 2, image: RGBImage(width: 3, height: 3)),
        ])
        for reading in readings {
            #expect(reading.title == nil)
            #expect(reading.error == "no text found")
            #expect(!reading.isRead)
        }
    }

    @Test("Missing runtime or model files are one clear error naming the set-up command")
    func missingFiles() throws {
        let scratch = try ScratchDirectory.make("ppocr-missing")
        #expect {
            _ = try ReaderFactory.make(ReaderConfiguration(kind: .ppocr, modelsDirectory: scratch))
        } throws: { error in
            let text = "\(error)"
            return text.contains(scratch.path) && text.contains("scripts/setup.sh") && !text.contains("\n")
        }
        // Runtime present, a model missing: the message names the model file.
        let models = try #require(try? PPOCRModels.inDirectory(PPOCRModels.defaultDirectory()), Self.missing)
        var broken = models
        broken.recognizer = scratch.appendingPathComponent("rec.onnx").path
        #expect {
            _ = try PPOCRReader(models: broken)
        } throws: { error in
            "\(error)".contains(broken.recognizer)
        }
    }
}
