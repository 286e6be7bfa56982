import BookModel
import Foundation

/// A journal row not undone, as both engines read it: the rule that turns rows into corrections is
/// `SplitCorrections`, written once, so the engines only fetch.
public struct LiveJournalRow: Sendable, Equatable {
    public var id: Int64
    public var kind: String
    public var workID: Work.ID
    public var decidedAt: Date
    /// JSON of `[Work]`, every Work the decision touched as it was before.
    public var before: String

    public init(id: Int64, kind: String, workID: Work.ID, decidedAt: Date, before: String) {
        self.id = id; self.kind = kind; self.workID = workID; self.decidedAt = decidedAt; self.before = before
    }
}

/// A title and author list, as the reader split a spine or as a person settled it.
public struct TitleAndAuthors: Codable, Sendable, Equatable {
    public var title: String
    public var authors: [String]

    public init(title: String, authors: [String]) { self.title = title; self.authors = authors }
    init(_ work: Work) { self.init(title: work.title, authors: work.authors.map(\.name)) }
}

/// One spine whose split a reviewer corrected: the material for measuring the reader and training its tagger.
public struct SplitCorrection: Codable, Sendable, Equatable {
    public var workId: Work.ID
    public var photoContentHash: String
    /// The reader's whole text, so the split can be redone from what it saw.
    public var rawText: String?
    /// Before the first edit: the reader's split (or a catalogue's or provider's answer filed with it).
    public var read: TitleAndAuthors
    public var corrected: TitleAndAuthors
    /// When the last edit of it was decided.
    public var decidedAt: Date

    public init(workId: Work.ID, photoContentHash: String, rawText: String?, read: TitleAndAuthors, corrected: TitleAndAuthors,
                decidedAt: Date) {
        self.workId = workId; self.photoContentHash = photoContentHash; self.rawText = rawText; self.read = read
        self.corrected = corrected; self.decidedAt = decidedAt
    }

    enum CodingKeys: String, CodingKey { case workId, photoContentHash, rawText, read, corrected, decidedAt }

    /// Every field present (a missing reading is null) and the time in ISO 8601, so a script reads it as it is.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(workId, forKey: .workId)
        try c.encode(photoContentHash, forKey: .photoContentHash)
        try c.encode(rawText, forKey: .rawText)
        try c.encode(read, forKey: .read)
        try c.encode(corrected, forKey: .corrected)
        try c.encode(ISO8601.string(from: decidedAt), forKey: .decidedAt)
    }

    /// Reads what `encode(to:)` wrote, so a Swift tool (an evaluation of the reader) can take the listing back in.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let time = try c.decode(String.self, forKey: .decidedAt)
        guard let decided = ISO8601.date(from: time) else {
            throw DecodingError.dataCorruptedError(forKey: .decidedAt, in: c, debugDescription: "not an ISO 8601 time: \(time)")
        }
        self.init(workId: try c.decode(Work.ID.self, forKey: .workId), photoContentHash: try c.decode(String.self, forKey: .photoContentHash),
                  rawText: try c.decode(String?.self, forKey: .rawText), read: try c.decode(TitleAndAuthors.self, forKey: .read),
                  corrected: try c.decode(TitleAndAuthors.self, forKey: .corrected), decidedAt: decided)
    }
}

/// The reviewers' corrections of title and authors, from the edit decisions not undone.
public struct SplitCorrections: Encodable, Sendable, Equatable {
    /// In Work ID order, so two listings of one library compare line by line.
    public var corrections: [SplitCorrection]
    /// Edit decisions not undone, whatever they changed (an ISBN alone counts here and nowhere else).
    public var editDecisions: Int
    public var titleChanges: Int
    public var authorChanges: Int

    /// The journal kinds `init(rows:current:)` needs: the edits, and merges, whose snapshot is how a person
    /// left a Work merged away after editing it (the Work itself is gone).
    public static let journalKinds = ["edit", "merge"]

    /// - Parameters:
    ///   - rows: live rows of `journalKinds`, oldest first.
    ///   - current: the Work as stored now, nil when it is gone.
    ///
    /// The journal keeps each Work as it was before a decision, not after, so what an edit left is the Work's
    /// next snapshot in a later row, or the Work as it is now. A Work without a spine (imported, added) is no
    /// reader's split, and one edited back to what was read corrected nothing: both are counted, not listed.
    public init(rows: [LiveJournalRow], current: (Work.ID) async throws -> Work?) async throws {
        let decoder = JSONDecoder()
        let snapshots = try rows.map { row in
            Dictionary(try decoder.decode([Work].self, from: Data(row.before.utf8)).compactMap { w in w.id.map { ($0, w) } }) { a, _ in a }
        }
        // Newest first, so each edit finds the nearest later snapshot of its Work in one pass.
        var later: [Work.ID: Work] = [:]
        var afters: [Int: Work?] = [:]
        for i in rows.indices.reversed() {
            let id = rows[i].workID
            if rows[i].kind == "edit", snapshots[i][id] != nil {
                if let known = later[id] { afters[i] = .some(known) } else { afters[i] = .some(try await current(id)) }
            }
            later.merge(snapshots[i]) { $1 }
        }
        var firsts: [Work.ID: Work] = [:]
        var lasts: [Work.ID: (after: Work?, decidedAt: Date)] = [:]
        editDecisions = 0; titleChanges = 0; authorChanges = 0
        for (i, row) in rows.enumerated() {
            guard let before = snapshots[i][row.workID], let after = afters[i] else { continue }
            editDecisions += 1
            if let after {
                if after.title != before.title { titleChanges += 1 }
                if TitleAndAuthors(after).authors != TitleAndAuthors(before).authors { authorChanges += 1 }
            }
            if firsts[row.workID] == nil { firsts[row.workID] = before }
            lasts[row.workID] = (after, row.decidedAt)
        }
        corrections = firsts.keys.sorted().compactMap { id -> SplitCorrection? in
            let read = firsts[id]!
            guard let spine = read.spine, let last = lasts[id], let after = last.after else { return nil }
            let correction = SplitCorrection(workId: id, photoContentHash: spine.photoContentHash, rawText: spine.rawText,
                                             read: TitleAndAuthors(read), corrected: TitleAndAuthors(after), decidedAt: last.decidedAt)
            return correction.read == correction.corrected ? nil : correction
        }
    }
}

extension LibraryStoring {
    /// The reviewers' corrections of title and authors (`shelfscan library corrections`).
    public func splitCorrections() async throws -> SplitCorrections {
        try await SplitCorrections(rows: try await liveJournal(kinds: SplitCorrections.journalKinds)) { try await work(id: $0) }
    }
}
