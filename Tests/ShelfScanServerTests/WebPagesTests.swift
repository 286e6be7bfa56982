import AsyncHTTPClient
import BookModel
import Foundation
import Library
import LibraryCore
import NIOCore
import ShelfImage
import ShelfScanServer
import ShelfScanTestSupport
import Testing

/// The browser pages over a real server: the token asked once and kept in a cookie, the find page escaped
/// and pointing at the outlined photo, and the cookie standing for the token on the review routes.
@Suite(.serialized)
struct WebPagesTests {
    /// A library filed from a 900x600 photo of three spines; the second one's title is markup.
    static func library() async throws -> (path: String, ids: [Work.ID], photo: String) {
        let dir = try ShelfscanProcess.temporaryDirectory("pages")
        let photo = dir.appendingPathComponent("shelf.jpg").path
        try Data(try RGBImage(width: 900, height: 600, fill: (90, 60, 40)).jpegData(quality: 80)).write(to: URL(fileURLWithPath: photo))
        let store = try LibraryStore(path: dir.appendingPathComponent("library.sqlite").path)
        let titles = [("Kindred", "Octavia E. Butler"), ("<b>Evil</b> & \"Co\"", "Mallory"), ("Noise", "Daniel Kahneman")]
        let spines = titles.enumerated().map { i, t in
            let x = 0.1 + 0.2 * Double(i)
            return SpineFiling(title: t.0, authors: [t.1], boundingBox: BoundingBox(x: x, y: 0.2, width: 0.1, height: 0.5),
                               polygon: [[x, 0.2], [x + 0.1, 0.2], [x + 0.1, 0.7], [x, 0.7]], row: 0, position: i,
                               detectionConfidence: 0.9, readingConfidence: 0.8, rawText: t.0, reader: "tesseract",
                               cropJPEG: try! RGBImage(width: 20, height: 100).jpegData())
        }
        let ids = try await store.file(PhotoFiling(contentHash: String(repeating: "d", count: 64), originalImagePath: photo,
                                                   imageWidth: 900, imageHeight: 600, spines: spines))
        return (dir.appendingPathComponent("library.sqlite").path, ids, photo)
    }

    @Test func theTokenIsAskedOnceAndKeptInAStrictHttpOnlyCookie() async throws {
        let (path, ids, _) = try await Self.library()
        let server = try ServerProcess.start(library: path, environment: ["SHELFSCAN_SERVER_TOKEN": "s3cret-token"])
        let client = Client(server, serverToken: false)  // a browser: no Authorization header
        defer { Task { try? await client.shutdown() }; server.stop() }

        // Without the token the find page is the token form, and shows no book
        let asked = try await client.get("/find?q=kindred")
        #expect(asked.status == 401 && asked.text.contains("name=\"token\"") && !asked.text.contains("Octavia"))
        #expect(asked.text.contains("value=\"/find?q=kindred\""))
        // The style sheet is served without it; pictures and JSON are refused
        let css = try await client.get("/pages/assets/pages.css")
        #expect(css.status == 200 && css.header("Content-Type")?.hasPrefix("text/css") == true)
        #expect(try await client.get("/pages/works/\(ids[0])/photo.jpg").status == 401)

        // A wrong token is refused on the form; the right one sets the cookie and goes back to the page
        let wrong = try await Self.postForm(server, "token=nope&next=%2Ffind%3Fq%3Dkindred")
        #expect(wrong.status == 401 && wrong.text.contains("not this server"))
        let login = try await Self.postForm(server, "token=s3cret-token&next=%2Ffind%3Fq%3Dkindred")
        #expect(login.status == 303 && login.header("Location") == "/find?q=kindred")
        let cookie = try #require(login.header("Set-Cookie"))
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/"))
        let session = [("Cookie", String(cookie.split(separator: ";")[0]))]

        // With the cookie: the page, its picture, and a decision through the review routes
        let page = try await client.get("/find?q=kindred", headers: session)
        #expect(page.status == 200 && page.text.contains("Octavia E. Butler"))
        let picture = try await client.get("/pages/works/\(ids[0])/photo.jpg", headers: session)
        #expect(picture.status == 200 && picture.header("Content-Type") == "image/jpeg")
        let verified = try await client.postJSON(RoutePath.decision(ids[0], "verify"), [:], headers: session)
        #expect(verified.status == 200 && verified.data["reviewStatus"] as? String == "verified")

        // A login page never sends the browser off the server
        let away = try await Self.postForm(server, "token=s3cret-token&next=%2F%2Fevil.example%2F")
        #expect(away.status == 303 && away.header("Location") == "/review")
    }

    /// POSTs the login form as a browser does, without following the redirect (the test reads it).
    static func postForm(_ server: ServerProcess, _ form: String) async throws -> Reply {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        defer { Task { try? await http.shutdown() } }
        var request = HTTPClientRequest(url: server.base + "/login")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: form))
        let response = try await http.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 1 << 20)
        return Reply(status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) }, body: Data(body.readableBytesView))
    }

    @Test func findShowsEachBookOnItsPhotoWithItsPlaceAndEscapesTitles() async throws {
        let (path, ids, photo) = try await Self.library()
        let server = try ServerProcess.start(library: path)
        let client = Client(server)
        defer { Task { try? await client.shutdown() }; server.stop() }

        let evil = try await client.get("/find?q=evil")
        #expect(evil.status == 200 && evil.header("Content-Type") == "text/html; charset=utf-8")
        #expect(evil.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
        #expect(evil.text.contains("&lt;b&gt;Evil&lt;/b&gt; &amp; &quot;Co&quot;"))
        #expect(!evil.text.contains("<b>Evil"))
        #expect(evil.text.contains("photo 1, shelf 1, 2nd from the left"))
        #expect(evil.text.contains("src=\"/pages/works/\(ids[1])/photo.jpg\""))
        #expect(evil.text.contains(photo))
        #expect(evil.text.contains("Waiting for review"))

        // The picture is the photo with the spine outlined: bright on the box's left edge (x = 0.3 of 900)
        let picture = try await client.get("/pages/works/\(ids[1])/photo.jpg")
        let image = try ImageDecoder.decode([UInt8](picture.body))
        #expect(image.width == 900 && image.height == 600)
        let i = (300 * 900 + 270) * 3
        #expect(image.pixels[i] > 200 && image.pixels[i + 1] > 170 && image.pixels[i + 2] < 90)
        // The shelf strip is the row around the box (0.2-0.7 of 600 px, and a twentieth more above and below),
        // the box outlined and its neighbours dimmed, as the terminal review draws it
        let strip = try ImageDecoder.decode([UInt8](try await client.get("/pages/works/\(ids[1])/shelf.jpg").body))
        #expect(strip.width == 900 && (325...335).contains(strip.height), "the box and a twentieth above and below: \(strip.height)")
        let inside = (strip.height / 2 * 900 + 315) * 3, outside = (strip.height / 2 * 900 + 600) * 3
        #expect(abs(Int(strip.pixels[inside]) - 90) < 12 && abs(Int(strip.pixels[outside]) - 90 * 11 / 20) < 12,
                "the box as photographed (90), the rest dimmed (49): \(strip.pixels[inside]), \(strip.pixels[outside])")

        // Bad input is a 4xx, never a crash
        #expect(try await client.get("/find?q=" + String(repeating: "a", count: 201)).status == 400)
        #expect(try await client.get("/pages/works/999999/photo.jpg").status == 404)
        #expect(try await client.get("/pages/works/abc/photo.jpg").status == 404)
        let none = try await client.get("/find?q=zzzz")
        #expect(none.status == 200 && none.text.contains("No book"))
        // The review page is the shell and its script, served from the binary's resources
        let review = try await client.get("/review")
        #expect(review.status == 200 && review.text.contains("/pages/assets/review.js") && review.text.contains("id=\"verify\""))
        #expect(try await client.get("/pages/assets/review.js").status == 200)
        #expect(try await client.get("/pages/assets/nope.js").status == 404)
    }
}
