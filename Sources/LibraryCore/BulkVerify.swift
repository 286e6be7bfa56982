import BookModel

/// Bulk verify: one photo's (or one shelf row's) pending Works read at or above a confidence, each verified as
/// read, in one journal entry that one undo takes back. `shelfscan review`'s bulk menu and the server's
/// `POST /v3/review/bulk-verify` both pick the Works and word the entry here, so the two doors cannot take
/// different books at the same bar.
public enum BulkVerify {
    /// Whether bulk verify at `threshold` takes `work`: on `row` (nil: any row of its photo), read at or above the
    /// bar, and verifiable as read (an unread or invalid reading needs a person's edit, never a bulk one).
    /// The bar has a hair of slack because it moves in steps of 0.05 and 0.8 must take a reading of 0.8.
    public static func takes(_ work: Work, row: Int?, threshold: Double) -> Bool {
        (row == nil || work.spine?.row == row) && (work.spine?.readingConfidence ?? 0) >= threshold - 1e-9
            && work.validationIssues(forVerification: true).isEmpty
    }

    /// The decisions for the Works `takes` keeps, each naming the revision it was loaded at, so a Work another
    /// reviewer changed since makes the whole batch a conflict instead of verifying over that change.
    public static func decisions(_ works: [Work], row: Int?, threshold: Double, session: String) -> [ReviewDecision] {
        works.filter { takes($0, row: row, threshold: threshold) }.compactMap { w in
            w.id.map { ReviewDecision(workID: $0, action: .verify, expectedRevision: w.revision, session: session) }
        }
    }

    /// The journal entry's words: "verified 3 of shelf 2 read at 80% or better" (rows count from 1 here).
    public static func summary(count: Int, row: Int?, threshold: Double) -> String {
        "verified \(count) of \(row.map { "shelf \($0 + 1)" } ?? "this photo") read at \(Int((threshold * 100).rounded()))% or better"
    }
}
