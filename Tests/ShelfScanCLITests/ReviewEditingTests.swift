import Foundation
import BookModel
import Library
import LibraryCore
import ShelfImage
import Testing
@testable import ShelfScanCLI

/// The field editor and the keys as terminals send them.
@Suite struct LineEditing {
    func typed(_ start: String, _ keys: [Key]) -> LineEditor {
        var e = LineEditor(start)
        for k in keys { e.handle(k) }
        return e
    }

    @Test func ctrlUClearsTheMisreadTitleInsteadOfAppending() {
        let e = typed("Kurt Goetz Ergoetzliche Mu", [.ctrl("u")] + "Ergötzliche Musik".map(Key.char))
        #expect(e.text == "Ergötzliche Musik")
    }

    @Test func readlineMovesAndKills() {
        // Ctrl-A, Alt-F past "The", Ctrl-K kills the rest, Ctrl-Y yanks it back at the end.
        #expect(typed("The Left Hand", [.ctrl("a"), .alt("f"), .ctrl("k")]).text == "The")
        #expect(typed("The Left Hand", [.ctrl("a"), .alt("f"), .ctrl("k"), .ctrl("e"), .ctrl("y")]).text == "The Left Hand")
        #expect(typed("The Left Hand", [.ctrl("w")]).text == "The Left ")
        #expect(typed("The Left-Hand", [.alt("\u{7F}")]).text == "The Left-")
        #expect(typed("The Left Hand", [.alt("b"), .alt("b"), .alt("d")]).text == "The  Hand")
        #expect(typed("abc", [.home, .delete, .end, .backspace]).text == "b")
        #expect(typed("abc", [.left, .left, .char("X"), .right, .ctrl("d")]).text == "aXb")
        #expect(typed("misread", [.home, .ctrl("x"), .char("N")]).text == "N")
        #expect(typed("ab", [.ctrl("t")]).text == "ba")
    }

    @Test func editsByGraphemeIncludingWideAndCombiningLetters() {
        // "é" as e + U+0301 is one grapheme: one Backspace removes it whole.
        let decomposed = typed("Café", [.backspace]).text
        #expect(decomposed == "Caf")
        var e = LineEditor("Cafe")
        e.handle(.char("\u{301}"))               // a combining accent typed after the e joins it
        #expect(e.text == "Café" && e.characters.count == 4)
        e.handle(.left); e.handle(.char("X"))
        #expect(e.text == "CafXé")
        let japanese = typed("ノルウェイの森", [.left, .backspace])
        #expect(japanese.text == "ノルウェイ森" && japanese.cursor == 5)
        #expect(CellWidth.of("ノルウェイの森") == 14 && CellWidth.of("Café") == 4 && CellWidth.of("e\u{301}") == 1)
        // Rendering keeps the cursor on screen and within the width, counting columns.
        let long = LineEditor(String(repeating: "森", count: 40))
        let shown = long.render(width: 20, style: Style(color: true))
        #expect(visibleWidth(shown) <= 20 && shown.hasPrefix("…"))
    }

    @Test func keysDecodeFromTerminalBytes() {
        func keys(_ bytes: [UInt8]) -> [Key] {
            var i = 0, out: [Key] = []
            let next: () -> UInt8? = { guard i < bytes.count else { return nil }; defer { i += 1 }; return bytes[i] }
            while let b = next() { if let k = KeyDecoder.decode(b, next: next) { out.append(k) } }
            return out
        }
        #expect(keys([0x15, 0x0B, 0x17, 0x01, 0x05]) == [.ctrl("u"), .ctrl("k"), .ctrl("w"), .ctrl("a"), .ctrl("e")])
        #expect(keys(Array("\u{1B}b\u{1B}f".utf8)) == [.alt("b"), .alt("f")])
        #expect(keys(Array("\u{1B}[D\u{1B}[C\u{1B}OH\u{1B}OF\u{1B}[1~\u{1B}[4~\u{1B}[3~".utf8)) == [.left, .right, .home, .end, .home, .end, .delete])
        #expect(keys(Array("\u{1B}[1;5D\u{1B}[H\u{1B}[F\u{1B}[A".utf8)) == [.ctrlLeft, .home, .end, .up])
        #expect(keys(Array("é森".utf8)) == [.char("é"), .char("森")])
        #expect(keys([0x1B]) == [.escape] && keys([0x03]) == [.interrupt] && keys([0x09, 0x7F, 0x0F]) == [.tab, .backspace, .openEditor])
    }

    @Test func terminalRepliesRevealSixel() {
        #expect(Terminal.repliesShowSixel("\u{1B}[?2;0;1000;1000S\u{1B}[?62;22c"))
        #expect(Terminal.repliesShowSixel("\u{1B}[?63;1;2;4;6;9;15;22c"))
        #expect(!Terminal.repliesShowSixel("\u{1B}[?1;2c"))
        #expect(!Terminal.repliesShowSixel("\u{1B}[?2;3;0S\u{1B}[?65;1;9c"))
    }
}

/// The sixel encoder checked by decoding its output back to pixels.
@Suite struct SixelRoundTrip {
    /// A sixel decoder for what the encoder emits (and what any VT340-style sender emits): raster
    /// attributes, colour registers in RGB percent, `#n` selects, `!n` repeats, `$` and `-`.
    static func decode(_ s: String) throws -> RGBImage {
        let bytes = Array(s.utf8)
        guard bytes.starts(with: Array("\u{1B}P".utf8)), let q = bytes.firstIndex(of: UInt8(ascii: "q")),
              bytes.suffix(2) == Array("\u{1B}\\".utf8) else { throw DecodeError("not a DCS sixel string") }
        var i = q + 1
        func number() -> Int { var n = 0; while i < bytes.count, (48...57).contains(bytes[i]) { n = n * 10 + Int(bytes[i] - 48); i += 1 }; return n }
        var width = 0, height = 0
        if bytes[i] == UInt8(ascii: "\"") {
            i += 1; _ = number(); i += 1; _ = number(); i += 1; width = number(); i += 1; height = number()
        }
        var image = RGBImage(width: width, height: height, fill: (1, 2, 3))
        var palette: [Int: (UInt8, UInt8, UInt8)] = [:]
        var color = 0, x = 0, band = 0
        func paint(_ bits: UInt8, _ count: Int) {
            for _ in 0..<count {
                for r in 0..<6 where bits & (1 << r) != 0 {
                    let y = band + r
                    guard x < width, y < height, let c = palette[color] else { continue }
                    let p = (y * width + x) * 3
                    image.pixels[p] = c.0; image.pixels[p + 1] = c.1; image.pixels[p + 2] = c.2
                }
                x += 1
            }
        }
        while i < bytes.count - 2 {
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "#"):
                i += 1; color = number()
                if bytes[i] == UInt8(ascii: ";") {
                    i += 1; _ = number(); i += 1; let r = number(); i += 1; let g = number(); i += 1; let bl = number()
                    func to255(_ p: Int) -> UInt8 { UInt8((p * 255 + 50) / 100) }
                    palette[color] = (to255(r), to255(g), to255(bl))
                }
            case UInt8(ascii: "!"):
                i += 1; let n = number(); paint(bytes[i] - 63, n); i += 1
            case UInt8(ascii: "$"): x = 0; i += 1
            case UInt8(ascii: "-"): x = 0; band += 6; i += 1
            case 63...126: paint(b - 63, 1); i += 1
            default: throw DecodeError("unexpected byte \(b) at \(i)")
            }
        }
        return image
    }

    struct DecodeError: Error { var message: String; init(_ m: String) { message = m } }

    @Test func everyPixelComesBackAsItsPaletteColour() throws {
        // 37x13: bands of 6, 6 and 1 rows, a gradient and hard edges, so runs, repeats and the last short band all occur.
        var image = RGBImage(width: 37, height: 13, fill: (0, 0, 0))
        for y in 0..<13 { for x in 0..<37 {
            let p = (y * 37 + x) * 3
            image.pixels[p] = UInt8(x * 7); image.pixels[p + 1] = UInt8(y * 19); image.pixels[p + 2] = x < 10 ? 250 : 30
        } }
        let decoded = try Self.decode(SixelEncoder.encode(image))
        #expect(decoded.width == 37 && decoded.height == 13)
        var mismatches = 0
        for i in 0..<(37 * 13) {
            let want = SixelEncoder.color(SixelEncoder.index(image.pixels[3 * i], image.pixels[3 * i + 1], image.pixels[3 * i + 2]))
            if (decoded.pixels[3 * i], decoded.pixels[3 * i + 1], decoded.pixels[3 * i + 2]) != want { mismatches += 1 }
            // The cube is within half a level (26) of the source on every channel.
            for k in 0..<3 { #expect(abs(Int(decoded.pixels[3 * i + k]) - Int(image.pixels[3 * i + k])) <= 26) }
        }
        #expect(mismatches == 0)
    }

    @Test func aPictureUsesTheProtocolAsked() throws {
        let spine = RGBImage(width: 300, height: 40, fill: (200, 40, 40))
        let sixel = CropRenderer.picture(spine, columns: 80, rows: 4, mode: .sixel, cellPixels: (8, 16))
        #expect(sixel.overlay?.hasPrefix("\u{1B}P0;1;0q\"1;1;") == true && sixel.lines.count == sixel.rows)
        let back = try Self.decode(sixel.overlay!)
        #expect(back.width == sixel.columns * 8 && back.height == sixel.rows * 16 && back.width > back.height)
        let iterm = CropRenderer.picture(spine, columns: 80, rows: 4, mode: .iterm)
        #expect(iterm.overlay?.hasPrefix("\u{1B}]1337;File=inline=1;") == true && iterm.overlay?.hasSuffix("\u{07}") == true)
        #expect(visibleWidth(iterm.overlay!) == 0 && visibleWidth(sixel.overlay!) == 0)
        #expect(CropRenderer.mode(environment: ["TERM": "foot"], colorAllowed: true) == .sixel)
        #expect(CropRenderer.mode(environment: ["TERM_PROGRAM": "iTerm.app"], colorAllowed: true) == .iterm)
    }
}

/// The author/title split offered when the reader put both in the title.
@Suite struct AuthorTitleSplitOffer {
    @Test func tabCyclesThroughTheSplitsAndBack() async throws {
        let dir = try ReviewFixture.tempDir()
        let store = try LibraryStore(path: dir.appendingPathComponent("l.sqlite").path)
        let ids = try await store.file(PhotoFiling(contentHash: "k", originalImagePath: "/p.jpg", imageWidth: 10, imageHeight: 10, spines: [
            SpineFiling(title: "Kurt Goetz Ergoetzliche Musik", boundingBox: BoundingBox(x: 0, y: 0, width: 0.1, height: 1), row: 0,
                        position: 0, detectionConfidence: 1, readingConfidence: 0.9),
        ]))
        var r = try await ReviewRunner(store: store, session: ReviewSession())
        await r.start()
        await r.send(.char("e"))
        guard case let .editing(form) = r.session.mode else { Issue.record("not editing"); return }
        let offers = r.session.splitOffers(form)
        #expect(offers.first?.author == "Kurt Goetz" && offers.first?.title == "Ergoetzliche Musik")
        await r.send(.tab)
        guard case let .editing(split) = r.session.mode else { Issue.record("not editing"); return }
        #expect(split.buffer == "Ergoetzliche Musik" && split.values[.authors] == "Kurt Goetz")
        // Tab again: the next reading of the line, and after the last, the line as read
        for _ in offers.indices { await r.send(.tab) }
        guard case let .editing(back) = r.session.mode else { Issue.record("not editing"); return }
        #expect(back.buffer == "Kurt Goetz Ergoetzliche Musik" && back.values[.authors] == nil)
        await r.send(.tab)
        await r.send(.enter); await r.send(.enter); await r.send(.enter); await r.send(.enter)
        let saved = try #require(try await store.work(id: ids[0]))
        #expect(saved.title == "Ergoetzliche Musik" && saved.authors.map(\.name) == ["Kurt Goetz"] && saved.reviewStatus == .userEdited)
    }
}

@Suite struct Frames {
    @Test func anUnchangedImageIsNotSentAgainAndItsRowsAreLeftAlone() {
        var writer = FrameWriter()
        let image = ReviewScreen.Overlay(row: 1, column: 0, rows: 2, payload: "\u{1B}Pq#0!9~\u{1B}\\")
        let lines = ["header", "", "", "Title    Dune"]
        let first = writer.frame(lines: lines, overlays: [image], columns: 80, rows: 4)
        #expect(first.hasPrefix("\u{1B}[H\u{1B}[2J") && first.contains(image.payload))
        let typing = writer.frame(lines: ["header", "", "", "Title    Dune M"], overlays: [image], columns: 80, rows: 4)
        #expect(!typing.contains(image.payload) && !typing.contains("\u{1B}[2J"))
        #expect(!typing.contains("\u{1B}[2;1H") && !typing.contains("\u{1B}[3;1H") && typing.contains("\u{1B}[4;1HTitle    Dune M\u{1B}[K"))
        let resized = writer.frame(lines: lines, overlays: [image], columns: 100, rows: 4)
        #expect(resized.contains("\u{1B}[2J") && resized.contains(image.payload))
    }
}
