import Foundation
import ShelfImage
import ShelfScanTestSupport
import Testing
@testable import ShelfScanCLI

@Suite struct FindCommandTests {
    @Test(.enabled(if: ShelfscanProcess.binary != nil, "needs the built shelfscan binary"))
    func jsonNamesThePhotoAndHighlightOutlinesTheSpine() async throws {
        // Given a library filed from a 1000x800 photo of four spines; Kindred is the third from the left
        let dir = try ReviewFixture.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, _, ids) = try await ReviewFixture.make(at: dir, withPhoto: true)
        let out = dir.appendingPathComponent("where.png").path

        // When a reader asks where Kindred is, as JSON and with a highlight
        let run = try ShelfscanProcess.run(["find", "kindred", "--library", path, "--json", "--highlight", out])

        // Then the JSON names the Work, its photo and its place, in data fields only
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let data = try #require(object["data"] as? [String: Any])
        let books = try #require(data["books"] as? [[String: Any]])
        #expect(books.count == 1)
        #expect(books[0]["workId"] as? Int64 == ids[2] || (books[0]["workId"] as? Int).map(Int64.init) == ids[2])
        #expect(books[0]["reviewStatus"] as? String == "needsReview")
        let place = try #require(books[0]["place"] as? [String: Any])
        #expect(place["photoPath"] as? String == dir.appendingPathComponent("shelf.jpg").path)
        #expect(place["photoNumber"] as? Int == 1 && place["shelf"] as? Int == 1 && place["fromLeft"] as? Int == 3)
        #expect(place["words"] == nil, "no display text in JSON")

        // And the highlight is the photo with a bright outline on the spine's left edge (x = 200) and none inside it
        let image = try ImageDecoder.decode(fileAt: out)
        #expect(image.width == 1000 && image.height == 800)
        func pixel(_ x: Int, _ y: Int) -> (Int, Int, Int) {
            let i = (y * image.width + x) * 3
            return (Int(image.pixels[i]), Int(image.pixels[i + 1]), Int(image.pixels[i + 2]))
        }
        let edge = pixel(200, 400), inside = pixel(240, 400)
        #expect(edge.0 > 200 && edge.1 > 180 && edge.2 < 80, "outline colour at the box edge: \(edge)")
        #expect(!(inside.0 > 200 && inside.1 > 180 && inside.2 < 80), "the spine itself is not painted over: \(inside)")
    }

    @Test(.enabled(if: ShelfscanProcess.binary != nil, "needs the built shelfscan binary"))
    func textSaysWhereTheBookStandsAndBadInputIsOneLine() async throws {
        let dir = try ReviewFixture.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, _, _) = try await ReviewFixture.make(at: dir, withPhoto: false)

        // The text answer gives the place in words; a verified book typed in has none
        let text = try ShelfscanProcess.run(["find", "le", "guin", "--library", path])
        #expect(text.status == 0)
        #expect(text.stdoutLines == ["The Dispossessed — Ursula K. Le Guin  (pending review)",
                                     "  photo 1, shelf 1, 1st from the left: /photos/shelf.jpg"])
        let dune = try ShelfscanProcess.run(["find", "dune", "--library", path])
        #expect(dune.stdoutLines.last == "  not filed from a photo")

        // A photo that has moved, a wrong file type and nothing to find each fail with one line
        let moved = try ShelfscanProcess.run(["find", "kindred", "--library", path, "--highlight", dir.appendingPathComponent("k.jpg").path])
        #expect(moved.status == 1 && moved.stderrLines.count == 1 && moved.stderr.contains("/photos/shelf.jpg"), "\(moved.stderr)")
        let gif = try ShelfscanProcess.run(["find", "kindred", "--library", path, "--highlight", "k.gif"])
        #expect(gif.status == 2 && gif.stderr.contains(".jpg, .jpeg or .png"))
        let none = try ShelfscanProcess.run(["find", "zzzz", "--library", path, "--highlight", dir.appendingPathComponent("z.png").path])
        #expect(none.status == 1 && none.stderrLines == ["error: No match stands on a scanned photo, so there is nothing to highlight."])
        let empty = try ShelfscanProcess.run(["find", "--library", path, " .. "])
        #expect(empty.status == 2 && empty.stderr.contains("Please give a word"))
    }
}
