import ArgumentParser
import BookModel
import Foundation
import LibraryCore
import ShelfScan

/// Printing for the library and review commands: text, or the seed-004 envelope with `--json`; and the one
/// way an error leaves them (one line on stderr, or the error envelope on stdout, then a failure exit).
struct CommandOutput {
    let jsonOutput: Bool
    let quiet: Bool
    let started = Date()

    init(options: OutputOptions) { jsonOutput = options.json; quiet = options.quiet }
    init(json: Bool = false, quiet: Bool = false) { jsonOutput = json; self.quiet = quiet }

    func json<T: Encodable & Sendable>(_ data: T) throws {
        let encoder = ISO8601.makeEncoder(pretty: false)
        print(String(decoding: try encoder.encode(SuccessResponse(data: data, meta: .now(since: started))), as: UTF8.self))
    }

    /// Text results (suppressed by --quiet only where they are chatter, so callers decide).
    func line(_ text: String) { print(text) }

    func note(_ text: String) {
        guard !quiet else { return }
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Runs `body`; any error becomes one clear line (or the JSON error envelope) and a failure exit.
    func reportingErrors(_ body: () async throws -> Void) async throws {
        do { try await body() } catch let exit as ExitCode { throw exit } catch {
            fail(error)
            throw ExitCode.failure
        }
    }

    func fail(_ error: Error) {
        let (message, code) = Self.describe(error)
        if jsonOutput {
            let envelope = ErrorResponse(error: ErrorBody(message: message, code: code), meta: .now(since: started))
            if let data = try? ISO8601.makeEncoder().encode(envelope) { print(String(decoding: data, as: UTF8.self)) }
        } else {
            FileHandle.standardError.write(Data("error: \(message)\n".utf8))
        }
    }

    static func describe(_ error: Error) -> (String, String) {
        switch error {
        case let e as LibraryError: (e.description, e.code)
        case let e as BookModel.ValidationError: (e.description, "INVALID")
        case let e as CocoaError: ((e.userInfo[NSFilePathErrorKey] as? String).map { "Cannot read \($0): \(e.localizedDescription)" } ?? e.localizedDescription, "IO_ERROR")
        default: ("\(error)", "ERROR")
        }
    }
}

extension LibraryOptions {
    func openStore() async throws -> any LibraryStoring { try await LibraryOpener.open(resolvedPath()) }
}

/// "Ursula K. Le Guin; Ann Leckie" or "—".
func authorList(_ names: [String]) -> String { names.isEmpty ? "—" : names.joined(separator: "; ") }

/// Percent, or "–" for an unread spine.
func percent(_ value: Double?) -> String { value.map { "\(Int(($0 * 100).rounded()))%" } ?? "–" }

/// A Work in full, for `review show` and `library show`.
struct WorkDetail: Encodable, Sendable {
    var id: Int64
    var revision: Int
    var work: WorkDTO
    var authors: [AuthorDTO]
    var otherContributors: [String: [ContributorRole]]?
    var editions: [EditionDTO]
    var spine: SpineProvenance?
    var cropPath: String?
    var readingStatus: ReadingStatus?
    var owned: Bool?
    var duplicates: [Duplicate]

    struct Duplicate: Encodable, Sendable {
        var id: Int64
        var title: String
        var authors: [String]
        var reason: String
        var similarity: Double
    }

    init(_ w: Work, cropPath: String?, duplicates: [DuplicateCandidate]) {
        id = w.id ?? 0; revision = w.revision; work = w.dto; authors = w.authors.map(\.dto)
        var others: [String: [ContributorRole]] = [:]
        for c in w.credits { let r = c.roles.subtracting([.author]).sorted(); if !r.isEmpty { others[c.author.name] = r } }
        otherContributors = others.isEmpty ? nil : others
        editions = w.editions.map(\.dto); spine = w.spine; self.cropPath = cropPath
        readingStatus = w.libraryEntry?.readingStatus; owned = w.libraryEntry.map(\.isOwned)
        self.duplicates = duplicates.map { Duplicate(id: $0.id, title: $0.title, authors: $0.authors, reason: $0.reason.description,
                                                     similarity: ($0.reason.similarity * 1000).rounded() / 1000) }
    }

    var text: [String] {
        var lines = ["#\(id)  \(work.title)", "  authors:  \(authorList(authors.map(\.name)))", "  status:   \(work.reviewStatus.rawValue)"]
        for (name, roles) in (otherContributors ?? [:]).sorted(by: { $0.key < $1.key }) {
            lines.append("  \(roles.map(\.rawValue).joined(separator: ", ")): \(name)")
        }
        if let y = work.firstPublicationYear { lines.append("  year:     \(y)") }
        for e in editions { lines.append("  edition:  \(e.format.rawValue)\(e.isbn.map { " · ISBN \($0)" } ?? "")\(e.publisher.map { " · \($0)" } ?? "")") }
        if let s = readingStatus { lines.append("  library:  \(s.displayName)\(owned == true ? " · owned" : "")") }
        if let spine {
            lines.append("  reading:  \(percent(spine.readingConfidence)) \(spine.reader ?? "")\(spine.rawText.map { " “\($0)”" } ?? "")")
            lines.append("  spine:    shelf \(spine.row + 1), spine \(spine.position + 1), detected \(percent(spine.detectionConfidence))")
        }
        if let p = work.originalImagePath { lines.append("  photo:    \(p)") }
        if let c = cropPath { lines.append("  crop:     \(c)") }
        for (i, d) in duplicates.enumerated() { lines.append("  maybe \(i + 1): #\(d.id) \(d.title) — \(authorList(d.authors)) (\(d.reason))") }
        return lines
    }
}
