import BookModel
import Foundation
import Library
import LibraryCore
import ShelfScanTestSupport
import Testing

/// `shelfscan library corrections` as a subprocess: the lines a person reads and the JSON a script reads.
@Suite struct LibraryCorrectionsTests {
    @Test(.enabled(if: ShelfscanProcess.binary != nil))
    func listsEachCorrectionAsTextAndAsPlainJSON() async throws {
        // Given the fixture's spines, one title corrected and one verified as read
        let (path, store, ids) = try await ReviewFixture.make(at: try ReviewFixture.tempDir())
        let day = Date(timeIntervalSince1970: 1_800_000_000)
        try await store.review(ReviewDecision(workID: ids[0], action: .edit(WorkEdit(title: "The Dispossessed: An Ambiguous Utopia"))),
                               defaults: ReviewDefaults(), date: day)
        try await store.review(ReviewDecision(workID: ids[2], action: .verify), defaults: ReviewDefaults(), date: day + 60)

        // When the corrections are listed as text
        let text = try ImageCommandTests.run(["library", "corrections", "--library", path])
        // Then the one correction shows the raw reading, the split read and the correction, and the summary counts
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout == """
            \(String(format: "%6lld", ids[0]))  “The Dispossessed”
                    read:      The Dispossessed — Ursula K. Le Guin
                    corrected: The Dispossessed: An Ambiguous Utopia — Ursula K. Le Guin
            1 book(s) corrected; of 1 edit(s), 1 changed the title and 0 the authors

            """)

        // When listed as JSON, each field is plain data
        let json = try ImageCommandTests.run(["library", "corrections", "--json", "--library", path])
        #expect(json.status == 0, "\(json.stderr)")
        let envelope = try JSONDecoder().decode(Envelope.self, from: Data(json.stdout.utf8))
        #expect(envelope.success && envelope.data.editDecisions == 1 && envelope.data.titleChanges == 1 && envelope.data.authorChanges == 0)
        #expect(envelope.data.corrections == [SplitCorrection(
            workId: ids[0], photoContentHash: String(repeating: "c", count: 64), rawText: "The Dispossessed",
            read: TitleAndAuthors(title: "The Dispossessed", authors: ["Ursula K. Le Guin"]),
            corrected: TitleAndAuthors(title: "The Dispossessed: An Ambiguous Utopia", authors: ["Ursula K. Le Guin"]), decidedAt: day)])
        #expect(json.stdout.contains("\"decidedAt\":\"2027-01-15T08:00:00Z\""))
    }

    /// What a script reading the output would decode.
    struct Envelope: Decodable {
        struct Listing: Decodable { var corrections: [SplitCorrection]; var editDecisions: Int; var titleChanges: Int; var authorChanges: Int }
        var success: Bool
        var data: Listing
    }
}
