import Foundation
import HTTPTypes
import Hummingbird
import LibraryCore
import NIOCore

/// The pages' HTML, written out here rather than templated: every value that came from the library or the
/// request passes `escape` on its way in (titles are user data), and nothing else is interpolated.
enum PageHTML {
    /// `&`, `<`, `>`, `"` and `'` as entities: safe in text and in quoted attribute values alike.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// A page's frame: style sheet and scripts from `/pages/assets/` only (the content security policy
    /// allows nothing else, so an escaping slip cannot run a script). The icon is named so a browser does
    /// not ask for `/favicon.ico`, which would be a 404 in its console on every page.
    static func page(title: String, body: String, script: String? = nil) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title)) · ShelfScan</title>
        <link rel="icon" href="\(WebPages.assetPrefix)icon.svg" type="image/svg+xml">
        <link rel="stylesheet" href="\(WebPages.assetPrefix)pages.css">
        \(script.map { "<script src=\"\(WebPages.assetPrefix)\($0)\" defer></script>" } ?? "")
        </head>
        <body>
        <header class="bar"><a href="\(RoutePath.reviewPage)">Review</a><a href="\(RoutePath.findPage)">Find</a>
        <form action="\(RoutePath.findPage)" method="get" role="search"><input type="search" name="q" aria-label="Title or author" placeholder="Title or author"><button>Find</button></form>
        </header>
        <main>
        \(body)
        </main>
        </body>
        </html>
        """
    }

    static func login(next: String, failed: Bool) -> String {
        page(title: "Server token", body: """
            <h1>This server wants its token</h1>
            <p>Paste the server's token (<code>SHELFSCAN_SERVER_TOKEN</code>) once; this browser keeps it in a cookie no page script can read.</p>
            \(failed ? "<p class=\"error\" role=\"alert\">That is not this server's token.</p>" : "")
            <form method="post" action="\(RoutePath.login)" class="login">
            <input type="hidden" name="next" value="\(escape(next))">
            <label>Token <input type="password" name="token" id="token" autocomplete="current-password" required autofocus></label>
            <button type="submit">Open</button>
            </form>
            """)
    }

    /// The find page: the query's matches, each on its photo with the spine outlined, and where it stands.
    static func find(query: String, books: [FoundBook], limit: Int) -> String {
        var body = "<h1>Find a book</h1>\n"
        body += "<form action=\"\(RoutePath.findPage)\" method=\"get\" class=\"find\"><input type=\"search\" name=\"q\" value=\"\(escape(query))\" aria-label=\"Title or author\" autofocus><button>Find</button></form>\n"
        if query.trimmingCharacters(in: .whitespaces).isEmpty {
            body += "<p>Type words of a title or an author's name.</p>"
            return page(title: "Find", body: body)
        }
        let count = books.count == limit ? "The first \(limit) books" : books.count == 1 ? "1 book" : "\(books.count) books"
        body += books.isEmpty ? "<p class=\"count\">No book's title or author matches “\(escape(query))”.</p>\n"
                              : "<p class=\"count\">\(count) match “\(escape(query))”.</p>\n"
        for book in books {
            let id = book.work.id ?? 0
            let authors = book.work.authors.map(\.name).joined(separator: ", ")
            body += "<article class=\"book\" id=\"work-\(id)\">\n<h2>\(escape(book.work.title))</h2>\n"
            if !authors.isEmpty { body += "<p class=\"authors\">\(escape(authors))</p>\n" }
            if book.work.reviewStatus == .needsReview { body += "<p class=\"status\">Waiting for review</p>\n" }
            if let place = book.place {
                body += "<p class=\"where\">\(escape(place.words))</p>\n"
                body += "<figure><img src=\"\(WebPages.picturePrefix)\(id)/photo.jpg\" alt=\"\(escape("Photo \(place.photoNumber) with the spine of \(book.work.title) outlined"))\" loading=\"lazy\">"
                body += "<figcaption>\(escape(place.photoPath ?? ""))</figcaption></figure>\n"
            } else {
                body += "<p class=\"where\">Not filed from a photo.</p>\n"
            }
            body += "</article>\n"
        }
        return page(title: "Find “\(query)”", body: body)
    }

    /// HTML with the headers every page carries: no caching (the library changes under it), no framing,
    /// scripts and styles from this server only.
    static func response(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [
            .contentType: "text/html; charset=utf-8",
            .cacheControl: "no-store",
            .contentSecurityPolicy: "default-src 'self'; img-src 'self'; style-src 'self'; script-src 'self'; frame-ancestors 'none'; form-action 'self'",
            .xContentTypeOptions: "nosniff",
        ], body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
