import BookModel
import Foundation
import HTTPTypes
import Hummingbird
import LibraryCore
import NIOCore
import ShelfScan

/// The review queue over HTTP: the same `LibraryStoring.review(_:)` as `shelfscan review`, so the same
/// validation and the same optimistic revision apply. A decision that names the `revision` it saw fails with
/// 409 when another reviewer changed the Work since: never a silent overwrite.
struct ReviewRoutes: Sendable {
    let library: any LibraryStoring
    let clock: ServerClock
    /// Journal name of decisions made over HTTP, so `undo` can take back this door's decisions only.
    static let session = "http"

    /// Whose decision a request makes: a review page's browser is a reviewer of its own (`http:` and its
    /// name), which claims books, decides and undoes as one terminal review does; any other client is `http`.
    static func session(_ request: Request) -> String {
        BrowserSession.reviewer(request.headers).map { "\(session):\($0)" } ?? session
    }

    func pending(_ request: Request, context: ServerContext) async throws -> Response {
        let limit = try Self.intQuery(request, "limit", default: 50, range: 1...500)
        let offset = try Self.intQuery(request, "offset", default: 0, range: 0...Int.max)
        let works = try await library.pendingSummaries(limit: limit, offset: offset).map(PendingWork.init)
        return try JSONResponse.envelope(PendingPage(pending: try await library.pendingCount(), limit: limit, offset: offset, works: works),
                                         context: context, clock: clock)
    }

    /// The next book for this reviewer, claimed through the library as `shelfscan review` claims it: on a shared
    /// library no other reviewer is given it until this one decides it, moves past it (`after`: the book they
    /// leave) or leaves it for the lease.
    func next(_ request: Request, context: ServerContext) async throws -> Response {
        let body = try await Self.decode(NextBody.self, request, context)
        do {
            let item = try await library.claimNextPending(reviewer: Self.session(request), lease: reviewLease, after: body.after)
            let pending: Int
            if let item { pending = item.pendingCount } else { pending = try await library.pendingCount() }
            let work: WorkDetail? = if let item { await detail(item.work) } else { nil }
            return try JSONResponse.envelope(NextDTO(pending: pending, position: item?.queuePosition, work: work),
                                             context: context, clock: clock)
        } catch let error as LibraryError {
            throw Self.problem(error)
        }
    }

    func work(_ request: Request, context: ServerContext) async throws -> Response {
        try JSONResponse.envelope(await detail(try await load(context)), context: context, clock: clock)
    }

    private func detail(_ work: Work) async -> WorkDetail {
        WorkDetail(work, hasCrop: await library.cropURL(for: work) != nil, duplicates: (try? await library.duplicates(of: work)) ?? [])
    }

    func crop(_ request: Request, context: ServerContext) async throws -> Response {
        let work = try await load(context)
        guard let url = await library.cropURL(for: work), let data = FileManager.default.contents(atPath: url.path) else {
            throw Problem(.notFound, code: "NO_CROP", detail: "Work \(work.id ?? 0) has no spine crop (it was not filed from a photo).")
        }
        return Response(status: .ok, headers: [.contentType: "image/jpeg", .cacheControl: "private, max-age=3600"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    func verify(_ request: Request, context: ServerContext) async throws -> Response {
        let body = try await Self.decode(VerifyBody.self, request, context)
        return try await decide(request, context, .verify, revision: body.revision, defaults: Self.defaults(body.readingStatus, wishlist: body.wishlist))
    }

    func edit(_ request: Request, context: ServerContext) async throws -> Response {
        let body = try await Self.decode(EditBody.self, request, context)
        var format: EditionFormat?
        if let raw = body.format {
            guard let f = EditionFormat.allCases.first(where: { $0.rawValue.lowercased() == raw.lowercased() }) else {
                throw Problem(.unprocessableContent, code: "INVALID",
                              detail: "format must be one of \(EditionFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            format = f
        }
        let status = try Self.readingStatus(body.readingStatus)
        let edit = WorkEdit(title: body.title, authors: body.authors, isbn: body.isbn, firstPublicationYear: body.firstPublicationYear,
                            readingStatus: body.wishlist == true ? .wishlist : status, format: format)
        return try await decide(request, context, .edit(edit), revision: body.revision, defaults: Self.defaults(body.readingStatus, wishlist: body.wishlist))
    }

    func reject(_ request: Request, context: ServerContext) async throws -> Response {
        let body = try await Self.decode(RevisionBody.self, request, context)
        return try await decide(request, context, .reject, revision: body.revision, defaults: ReviewDefaults())
    }

    func merge(_ request: Request, context: ServerContext) async throws -> Response {
        let body = try await Self.decode(MergeBody.self, request, context)
        guard let into = body.into else {
            throw Problem(.unprocessableContent, code: "INVALID", detail: "Name the Work to keep: {\"into\": <work id>}.")
        }
        return try await decide(request, context, .merge(into: into), revision: body.revision, defaults: ReviewDefaults())
    }

    /// Cuts the box in two at `at` (0.1-0.9 of its width from the left as the book stands, so between the books
    /// of a lying stack; default the middle), as `shelfscan review`'s `|` does: the pieces wait for review in
    /// its place.
    func split(_ request: Request, context: ServerContext) async throws -> Response {
        let body = try await Self.decode(SplitBody.self, request, context)
        let at = body.at ?? 0.5
        guard (0.1...0.9).contains(at) else {
            throw Problem(.unprocessableContent, code: "INVALID",
                          detail: "at is where to cut: 0.1 to 0.9 of the box's width from its left, as the book stands.")
        }
        let id = try Self.workID(context)
        return try await reshape(context) { try await SpineReshape.split(id, revision: body.revision, at: at, in: library, session: Self.session(request)) }
    }

    /// Joins the box with the pending box to its right on the same shelf row, as `shelfscan review`'s `j` does.
    func join(_ request: Request, context: ServerContext) async throws -> Response {
        let body = try await Self.decode(RevisionBody.self, request, context)
        let id = try Self.workID(context)
        return try await reshape(context) { try await SpineReshape.join(id, revision: body.revision, in: library, session: Self.session(request)) }
    }

    /// A redrawn box's answer; a box that cannot be redrawn as asked is a 422 that says why.
    private func reshape(_ context: ServerContext, _ run: () async throws -> ReshapeReceipt) async throws -> Response {
        do {
            let receipt = try await run()
            return try JSONResponse.envelope(ReshapeDTO(journalId: receipt.journalID, replacedWorkIds: receipt.replaced,
                                                        createdWorkIds: receipt.created), context: context, clock: clock)
        } catch let failure as SpineReshape.Failure {
            throw Problem(.unprocessableContent, code: "CANNOT_RESHAPE", detail: failure.description)
        } catch let error as LibraryError {
            throw Self.problem(error)
        }
    }

    /// Verifies one photo's (or one shelf row's) pending Works read at or above `minConfidence`, by `BulkVerify`'s
    /// rule as `shelfscan review`'s bulk menu does, in one journal entry: one undo takes them all back. Nothing to
    /// take is an answer (an empty list), not an error: the bar was simply above every reading.
    func bulkVerify(_ request: Request, context: ServerContext) async throws -> Response {
        let body = try await Self.decode(BulkVerifyBody.self, request, context)
        guard let hash = body.photoContentHash, let threshold = body.minConfidence, (0...1).contains(threshold) else {
            throw Problem(.unprocessableContent, code: "INVALID",
                          detail: "Name the photo and the bar: {\"photoContentHash\": \"…\", \"minConfidence\": 0.8} (0 to 1; \"row\" for one shelf row).")
        }
        let decisions = BulkVerify.decisions(try await library.pendingWorks(photoContentHash: hash, row: body.row), row: body.row,
                                             threshold: threshold, session: Self.session(request))
        guard !decisions.isEmpty else {
            return try JSONResponse.envelope(BulkDecisionDTO(journalId: nil, verifiedWorkIds: []), context: context, clock: clock)
        }
        do {
            let receipt = try await library.review(batch: decisions, summary: BulkVerify.summary(count: decisions.count, row: body.row, threshold: threshold),
                                                   defaults: Self.defaults(body.readingStatus, wishlist: body.wishlist))
            return try JSONResponse.envelope(BulkDecisionDTO(journalId: receipt.journalID, verifiedWorkIds: decisions.map(\.workID)),
                                             context: context, clock: clock)
        } catch let error as LibraryError {
            throw Self.problem(error)
        }
    }

    /// Undoes the latest decision made over HTTP by this reviewer (or, with `{"allSessions": true}`, any), as
    /// `shelfscan review undo`.
    func undo(_ request: Request, context: ServerContext) async throws -> Response {
        let body = try await Self.decode(UndoBody.self, request, context)
        do {
            let receipt = try await library.undoLast(session: body.allSessions == true ? nil : (body.session ?? Self.session(request)))
            return try JSONResponse.envelope(UndoReceiptDTO(journalId: receipt.journalID, restoredWorkIds: receipt.restoredWorkIDs),
                                             context: context, clock: clock)
        } catch let error as LibraryError {
            throw Self.problem(error)
        }
    }

    // MARK: Helpers

    private func decide(_ request: Request, _ context: ServerContext, _ action: ReviewAction, revision: Int?, defaults: ReviewDefaults) async throws -> Response {
        let id = try Self.workID(context)
        do {
            let receipt = try await library.review(ReviewDecision(workID: id, action: action, expectedRevision: revision, session: Self.session(request)),
                                                   defaults: defaults)
            let after: Work? = if let resulting = receipt.resultingWorkID { try await library.work(id: resulting) } else { nil }
            return try JSONResponse.envelope(DecisionDTO(journalId: receipt.journalID, workId: receipt.workID, decision: action.name,
                                                         resultingWorkId: receipt.resultingWorkID, reviewStatus: after?.reviewStatus,
                                                         revision: after?.revision), context: context, clock: clock)
        } catch let error as LibraryError {
            throw Self.problem(error)
        }
    }

    private func load(_ context: ServerContext) async throws -> Work {
        let id = try Self.workID(context)
        guard let work = try await library.work(id: id) else { throw Self.problem(.notFound(id)) }
        return work
    }

    /// The route's `{workId}`, typed; one that is not a positive integer names no Work, so it is a 404.
    static func workID(_ context: ServerContext) throws -> Int64 {
        guard let id = context.parameters.get("workId", as: Int64.self), id > 0 else {
            throw Problem(.notFound, code: "NOT_FOUND",
                          detail: "No work with ID \(context.parameters.get("workId") ?? ""): Work IDs are positive integers.")
        }
        return id
    }

    /// The library's refusals, each with the status a client can act on: 409 to look again and decide, 503
    /// with `Retry-After` to send the same request later, 500 where waiting will not help.
    static func problem(_ error: LibraryError) -> Problem {
        let status: HTTPResponse.Status = switch error {
        case .notFound: .notFound
        case .conflict, .undoConflict, .notPending, .nothingToUndo, .claimedByOther, .constraint: .conflict
        case .invalid, .mergeIntoSelf: .unprocessableContent
        case .cannotOpen, .cropNotWritten, .importFailed, .busy, .connectionLost: .serviceUnavailable
        case .databaseFailed: .internalServerError
        }
        // A change that may have been applied is looked at before it is sent again, not simply retried.
        let retryable = switch error {
        case .connectionLost(_, let mayHaveBeenApplied): !mayHaveBeenApplied
        default: status == .serviceUnavailable
        }
        let retryAfter: Int? = switch error {
        case .busy: 1
        case .connectionLost: 2
        default: nil
        }
        return Problem(status, code: error.code, detail: error.description, retryable: retryable, retryAfter: retryAfter)
    }

    /// A JSON body, or the defaults when there is none; malformed JSON or a field of the wrong type is a 400.
    static func decode<T: Decodable & DefaultInit>(_ type: T.Type, _ request: Request, _ context: ServerContext) async throws -> T {
        let body: ByteBuffer
        do { body = try await request.body.collect(upTo: context.maxUploadSize) } catch {
            throw Problem.tooLarge("REQUEST_TOO_LARGE", "A review decision's body is at most 64 kB.")
        }
        guard body.readableBytes > 0 else { return T() }
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer: body))
        } catch {
            throw Problem.badRequest("MALFORMED_JSON", "The body is not the JSON this route takes (see GET \(RoutePath.openAPI)): \(Self.reason(error)).")
        }
    }

    static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.typeMismatch(_, let c), DecodingError.valueNotFound(_, let c):
            "wrong type at \(c.codingPath.map(\.stringValue).joined(separator: "."))"
        case DecodingError.dataCorrupted(let c): c.codingPath.isEmpty ? "not valid JSON" : "bad value at \(c.codingPath.map(\.stringValue).joined(separator: "."))"
        default: "not valid JSON"
        }
    }

    static func intQuery(_ request: Request, _ name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let raw = request.uri.queryParameters.get(name) else { return value }
        guard let n = Int(raw), range.contains(n) else {
            throw Problem.badRequest("INVALID_QUERY", "\(name) must be a whole number in \(range.lowerBound)...\(range.upperBound == Int.max ? "" : String(range.upperBound)).")
        }
        return n
    }

    static func readingStatus(_ raw: String?) throws -> ReadingStatus? {
        guard let raw else { return nil }
        guard let status = ReadingStatus.from(string: raw) else {
            throw Problem(.unprocessableContent, code: "INVALID",
                          detail: "readingStatus must be one of \(ReadingStatus.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        return status
    }

    static func defaults(_ status: String?, wishlist: Bool?) throws -> ReviewDefaults {
        if wishlist == true { return ReviewDefaults(readingStatus: .wishlist, owned: false) }
        return ReviewDefaults(readingStatus: try readingStatus(status) ?? .toRead, owned: true)
    }
}

protocol DefaultInit { init() }

struct RevisionBody: Decodable, DefaultInit { var revision: Int? }
struct VerifyBody: Decodable, DefaultInit { var revision: Int?; var readingStatus: String?; var wishlist: Bool? }
struct EditBody: Decodable, DefaultInit {
    var revision: Int?
    var title: String?
    var authors: [String]?
    var isbn: String?
    var firstPublicationYear: Int?
    var format: String?
    var readingStatus: String?
    var wishlist: Bool?
}
struct MergeBody: Decodable, DefaultInit { var revision: Int?; var into: Int64? }
struct UndoBody: Decodable, DefaultInit { var session: String?; var allSessions: Bool? }
struct SplitBody: Decodable, DefaultInit { var revision: Int?; var at: Double? }
struct NextBody: Decodable, DefaultInit { var after: Int64? }
struct BulkVerifyBody: Decodable, DefaultInit {
    var photoContentHash: String?
    var minConfidence: Double?
    var row: Int?
    var readingStatus: String?
    var wishlist: Bool?
}

struct PendingPage: Encodable, Sendable {
    var pending: Int
    var limit: Int
    var offset: Int
    var works: [PendingWork]
}

struct PendingWork: Encodable, Sendable {
    var id: Int64
    var title: String?
    var authors: [String]
    var reviewStatus: ReviewStatus
    var readingConfidence: Double?
    var detectionConfidence: Double?
    var photoContentHash: String?
    var row: Int?
    var position: Int?
    var revision: Int
    var cropUrl: String

    init(_ s: WorkSummary) {
        id = s.id; title = s.title == Work.unreadTitle ? nil : s.title; authors = s.authors; reviewStatus = s.reviewStatus
        readingConfidence = s.readingConfidence; detectionConfidence = s.detectionConfidence
        photoContentHash = s.photoContentHash; row = s.row; position = s.position; revision = s.revision
        cropUrl = RoutePath.workCrop(s.id)
    }
}

/// One Work in full for a reviewer: the seed-004 DTOs, where the spine came from, its crop, and likely duplicates.
struct WorkDetail: Encodable, Sendable {
    var id: Int64
    var revision: Int
    var work: WorkDTO
    var authors: [AuthorDTO]
    var editions: [EditionDTO]
    var spine: SpineProvenance?
    var cropUrl: String?
    var duplicates: [Duplicate]

    struct Duplicate: Encodable, Sendable {
        var id: Int64
        var title: String
        var authors: [String]
        var similarity: Double
    }

    init(_ w: Work, hasCrop: Bool, duplicates: [DuplicateCandidate]) {
        id = w.id ?? 0; revision = w.revision; work = w.dto; authors = w.authors.map(\.dto); editions = w.editions.map(\.dto)
        spine = w.spine; cropUrl = hasCrop ? RoutePath.workCrop(id) : nil
        self.duplicates = duplicates.map { Duplicate(id: $0.id, title: $0.title, authors: $0.authors,
                                                     similarity: ($0.reason.similarity * 1000).rounded() / 1000) }
    }
}

/// The book a reviewer claimed, nil when none is left for them, with the queue's size and its place in it.
struct NextDTO: Encodable, Sendable {
    var pending: Int
    var position: Int?
    var work: WorkDetail?
}

struct DecisionDTO: Encodable, Sendable {
    var journalId: Int64
    var workId: Int64
    var decision: String
    var resultingWorkId: Int64?
    var reviewStatus: ReviewStatus?
    var revision: Int?
}

/// A split's or a join's answer: the Works taken off the queue and the pieces filed in their place.
struct ReshapeDTO: Encodable, Sendable {
    var journalId: Int64
    var replacedWorkIds: [Int64]
    var createdWorkIds: [Int64]
}

/// A bulk verify's answer: the journal entry (nil when nothing was taken) and the Works it verified.
struct BulkDecisionDTO: Encodable, Sendable {
    var journalId: Int64?
    var verifiedWorkIds: [Int64]
}

struct UndoReceiptDTO: Encodable, Sendable {
    var journalId: Int64
    var restoredWorkIds: [Int64]
}

extension ReviewAction {
    var name: String {
        switch self {
        case .verify: "verify"
        case .edit: "edit"
        case .reject: "reject"
        case .merge: "merge"
        }
    }
}
