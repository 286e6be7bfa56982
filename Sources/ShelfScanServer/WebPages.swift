import BookModel
import Foundation
import HTTPTypes
import Hummingbird
import LibraryCore
import NIOCore
import ShelfImage
import ShelfScan

/// The browser pages of `shelfscan serve`: `/find` and `/review`, and the pictures they show. A door like
/// the command line: the search and the place in words are `Library`'s `BookFinder`, the drawing is
/// `SpineHighlight`, and the review page decides through the `/v3/review` routes, so no rule lives here.
struct WebPages: Sendable {
    let library: any LibraryStoring

    static let assetPrefix = "/pages/assets/"
    static let picturePrefix = "/pages/works/"
    /// Pictures are drawn for a screen: the photo's long side at most this, which keeps one under ~300 kB.
    static let pictureSide = 1600

    /// Adds the pages to `router`: a group behind `BrowserSession.pageGuard`, as they show library data.
    func register(_ router: some RouterMethods<ServerContext>) {
        router.get(RouterPath(RoutePath.findPage), use: find)
        router.get(RouterPath(RoutePath.reviewPage), use: review)
        router.get(RouterPath(Self.picturePrefix + ":workId/photo.jpg"), use: photo)
        router.get(RouterPath(Self.picturePrefix + ":workId/shelf.jpg"), use: shelf)
    }

    func find(_ request: Request, context: ServerContext) async throws -> Response {
        let query = request.uri.queryParameters.get("q").map { String($0) } ?? ""
        guard query.count <= 200 else {
            throw Problem.badRequest("INVALID_QUERY", "q is at most 200 characters: a few words of a title or an author.")
        }
        let limit = 50
        let books = await query.isEmpty ? [] : try library.find(query, limit: limit)
        return PageHTML.response(PageHTML.find(query: query, books: books, limit: limit))
    }

    func review(_ request: Request, context: ServerContext) async throws -> Response {
        let page = PageHTML.page(title: "Review", body: PageAssets.text("review-body.html"), script: "review.js")
        return BrowserSession.namingReviewer(PageHTML.response(page), for: request)
    }

    /// The Work's photo, shrunk, with its spine outlined.
    func photo(_ request: Request, context: ServerContext) async throws -> Response {
        try Self.jpeg(try await picture(context) { place in try SpineHighlight.image(place, maxSide: Self.pictureSide) })
    }

    /// The review page's context strip: the shelf row around the spine, outlined, its neighbours dimmed, drawn
    /// as the terminal review draws it (`ShelfStrip`), about twice as wide as tall to sit beside the crop.
    func shelf(_ request: Request, context: ServerContext) async throws -> Response {
        try Self.jpeg(try await picture(context) { place in
            let photo = try SpineHighlight.photo(place, maxSide: Self.pictureSide)
            let corners = place.corners
            let xs = corners.map { $0[0] }, ys = corners.map { $0[1] }
            let box = place.boundingBox ?? BoundingBox(x: xs.min() ?? 0, y: ys.min() ?? 0, width: (xs.max() ?? 0) - (xs.min() ?? 0),
                                                       height: (ys.max() ?? 0) - (ys.min() ?? 0))
            return ShelfStrip.context(photo: photo, box: box, polygon: corners, aspect: 2, columns: 300, lying: place.lying) ?? photo
        })
    }

    /// A picture of the Work on its photo; a Work not filed from a photo, or whose photo has moved, is a 404.
    private func picture(_ context: ServerContext, _ draw: (ShelfPlace) throws -> RGBImage) async throws -> RGBImage {
        let id = try ReviewRoutes.workID(context)
        guard let work = try await library.work(id: id) else { throw ReviewRoutes.problem(.notFound(id)) }
        guard let place = ShelfPlace(work, photoNumber: 0) else {
            throw Problem(.notFound, code: "NO_PHOTO", detail: "Work \(id) was not filed from a photo.")
        }
        do {
            return try draw(place)
        } catch let error as ShelfImageError {
            throw Problem(.notFound, code: "NO_PHOTO", detail: "Work \(id)'s photo cannot be shown: \(error.message)")
        }
    }

    static func jpeg(_ image: RGBImage) throws -> Response {
        let bytes = try image.jpegData(quality: 82)
        return Response(status: .ok, headers: [.contentType: "image/jpeg", .cacheControl: "private, max-age=300"],
                        body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

/// The pages' style sheet, script and HTML pieces: this target's resources (`Pages/`), read once, so an
/// installed binary serves the very files in the repository and nothing is fetched at run time.
enum PageAssets {
    static let files: [String: [UInt8]] = {
        var files: [String: [UInt8]] = [:]
        for name in ["pages.css", "review.js", "review-body.html", "icon.svg"] {
            if let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Pages"),
               let data = FileManager.default.contents(atPath: url.path) {
                files[name] = [UInt8](data)
            }
        }
        return files
    }()

    static func text(_ name: String) -> String {
        files[name].map { String(decoding: $0, as: UTF8.self) } ?? "<p class=\"error\">This build lacks \(PageHTML.escape(name)).</p>"
    }

    static func response(_ name: String) throws -> Response {
        guard let bytes = files[name], !name.hasSuffix(".html") else {
            throw Problem(.notFound, code: "NOT_FOUND", detail: "No page file \(name).")
        }
        let type = name.hasSuffix(".css") ? "text/css; charset=utf-8"
            : name.hasSuffix(".svg") ? "image/svg+xml" : "text/javascript; charset=utf-8"
        return Response(status: .ok, headers: [.contentType: type, .cacheControl: "no-cache", .xContentTypeOptions: "nosniff"],
                        body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
