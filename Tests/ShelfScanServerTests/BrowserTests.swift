import BookModel
import Foundation
import Library
import LibraryCore
import ShelfImage
import ShelfScanTestSupport
import Testing

/// The pages in a real browser (headless Chromium over WebDriver) against the real `shelfscan serve`: the review
/// page's keys decide through the library, a stale decision is refused and said, find shows the book on its
/// photo, and the token page asks once. Every test also reads the browser's console: a script error or a
/// request the CSP blocked fails it.
@Suite(.serialized, .enabled(if: Chromium.isInstalled, "\(Chromium.missing)"),
       .enabled(if: ShelfscanProcess.binary != nil, "needs the built shelfscan binary"))
struct BrowserTests {
    /// `document.getElementById`, for the conditions the tests wait on.
    static let title = "document.getElementById('title').value"
    static let end = "document.getElementById('end').textContent"

    @Test func reviewKeysDecideThroughTheLibrary() async throws {
        // Given a library of five pending books from one photo, served without a token, and a browser on /review
        let scene = try await ShelfScene.make()
        try await Self.inBrowser(scene, width: 1000, height: 670) { server, browser in
            try await browser.open(server.base + "/review")
            try await browser.wait(until: "\(Self.title) === 'Kindred' && document.getElementById('crop').width > 0 && document.getElementById('shelf').naturalWidth > 0")
            #expect(try await browser.run("return document.getElementById('position').textContent") as? String == "5 waiting · book 1")
            try await ShelfScene.screenshot(browser, "review-page.png")

            // v verifies the book shown: the library has one pending book fewer, and the next one is shown
            try await browser.press("v")
            try await browser.wait(until: "\(Self.title) === \(ShelfScene.evilJS) && \(Self.end).startsWith('1 decided')")
            #expect(try await scene.store.pendingCount() == 4)
            #expect(try await scene.store.work(id: scene.ids[0])?.reviewStatus == .verified)

            // s skips: the next book, nothing decided (its shelf picture loaded before it is rejected, which removes it)
            try await browser.press("s")
            try await browser.wait(until: "\(Self.title) === 'Noise' && document.getElementById('shelf').complete")
            #expect(try await scene.store.pendingCount() == 4)

            // r rejects the book shown (not the skipped one); the page goes on past the skipped one
            try await browser.press("r")
            try await browser.wait(until: "\(Self.title) === 'Middlemarch' && \(Self.end).startsWith('2 decided')")
            #expect(try await scene.store.pendingCount() == 3)
            #expect(try await scene.store.work(id: scene.ids[2]) == nil)
            #expect(try await scene.store.work(id: scene.ids[1])?.reviewStatus == .needsReview)

            // u undoes the rejection: the book is back, pending, and shown again
            try await browser.press("u")
            try await browser.wait(until: "\(Self.title) === 'Noise' && \(Self.end).startsWith('1 decided') && \(Self.end).endsWith('4 left')")
            #expect(try await scene.store.pendingCount() == 4)
            #expect(try await scene.store.work(id: scene.ids[2])?.reviewStatus == .needsReview)

            // Enter verifies as v does
            try await browser.press("\u{E007}")
            try await browser.wait(until: "\(Self.title) === 'Middlemarch' && \(Self.end).startsWith('2 decided')")
            #expect(try await scene.store.work(id: scene.ids[2])?.reviewStatus == .verified)
            #expect(try await scene.store.pendingCount() == 3)

            // e edits: the title field takes the typing, Enter saves it through the library's validation
            try await browser.press("e")
            try await browser.wait(until: "document.activeElement === document.getElementById('title')")
            try await browser.press("\u{E010}: A Study of Provincial Life\u{E007}")
            try await browser.wait(until: "\(Self.title) === 'Walden' && \(Self.end).startsWith('3 decided')")
            let edited = try #require(try await scene.store.work(id: scene.ids[3]))
            #expect(edited.title == "Middlemarch: A Study of Provincial Life" && edited.reviewStatus == .userEdited)

            // / goes to the search box with the title shown, for finding it in the library
            try await browser.press("/")
            #expect(try await browser.run("return [document.activeElement.name, document.activeElement.value]") as? [String] == ["q", "Walden"])

            // The journal holds the page's four decisions, as this browser's (a reviewer of its own), the rejection marked undone
            let journal = try await scene.store.journal(limit: 10).filter { $0.session.hasPrefix("http:") }
            #expect(journal.count == 4 && journal.filter(\.undone).map(\.workID) == [scene.ids[2]])
        }
    }

    @Test func aStaleDecisionIsRefusedAndThePageSaysSo() async throws {
        // Given the review page showing Kindred at the revision it loaded (the console may show the 409 that follows)
        let scene = try await ShelfScene.make()
        try await Self.inBrowser(scene, allowing: ["409 (Conflict)"]) { server, browser in
            try await browser.open(server.base + "/review")
            try await browser.wait(until: "\(Self.title) === 'Kindred'")
            let shown = try #require(try await scene.store.work(id: scene.ids[0]))

            // When another reviewer edits it, and then this page verifies it
            _ = try await scene.store.review(ReviewDecision(workID: scene.ids[0], action: .edit(WorkEdit(title: "Kindred: A Novel")),
                                                            expectedRevision: shown.revision, session: "another reviewer"))
            try await browser.press("v")

            // Then the page says it was not saved and why, and goes on to a book that still waits
            let said = try await browser.wait(until: "!document.getElementById('alert').hidden && \(Self.title) === \(ShelfScene.evilJS)",
                                              value: "document.getElementById('alert').textContent")
            let alert = try #require(said as? String)
            #expect(alert.hasPrefix("Not saved: Work \(scene.ids[0])"), "\(alert)")
            #expect((try await browser.run("return \(Self.end)") as? String)?.hasPrefix("0 decided") == true)
            // The other reviewer's edit stands; this page decided nothing
            let kept = try #require(try await scene.store.work(id: scene.ids[0]))
            #expect(kept.title == "Kindred: A Novel" && kept.reviewStatus == .userEdited)
            #expect(try await scene.store.journal(limit: 10).allSatisfy { !$0.session.hasPrefix("http") })
        }
    }

    @Test func findShowsTheBookOnItsPhotoWithItsSpineOutlined() async throws {
        // Given the library served, and a phone-sized browser
        let scene = try await ShelfScene.make()
        try await Self.inBrowser(scene, width: 390, height: 844) { server, browser in
            // When finding a title
            try await browser.open(server.base + "/find?q=kindred")
            try await browser.wait(until: "document.querySelector('article.book img') && document.querySelector('article.book img').complete && document.querySelector('article.book img').naturalWidth > 0")
            try await ShelfScene.screenshot(browser, "find-page.png")

            // Then the book, its place in words, and its photo with the spine outlined (read back from the
            // picture the browser shows: the box's left edge is the outline's colour, its middle the spine's)
            let found = try await browser.run("""
                const book = document.querySelector('article.book');
                const img = book.querySelector('img');
                const canvas = document.createElement('canvas');
                canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
                const context = canvas.getContext('2d');
                context.drawImage(img, 0, 0);
                const pixel = (x, y) => Array.from(context.getImageData(x, y, 1, 1).data.slice(0, 3));
                return { count: document.querySelectorAll('article.book').length, title: book.querySelector('h2').textContent,
                         where: book.querySelector('.where').textContent, width: img.naturalWidth, height: img.naturalHeight,
                         shownWidth: img.getBoundingClientRect().width, pageWidth: document.documentElement.scrollWidth,
                         edge: pixel(arguments[0], arguments[1]), middle: pixel(arguments[0] + 40, arguments[1]) };
                """, [ShelfScene.spines[0].x, ShelfScene.spines[0].y + ShelfScene.spines[0].height / 2]) as? [String: Any]
            let book = try #require(found)
            #expect(book["count"] as? Int == 1 && book["title"] as? String == "Kindred")
            #expect(book["where"] as? String == "photo 1, shelf 1, 1st from the left")
            #expect(book["width"] as? Int == ShelfScene.width && book["height"] as? Int == ShelfScene.height)
            #expect((book["shownWidth"] as? Double ?? 1000) <= 390 && book["pageWidth"] as? Int == 390, "the page fits a phone's width")
            let edge = try #require(book["edge"] as? [Int]), middle = try #require(book["middle"] as? [Int])
            #expect(edge[0] > 200 && edge[1] > 170 && edge[2] < 90, "the outline: \(edge)")
            #expect(middle[0] > 120 && middle[1] < 80 && middle[2] < 80, "the red spine inside it: \(middle)")

            // A title that is markup is shown as text, never as markup
            try await browser.open(server.base + "/find?q=evil")
            let evil = try await browser.wait(until: "document.querySelector('article.book h2')",
                                              value: "[document.querySelector('article.book h2').textContent, document.querySelectorAll('article.book h2 b').length]")
            let shown = try #require(evil as? [Any])
            #expect(shown.first as? String == ShelfScene.books[1].title && shown.last as? Int == 0)
        }
    }

    @Test func theTokenPageAsksOnceAndKeepsTheTokenOutOfURLsAndScripts() async throws {
        // Given a server with a token, and a browser that has never seen it
        let scene = try await ShelfScene.make()
        try await Self.inBrowser(scene, token: "s3cret-token") { server, browser in
            // When it opens a find page, it is asked for the token and shown no book
            try await browser.open(server.base + "/find?q=kindred")
            try await browser.wait(until: "document.getElementById('token')")
            #expect((try await browser.run("return document.body.innerText") as? String)?.contains("Octavia") == false)
            // (the 401 that asked is the only error the console may hold)
            let asked = try await browser.browserLog().filter { $0["level"] as? String == "SEVERE" }
            #expect(asked.allSatisfy { ($0["message"] as? String)?.contains("401 (Unauthorized)") == true }, "\(asked)")

            // And the token typed once opens the page it asked for
            try await browser.type("s3cret-token", into: "#token")
            try await browser.click("form.login button")
            try await browser.wait(until: "location.pathname === '/find' && document.querySelector('article.book h2')")
            let url = try await browser.currentURL()
            #expect(url == server.base + "/find?q=kindred")
            #expect(!url.contains("s3cret"))

            // Then the token lives in an HttpOnly, SameSite=Strict cookie that no page script reads
            #expect(try await browser.run("return document.cookie") as? String == "")
            let cookie = try #require(try await browser.cookies().first { $0["name"] as? String == "shelfscan_session" })
            #expect(cookie["httpOnly"] as? Bool == true && cookie["sameSite"] as? String == "Strict")

            // And another page opens without asking again, its JSON calls carried by the cookie
            try await browser.open(server.base + "/review")
            try await browser.wait(until: "\(Self.title) === 'Kindred'")
            #expect(try await browser.currentURL() == server.base + "/review")
        }
    }

    @Test func mergeTakesALikelyDuplicateOnAPhoneSizedScreen() async throws {
        // Given the first photo's books all in the library, and two of them filed again from a second photo
        let scene = try await ShelfScene.make()
        for id in scene.ids { _ = try await scene.store.review(ReviewDecision(workID: id, action: .verify, session: "cli")) }
        let again = try await scene.fileAgain([0, 2])
        try await Self.inBrowser(scene, width: 390, height: 844) { server, browser in
            // The page shows the second Kindred with the first as a likely duplicate, and fits a phone's width
            try await browser.open(server.base + "/review")
            let listed = try await browser.wait(until: "\(Self.title) === 'Kindred' && !document.getElementById('duplicates').hidden",
                                                value: "document.getElementById('duplicate-list').textContent")
            #expect((listed as? String)?.contains("Kindred — Octavia E. Butler (100% alike, #\(scene.ids[0]))") == true, "\(listed ?? "")")
            let fits = try await browser.run("""
                const buttons = Array.from(document.querySelectorAll('.actions button'));
                return document.documentElement.scrollWidth <= innerWidth && buttons.every((b) => b.getBoundingClientRect().right <= innerWidth);
                """)
            #expect(fits as? Bool == true, "nothing wider than the screen")

            // m merges into the only candidate: the spine joins the book already in the library
            try await browser.press("m")
            try await browser.wait(until: "\(Self.title) === 'Noise' && \(Self.end).startsWith('1 decided')")
            #expect(try await scene.store.work(id: again[0]) == nil)
            #expect(try await scene.store.work(id: scene.ids[0])?.reviewStatus == .verified)
            #expect(try await scene.store.pendingCount() == 1)

            // The candidate's own button does the same
            try await browser.click("#duplicate-list button.merge")
            try await browser.wait(until: "document.getElementById('position').textContent === 'Nothing waits for review.'")
            #expect(try await scene.store.pendingCount() == 0)
            let merges = try await scene.store.journal(limit: 10).filter { $0.session.hasPrefix("http:") }
            #expect(merges.map(\.kind) == ["merge", "merge"] && Set(merges.map(\.workID)) == Set(again))

            // u takes the last merge back: the second Noise waits again, shown
            try await browser.press("u")
            try await browser.wait(until: "\(Self.title) === 'Noise' && \(Self.end).startsWith('1 decided')")
            #expect(try await scene.store.work(id: again[1])?.reviewStatus == .needsReview)
        }
    }

    @Test func bulkVerifyTakesThePhotosBooksAtTheBarAndOneUndoTakesThemBack() async throws {
        let scene = try await ShelfScene.make()
        try await Self.inBrowser(scene) { server, browser in
            try await browser.open(server.base + "/review")
            try await browser.wait(until: "\(Self.title) === 'Kindred' && !document.getElementById('bulk').hidden")

            // b goes to the bar; 85 and Enter verify the three books read at 85% or better (94, 88 and 90%)
            try await browser.press("b")
            try await browser.press("\u{E003}\u{E003}85\u{E007}")
            try await browser.wait(until: "\(Self.title) === \(ShelfScene.evilJS) && \(Self.end).startsWith('3 decided')")
            #expect(try await scene.store.pendingCount() == 2)
            #expect(try await scene.store.reviewStatuses(ids: [scene.ids[0], scene.ids[2], scene.ids[4]]).values.allSatisfy { $0 == .verified })

            // The keys work again at once: u takes the whole bulk decision back, and the end line counts it so
            try await browser.press("u")
            try await browser.wait(until: "\(Self.end).startsWith('0 decided') && \(Self.end).endsWith('5 left')")
            #expect(try await scene.store.pendingCount() == 5)

            // A bar above every reading takes nothing and says so
            try await browser.press("b")
            try await browser.press("\u{E003}\u{E003}\u{E003}100\u{E007}")
            let said = try await browser.wait(until: "!document.getElementById('alert').hidden", value: "document.getElementById('alert').textContent")
            #expect(said as? String == "Nothing on this photo is read at 100% or better.")
            #expect(try await scene.store.pendingCount() == 5)
        }
    }

    @Test func splitAndJoinFromTheReviewPage() async throws {
        let scene = try await ShelfScene.make()
        try await Self.inBrowser(scene) { server, browser in
            try await browser.open(server.base + "/review")
            try await browser.wait(until: "\(Self.title) === 'Kindred' && document.getElementById('crop').width > 0")

            // | shows the cut at the middle, drawn across the spine; → moves it to 55%; Enter cuts there
            try await browser.press("|")
            try await browser.wait(until: "!document.getElementById('split-hint').hidden && document.getElementById('cut').textContent === '50%'")
            // (a standing spine's middle is the turned crop's middle row: the cut is drawn there, in yellow)
            let middle = try await browser.run("""
                const canvas = document.getElementById('crop');
                return Array.from(canvas.getContext('2d').getImageData(canvas.width / 2, canvas.height / 2, 1, 1).data.slice(0, 3));
                """) as? [Int]
            #expect(middle.map { $0[0] > 200 && $0[1] > 180 && $0[2] < 80 } == true, "the cut across the spine: \(middle ?? [])")
            try await browser.press("\u{E014}")
            try await browser.wait(until: "document.getElementById('cut').textContent === '55%'")
            try await browser.press("\u{E007}")
            // Then the first piece is shown, unread, and the queue has one box more
            try await browser.wait(until: "document.getElementById('position').textContent.startsWith('6 waiting') && \(Self.title) === ''")
            #expect(try await scene.store.pendingCount() == 6)
            #expect(await (try scene.store.work(id: scene.ids[0])) == nil)
            let pieces = try await scene.store.pendingWorks(photoContentHash: ShelfScene.contentHash).filter(\.hasUnreadTitle)
            let left = try #require(pieces.compactMap(\.boundingBox).min { $0.x < $1.x })
            #expect(abs(left.width - 0.55 * Double(ShelfScene.spines[0].width) / Double(ShelfScene.width)) < 1e-6)

            // u puts Kindred back; j then joins it with its right neighbour, keeping the surer reading
            try await browser.press("u")
            try await browser.wait(until: "\(Self.title) === 'Kindred' && document.getElementById('position').textContent.startsWith('5 waiting')")
            try await browser.press("j")
            try await browser.wait(until: "\(Self.title) === 'Kindred' && document.getElementById('position').textContent.startsWith('4 waiting')")
            #expect(try await scene.store.pendingCount() == 4)
            #expect(try await scene.store.work(id: scene.ids[0]) == nil)
            #expect(await (try scene.store.work(id: scene.ids[1])) == nil)
            // A split or a join decides no book: the end line still says none
            #expect((try await browser.run("return \(Self.end)") as? String)?.hasPrefix("0 decided · ") == true)

            // u: the two boxes as they were
            try await browser.press("u")
            try await browser.wait(until: "\(Self.title) === 'Kindred' && document.getElementById('position').textContent.startsWith('5 waiting')")
            #expect(try await scene.store.work(id: scene.ids[1])?.reviewStatus == .needsReview)
        }
    }

    /// Serves `scene` (`token` as the server token, "" for none), opens a browser with a `width` x `height` viewport
    /// on it, runs `body`, then checks the console held no error beyond those `allowing` names; the browser and the
    /// server end either way.
    static func inBrowser(_ scene: ShelfScene, token: String = "", width: Int = 1000, height: Int = 800, allowing expected: [String] = [],
                          _ body: (ServerProcess, WebDriver) async throws -> Void) async throws {
        let server = try ServerProcess.start(library: scene.path, environment: ["SHELFSCAN_SERVER_TOKEN": token])
        defer { server.stop() }
        try await WebDriver.with(width: width, height: height) { browser in
            try await body(server, browser)
            try await expectQuietConsole(browser, allowing: expected)
        }
    }

    /// No console error since the last read, except network answers the test caused on purpose (`allowing`).
    static func expectQuietConsole(_ browser: WebDriver, allowing expected: [String] = [],
                                   sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let errors = try await browser.browserLog().filter { entry in
            let message = entry["message"] as? String ?? ""
            return entry["level"] as? String == "SEVERE" && !expected.contains { message.contains($0) }
        }
        #expect(errors.isEmpty, "the browser's console: \(errors)", sourceLocation: sourceLocation)
    }
}
