import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The door a browser comes through. A browser cannot set `Authorization` on a page it opens or an image
/// it loads, and a token in a URL ends up in history and logs; so when a server token is set, the pages ask
/// for it once (`/login`) and keep it in an HttpOnly, SameSite=Strict cookie (no script reads it, no other
/// site's page sends it). For the JSON routes the cookie stands for `Authorization: Bearer` (`Credential.of`),
/// so the review page's calls pass the same token check as any client's.
///
/// `/login` and the pages' static files are routes of their own outside every token check (the login page needs
/// its style sheet); the pages and their pictures are a route group behind `pageGuard`. So only a browser's
/// requests pass any of this: it was a middleware in front of every route, which every API request paid for.
struct BrowserSession: Sendable {
    let serverToken: String?

    static let cookieName = "shelfscan_session"
    /// Names this browser as a reviewer, so the review page claims its own next book (as each terminal review
    /// does) and its decisions and undo are its own. Only a name: the token cookie is what lets it in.
    static let reviewerCookieName = "shelfscan_reviewer"

    func register(_ router: Router<ServerContext>) {
        router.get(RouterPath(RoutePath.login), use: login)
        router.post(RouterPath(RoutePath.login), use: login)
        router.get(RouterPath(WebPages.assetPrefix + ":name")) { _, context in try PageAssets.response(context.parameters.require("name")) }
    }

    /// The pages' group: without the server token (when one is set) a page is the token form, a picture a 401.
    var pageGuard: PageGuardMiddleware { PageGuardMiddleware(serverToken: serverToken) }

    struct PageGuardMiddleware: RouterMiddleware {
        typealias Context = ServerContext
        let serverToken: String?

        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            if serverToken == nil || Credential.isServerToken(Credential.of(request), serverToken) { return try await next(request, context) }
            guard request.method == .get, !request.uri.path.hasPrefix(WebPages.picturePrefix) else { throw Problem.unauthorized }
            return PageHTML.response(PageHTML.login(next: request.uri.description, failed: false), status: .unauthorized)
        }
    }

    /// The review page is where a browser becomes a reviewer: it is named on its first visit, and keeps the
    /// name until it closes (a session cookie), so a reload goes on with the book it holds.
    static func namingReviewer(_ response: Response, for request: Request) -> Response {
        guard reviewer(request.headers) == nil else { return response }
        var response = response
        response.headers[HTTPField.Name.setCookie] = "\(reviewerCookieName)=\(UUID().uuidString.lowercased()); Path=/; HttpOnly; SameSite=Strict"
        return response
    }

    /// GET: the form (or straight on when no token is set); POST: checks the token, sets the cookie and
    /// sends the browser back where it was going.
    func login(_ request: Request, context: ServerContext) async throws -> Response {
        let next = request.uri.queryParameters.get("next").map { String($0) }
        guard request.method == .post else {
            guard serverToken != nil else { return Self.redirect(to: next) }
            return PageHTML.response(PageHTML.login(next: Self.safeNext(next), failed: false))
        }
        var request = request
        let body = try await request.collectBody(upTo: 8 << 10)
        let form = Self.formFields(String(buffer: body))
        let target = Self.safeNext(form["next"] ?? next)
        guard let serverToken else { return Self.redirect(to: target) }
        guard let token = form["token"], constantTimeEqual(token, serverToken) else {
            return PageHTML.response(PageHTML.login(next: target, failed: true), status: .unauthorized)
        }
        var response = Self.redirect(to: target)
        response.headers[HTTPField.Name.setCookie] = "\(Self.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict"
        return response
    }

    /// The token cookie's value, when the browser sent one.
    static func cookieToken(_ headers: HTTPFields) -> String? { cookie(cookieName, headers) }

    /// The reviewer this browser is, when it sent a name this server could have given (at most 64 letters,
    /// digits and dashes): anything else is no reviewer, and its decisions are the plain HTTP door's.
    static func reviewer(_ headers: HTTPFields) -> String? {
        guard let name = cookie(reviewerCookieName, headers), name.count <= 64,
              name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else { return nil }
        return name
    }

    private static func cookie(_ name: String, _ headers: HTTPFields) -> String? {
        for field in headers[values: .cookie] {
            for pair in field.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                    let value = parts[1].trimmingCharacters(in: .whitespaces)
                    return value.isEmpty ? nil : value
                }
            }
        }
        return nil
    }

    /// Only a path on this server: `//evil.example` or `https://…` would make the login page an open redirect.
    static func safeNext(_ next: String?) -> String {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"), !next.contains("\\"), next != RoutePath.login,
              !next.hasPrefix(RoutePath.login + "?") else { return RoutePath.reviewPage }
        return next
    }

    static func redirect(to target: String?) -> Response {
        Response(status: .seeOther, headers: [.location: safeNext(target), .cacheControl: "no-store"])
    }

    /// `application/x-www-form-urlencoded` fields: `+` is a space, then percent escapes.
    static func formFields(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return fields
    }
}
