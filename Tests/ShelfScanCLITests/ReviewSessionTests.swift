import BookModel
import Foundation
import Library
import LibraryCore
import ShelfImage
import Testing
@testable import ShelfScanCLI

/// The session state machine and its runner, fed scripted keys against a real (file) library.
@Suite struct ReviewSessionTests {
    func runner() async throws -> (ReviewRunner, LibraryStore, [Work.ID]) {
        let (_, store, ids) = try await ReviewFixture.make(at: try ReviewFixture.tempDir())
        var r = try await ReviewRunner(store: store, session: ReviewSession(sessionName: "t"))
        await r.start()
        return (r, store, ids)
    }

    func type(_ text: String, into r: inout ReviewRunner) async { for c in text { await r.send(.char(c)) } }

    @Test func verifyEditRejectUndoQuitAndResume() async throws {
        var (r, store, ids) = try await runner()
        #expect(r.session.work?.id == ids[0] && r.session.mode == .deciding && r.session.defaultAction == .verify)
        #expect(r.session.item?.queuePosition == 1 && r.session.item?.pendingCount == 4)

        await r.send(.enter)                                            // Enter = verify
        #expect(try await store.work(id: ids[0])?.reviewStatus == .verified)
        #expect(r.session.work?.id == ids[1] && r.session.defaultAction == .edit && r.session.message?.hasPrefix("Verified") == true)

        await r.send(.char("v"))                                        // cannot verify an unread spine
        #expect(r.session.message?.contains("Press E to edit") == true && r.session.mode == .deciding)

        await r.send(.char("e"))
        await r.send(.enter)                                            // empty title: re-prompt with the rule
        guard case let .editing(form) = r.session.mode else { Issue.record("not editing"); return }
        #expect(form.field == .title && form.error == "title: must not be empty")
        await type("Ancillary Justice", into: &r); await r.send(.enter)
        await type("Ann Leckie", into: &r); await r.send(.enter)
        await type("123", into: &r); await r.send(.enter)                     // bad ISBN: re-prompt
        guard case let .editing(isbnForm) = r.session.mode else { Issue.record("not editing"); return }
        #expect(isbnForm.field == .isbn && isbnForm.error?.contains("10 or 13 digits") == true)
        for _ in 0..<3 { await r.send(.backspace) }
        await r.send(.enter)
        await type("2013", into: &r); await r.send(.enter)
        let edited = try #require(try await store.work(id: ids[1]))
        #expect(edited.reviewStatus == .userEdited && edited.title == "Ancillary Justice" && edited.authors.map(\.name) == ["Ann Leckie"])
        #expect(edited.firstPublicationYear == 2013 && r.session.work?.id == ids[2])

        await r.send(.char("r"))
        #expect(try await store.work(id: ids[2]) == nil && r.session.work?.id == ids[3])
        await r.send(.char("u"))
        #expect(try await store.work(id: ids[2])?.reviewStatus == .needsReview && r.session.work?.id == ids[2])
        #expect(r.session.message?.hasPrefix("Undid: rejected") == true && r.session.decided == 2)

        await r.send(.char("s"))                                        // skip Kindred, now on Noise
        #expect(r.session.work?.id == ids[3])
        await r.send(.char("q"))
        #expect(r.quit && r.session.mode == .finished)

        var again = try await ReviewRunner(store: store, session: ReviewSession(sessionName: "t"))
        await again.start()
        #expect(again.session.work?.id == ids[3], "resumes on the Work the last session stopped at")
        #expect(again.session.item?.queuePosition == 2 && again.session.item?.pendingCount == 2)
        await again.send(.interrupt)
        #expect(again.quit)
    }

    @Test func mergeDefaultsToAStrongDuplicateAndAsksForTheNumberOtherwise() async throws {
        let dir = try ReviewFixture.tempDir()
        let store = try LibraryStore(path: dir.appendingPathComponent("l.sqlite").path)
        for (t, a) in [("Dune", "Frank Herbert"), ("Dune Messiah", "Frank Herbert")] {
            var w = Work(title: t, authors: [a], reviewStatus: .verified)
            w.libraryEntry = UserLibraryEntry(readingStatus: .toRead)
            try await store.add(w)
        }
        let ids = try await store.file(PhotoFiling(contentHash: "m", originalImagePath: "/p.jpg", imageWidth: 10, imageHeight: 10, spines: [
            SpineFiling(title: "DUNE", authors: ["Frank Herbert"], boundingBox: BoundingBox(x: 0, y: 0, width: 0.1, height: 1), row: 0,
                        position: 0, detectionConfidence: 1),
            SpineFiling(title: "Dune Messiahs", authors: ["F. Herbert"], boundingBox: BoundingBox(x: 0.1, y: 0, width: 0.1, height: 1), row: 0,
                        position: 1, detectionConfidence: 1),
        ]))
        var r = try await ReviewRunner(store: store, session: ReviewSession())
        await r.start()
        #expect(r.session.defaultAction == .merge(1) && r.session.candidates.first?.title == "Dune")
        await r.send(.enter)
        #expect(try await store.work(id: ids[0]) == nil && r.session.work?.id == ids[1])
        #expect(r.session.candidates.count >= 1)
        await r.send(.char("m"))
        if r.session.candidates.count > 1 {
            #expect(r.session.mode == .pickingMerge)
            await r.send(.char("9"))
            #expect(r.session.mode == .deciding && r.session.message?.contains("cancelled") == true)
            await r.send(.char("m"))
            await r.send(.char("1"))
        }
        #expect(try await store.pendingCount() == 0 && r.session.mode == .empty)
        await r.send(.char("u"))
        #expect(try await store.pendingCount() == 1 && r.session.work?.id == ids[1])
    }

    @Test func aConflictReloadsTheWorkInsteadOfOverwriting() async throws {
        var (r, store, ids) = try await runner()
        // Another session edits the Work on screen
        try await store.review(ReviewDecision(workID: ids[0], action: .edit(WorkEdit(title: "The Dispossessed: An Ambiguous Utopia"))))
        await r.send(.char("v"))
        #expect(r.session.message?.contains("was changed by another session") == true)
        #expect(try await store.work(id: ids[0])?.reviewStatus == .userEdited, "not overwritten by the stale verify")
        #expect(r.session.work?.id == ids[1], "the decided Work left the queue, so the session moves on")
    }

    @Test func screenFitsEightyByTwentyFour() async throws {
        let (r, _, _) = try await runner()
        let plain = ReviewPictures(mode: .ascii, cellPixels: (10, 20))
        plain.update(r.session.item, columns: 80, rows: 24, flipped: false)
        #expect(!plain.spine.lines.isEmpty && plain.spine.lines.allSatisfy { !$0.contains("\u{1B}") })
        // The 24x120 standing crop is drawn lying, its text running left to right: wider than tall.
        #expect(plain.spine.columns > 2 * plain.spine.rows, "\(plain.spine.columns)x\(plain.spine.rows)")
        let screen = ReviewScreen(columns: 80, rows: 24, style: Style(color: false), spine: plain.spine, context: plain.context,
                                  contextNote: plain.contextNote)
        let lines = screen.lines(r.session)
        #expect(lines.count == 24)
        #expect(lines.allSatisfy { visibleWidth($0) <= 80 })
        #expect(lines[0].contains("1 of 4 pending · photo 1 of 1, shelf 1, spine 1"))
        #expect(lines.contains { $0.contains("The Dispossessed") } && lines.contains { $0.contains("Crop") && $0.contains(".jpg") })
        #expect(lines.last!.contains("[V]erify") && lines.last!.contains("Enter=Verify"))
        #expect(lines.contains { $0.contains("the photo is not at /photos/shelf.jpg") })
        let blocks = ReviewPictures(mode: .halfBlocks, cellPixels: (10, 20))
        blocks.update(r.session.item, columns: 80, rows: 24, flipped: false)
        let colored = ReviewScreen(columns: 80, rows: 24, style: Style(color: true), spine: blocks.spine).lines(r.session)
        #expect(colored.allSatisfy { visibleWidth($0) <= 80 } && colored[1].contains("\u{1B}[38;2;"))
    }
}

@Suite struct CropRendering {
    @Test func theSpineIsTurnedTheWayTheReaderFoundItsTitleRuns() throws {
        // A standing crop, dark at its top and light at its foot, so a half turn shows.
        var crop = RGBImage(width: 24, height: 120, fill: (230, 230, 230))
        for i in 0..<(24 * 40) { crop.pixels[3 * i] = 20; crop.pixels[3 * i + 1] = 20; crop.pixels[3 * i + 2] = 20 }
        let file = try ReviewFixture.tempDir().appendingPathComponent("crop.png")
        try Data(try crop.pngData()).write(to: file)
        func picture(runsUp: Bool?, flipped: Bool) -> [String] {
            var work = Work(title: "Der Zauberberg", authors: ["Thomas Mann"])
            work.id = 1
            work.spine = SpineProvenance(photoContentHash: "h", textRunsUp: runsUp)
            let pictures = ReviewPictures(mode: .halfBlocks, cellPixels: (10, 20))
            pictures.update(ReviewItem(work: work, cropURL: file, queuePosition: 1, pendingCount: 1, photoPosition: 1, photoCount: 1),
                            columns: 40, rows: 24, flipped: flipped)
            return pictures.spine.lines
        }
        let unknown = picture(runsUp: nil, flipped: false)
        #expect(picture(runsUp: false, flipped: false) == unknown)
        // A title running up the spine is shown turned half round without pressing T; T turns it back.
        #expect(picture(runsUp: true, flipped: false) != unknown)
        #expect(picture(runsUp: true, flipped: false) == picture(runsUp: nil, flipped: true))
        #expect(picture(runsUp: true, flipped: true) == unknown)
    }

    @Test func halfBlocksCarryTwoPixelsPerCell() {
        var image = RGBImage(width: 2, height: 2, fill: (0, 0, 0))
        image.pixels[0] = 255   // top-left red
        image.pixels[9] = 255   // bottom-right blue? (x=1,y=1 → index 9 is r)
        let lines = CropRenderer.render(image, columns: 2, rows: 1, mode: .halfBlocks)
        #expect(lines.count == 1 && lines[0].hasPrefix("\u{1B}[38;2;255;0;0m\u{1B}[48;2;0;0;0m▀"))
        #expect(visibleWidth(lines[0]) == 2)
    }

    @Test func kittyAndAsciiModes() {
        #expect(CropRenderer.mode(environment: ["TERM": "xterm-kitty"], colorAllowed: true) == .kitty)
        #expect(CropRenderer.mode(environment: ["TERM": "xterm-256color"], colorAllowed: true) == .halfBlocks)
        #expect(CropRenderer.mode(environment: ["TERM": "xterm-kitty"], colorAllowed: false) == .ascii)
        let image = RGBImage(width: 40, height: 200, fill: (10, 20, 30))
        let kitty = CropRenderer.render(image, columns: 10, rows: 10, mode: .kitty)
        #expect(kitty[0].hasPrefix("\u{1B}_Ga=T,f=24,s=40,v=200,") && kitty[0].contains("m=1;") && kitty.count == 10)
        let ascii = CropRenderer.render(image, columns: 10, rows: 10, mode: .ascii)
        #expect(ascii.allSatisfy { $0 == String(repeating: "@", count: ascii[0].count) })
        #expect(CropRenderer.fit(width: 40, height: 200, columns: 10, rows: 10) == (4, 10))
    }
}

@Suite struct ReviewCommandParsing {
    @Test func parsesEveryReviewSubcommand() throws {
        #expect(try Shelfscan.parseAsRoot(["review", "--library", "/x.sqlite"]) is ReviewSessionCommand)
        let verify = try #require(try Shelfscan.parseAsRoot(["review", "verify", "1", "2", "--status", "currently-reading"]) as? ReviewVerify)
        #expect(verify.ids == [1, 2] && verify.verify.status == .reading)
        let edit = try #require(try Shelfscan.parseAsRoot(["review", "edit", "3", "--title", "T", "--author", "A", "--author", "B", "--isbn", "0441172717"]) as? ReviewEdit)
        #expect(edit.author == ["A", "B"] && edit.isbn == "0441172717")
        #expect(try Shelfscan.parseAsRoot(["review", "merge", "3", "--into", "1"]) is ReviewMerge)
        #expect(try Shelfscan.parseAsRoot(["library", "export", "--format", "csv"]) is LibraryExportCommand)
        #expect(throws: (any Error).self) { try Shelfscan.parseAsRoot(["review", "verify"]) }
        #expect(throws: (any Error).self) { try Shelfscan.parseAsRoot(["library", "export", "--format", "xml"]) }
        #expect(throws: (any Error).self) { try Shelfscan.parseAsRoot(["review", "edit", "1", "--format", "scroll"]) }
        let online = try #require(try Shelfscan.parseAsRoot(["review", "--enrich", "openlibrary,googlebooks"]) as? ReviewSessionCommand)
        #expect(online.enrich == "openlibrary,googlebooks")
        #expect(throws: (any Error).self) { try Shelfscan.parseAsRoot(["review", "--enrich", "worldcat"]) }
    }

    @Test func libraryPathFollowsFlagThenEnvironmentThenXDG() throws {
        var o = try LibraryOptions.parse([])
        #expect(o.resolvedPath(environment: ["SHELFSCAN_LIBRARY": "/a.sqlite", "XDG_DATA_HOME": "/x"]) == "/a.sqlite")
        #expect(o.resolvedPath(environment: ["XDG_DATA_HOME": "/x"]) == "/x/shelfscan/library.sqlite")
        #expect(o.resolvedPath(environment: ["HOME": "/home/u"]) == "/home/u/.local/share/shelfscan/library.sqlite")
        o = try LibraryOptions.parse(["--library", "/b.sqlite"])
        #expect(o.resolvedPath(environment: ["SHELFSCAN_LIBRARY": "/a.sqlite"]) == "/b.sqlite")
    }
}

@Suite struct ReviewCatalogue {
    @Test func catalogueEntriesAreOfferedAndTakingOneIsAnEdit() async throws {
        let dir = try ReviewFixture.tempDir()
        let (_, store, ids) = try await ReviewFixture.make(at: dir)
        let csv = dir.appendingPathComponent("catalog.csv")
        try Data("""
            title,author,isbn
            Kindred,Octavia E. Butler,9780807083697
            Parable of the Sower,Octavia E. Butler,
            Noise: A Flaw in Human Judgment,Daniel Kahneman,
            The Dispossessed,Ursula K. Le Guin,
            """.utf8).write(to: csv)
        var r = try await ReviewRunner(store: store, session: ReviewSession(sessionName: "c"),
                                       catalogLookup: try ReviewSessionCommand.catalogLookup(csvAt: csv.path))
        await r.start()
        await r.send(.char("s")); await r.send(.char("s"))
        #expect(r.session.work?.id == ids[2])
        let first = try #require(r.session.catalog.first)
        #expect(first.title == "Kindred" && first.authors == ["Octavia E. Butler"] && first.score > 0.5)
        await r.send(.char("c"))
        if r.session.mode == .pickingCatalog { await r.send(.char("1")) }
        let taken = try #require(try await store.work(id: ids[2]))
        #expect(taken.reviewStatus == .userEdited && taken.editions.first?.isbn == "9780807083697")
        let lines = ReviewScreen(columns: 80, rows: 24, style: Style(color: false)).lines(r.session)
        #expect(lines.contains { $0.contains("In your catalogue") } && lines.allSatisfy { visibleWidth($0) <= 80 })

        var without = try await ReviewRunner(store: store, session: ReviewSession(sessionName: "n"))
        await without.start()
        await without.send(.char("c"))
        #expect(without.session.message?.contains("--catalog") == true)
    }
}

@Suite struct ReviewEditorForm {
    @Test func yamlFormRoundTripsRiskyText() {
        let fields: [(ReviewSession.EditForm.Field, String)] = [(.title, "Dune: Messiah #2"), (.authors, "Frank Herbert; -Odd \"Name\""),
                                                                 (.isbn, ""), (.year, "1969")]
        let parsed = YAMLForm.parse(YAMLForm.render(fields))
        #expect(parsed[.title] == "Dune: Messiah #2" && parsed[.authors] == "Frank Herbert; -Odd \"Name\"")
        #expect(parsed[.isbn] == "" && parsed[.year] == "1969")
    }

    @Test func editorResultIsValidatedAndABadFieldReopensInline() async throws {
        let (_, store, ids) = try await ReviewFixture.make(at: try ReviewFixture.tempDir())
        var r = try await ReviewRunner(store: store, session: ReviewSession(sessionName: "y"))
        var shown: [String] = []
        nonisolated(unsafe) var form = ""
        r.editor = { text in
            form = text
            return text.replacingOccurrences(of: "title: The Dispossessed", with: "title: The Dispossessed: An Ambiguous Utopia")
                .replacingOccurrences(of: "isbn: ", with: "isbn: 12345")
        }
        await r.start()
        await r.send(.char("e"))
        await r.send(.openEditor)
        shown.append(form)
        #expect(shown[0].contains("authors:\n  - Ursula K. Le Guin"))
        guard case let .editing(reopened) = r.session.mode else { Issue.record("expected the inline form"); return }
        #expect(reopened.field == .isbn && reopened.error?.contains("10 or 13 digits") == true)
        #expect(reopened.values[.title] == "The Dispossessed: An Ambiguous Utopia")
        for _ in 0..<5 { await r.send(.backspace) }
        await r.send(.enter)
        await r.send(.enter)
        let w = try #require(try await store.work(id: ids[0]))
        #expect(w.title == "The Dispossessed: An Ambiguous Utopia" && w.reviewStatus == .userEdited)

        r.editor = { _ in nil }
        await r.send(.char("e"))
        await r.send(.openEditor)
        #expect(r.session.message?.contains("$EDITOR") == true)
    }
}

@Suite struct ReviewFromAPipe {
    @Test func wholeLinesDriveTheSessionWhenInputIsNotATerminal() async throws {
        let (_, store, ids) = try await ReviewFixture.make(at: try ReviewFixture.tempDir())
        var r = try await ReviewRunner(store: store, session: ReviewSession(sessionName: "p"))
        await r.start()
        for line in ["", "e", "", "Kindred", "Octavia E. Butler", "", "1979", "q"] { await r.send(.line(line)) }
        #expect(try await store.work(id: ids[0])?.reviewStatus == .verified, "an empty line is Enter, the default (verify)")
        let edited = try #require(try await store.work(id: ids[1]))
        #expect(edited.title == "Kindred" && edited.firstPublicationYear == 1979 && r.quit)
    }
}
