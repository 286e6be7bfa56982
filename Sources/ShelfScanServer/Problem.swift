import Foundation
import HTTPTypes
import Hummingbird
import LibraryCore
import NIOCore

/// An RFC 7807 problem: every 4xx and 5xx the server sends is one of these, as `application/problem+json`.
///
/// `code` is the short machine-readable form BooksTrack's clients switch on; `detail` is for a person.
/// `retryable` says whether the same request may succeed later (BooksTrack's `error.retryable`).
public struct Problem: Error, Sendable, Codable, Equatable {
    public var type: String
    public var title: String
    public var status: Int
    public var detail: String
    public var code: String
    public var retryable: Bool
    /// Seconds to wait before retrying (429, or 503 from a busy library); also sent as `Retry-After`.
    public var retryAfter: Int?

    public init(_ status: HTTPResponse.Status, code: String, detail: String, retryable: Bool = false, retryAfter: Int? = nil) {
        self.type = "https://shelfscan.invalid/problems/\(code.lowercased().replacingOccurrences(of: "_", with: "-"))"
        self.title = status.reasonPhrase
        self.status = status.code
        self.detail = detail
        self.code = code
        self.retryable = retryable
        self.retryAfter = retryAfter
    }

    public static let mediaType = "application/problem+json"

    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()

    public var response: Response {
        var headers: HTTPFields = [.contentType: Self.mediaType]
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: body))
    }

    var body: ByteBuffer { ByteBuffer(bytes: (try? Self.encoder.encode(self)) ?? Data("{}".utf8)) }
}

extension Problem {
    static func notFound(job id: String) -> Problem {
        Problem(.notFound, code: "JOB_NOT_FOUND", detail: "No scan job \(id). Submit photos to POST /v3/jobs/scans first.")
    }
    static func badRequest(_ code: String, _ detail: String) -> Problem { Problem(.badRequest, code: code, detail: detail) }
    static func tooLarge(_ code: String, _ detail: String) -> Problem { Problem(.contentTooLarge, code: code, detail: detail) }
    static let unauthorized = Problem(.unauthorized, code: "UNAUTHORIZED",
                                      detail: "Missing or wrong token. Send Authorization: Bearer <token>.")
}

/// Turns every error that leaves a handler into a problem response, so no client ever sees an HTML page,
/// a bare status or a dropped connection; unexpected errors become a 500 whose detail names no internals.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let problem as Problem {
            return problem.response
        } catch let error as LibraryError {
            // A library refusal from any route (listing, search, scan results) keeps its status, as a decision's does.
            return ReviewRoutes.problem(error).response
        } catch let error as any HTTPResponseError {
            let status = error.status
            let code: String
            switch status {
            case .notFound: code = "ROUTE_NOT_FOUND"
            case .methodNotAllowed: code = "METHOD_NOT_ALLOWED"
            case .contentTooLarge: code = "REQUEST_TOO_LARGE"
            case .unauthorized: code = "UNAUTHORIZED"
            default: code = status.code >= 500 ? "INTERNAL_ERROR" : "INVALID_REQUEST"
            }
            let detail = status == .notFound ? "No route \(request.method.rawValue) \(request.uri.path). GET \(RoutePath.openAPI) lists them."
                : ((error as? HTTPError)?.body ?? status.reasonPhrase)
            return Problem(status, code: code, detail: detail, retryable: status.code >= 500).response
        } catch {
            context.logger.error("unhandled error", metadata: ["error": "\(error)"])
            return Problem(.internalServerError, code: "INTERNAL_ERROR", detail: "The server failed this request; try again.",
                           retryable: true).response
        }
    }
}
