import BookModel
import Foundation
import Library
import LibraryCore
import LibraryTestSupport
import Testing

/// The reviewers' corrections of the reader's title/author split, the same on both engines.
@Suite struct SharedCorrectionSuite {
    func read(_ raw: String, _ title: String, _ authors: [String], position: Int) -> SpineFiling {
        var s = spine(title, authors: authors, position: position)
        s.rawText = raw
        return s
    }

    @Test(arguments: Engine.available)
    func listsTheLiveEditsThatChangedTitleOrAuthorsWithWhatWasRead(engine: Engine) async throws {
        // Given four spines as the reader split them
        let store = try await engine.makeStore()
        let ids = try await store.file(photo(hash(7), [
            read("KINDRED OCTAVIA E. BUTLER", "Kindred", ["Octavia E. Butler"], position: 0),
            read("THE DISPOSSESED URSULA K. LE GUIN", "The Dispossesed", ["Ursula K. Le Guin"], position: 1),
            read("NOISE KAHNEMAN SIBONY SUNSTEIN", "Noise", ["Kahneman Sibony Sunstein"], position: 2),
            read("DUNE FRANK HERBERT", "Dune", ["Frank Herbert"], position: 3),
        ]))
        let day = Date(timeIntervalSince1970: 1_800_000_000)
        // When one is verified as read, one has its title edited, one its authors, and one is edited then undone
        _ = try await store.review(ReviewDecision(workID: ids[0], action: .verify), defaults: ReviewDefaults(), date: day)
        _ = try await store.review(ReviewDecision(workID: ids[1], action: .edit(WorkEdit(title: "The Dispossessed"))),
                               defaults: ReviewDefaults(), date: day + 60)
        _ = try await store.review(ReviewDecision(workID: ids[2], action: .edit(WorkEdit(authors: ["Daniel Kahneman", "Olivier Sibony", "Cass R. Sunstein"]))),
                               defaults: ReviewDefaults(), date: day + 120)
        _ = try await store.review(ReviewDecision(workID: ids[3], action: .edit(WorkEdit(title: "Dune Messiah"))), defaults: ReviewDefaults(), date: day + 180)
        _ = try await store.undoLast(session: nil, date: day + 240)

        // Then exactly the two live edits are listed, each with the raw reading, the split read and the correction
        let found = try await store.splitCorrections()
        #expect(found.corrections == [
            SplitCorrection(workId: ids[1], photoContentHash: hash(7), rawText: "THE DISPOSSESED URSULA K. LE GUIN",
                            read: TitleAndAuthors(title: "The Dispossesed", authors: ["Ursula K. Le Guin"]),
                            corrected: TitleAndAuthors(title: "The Dispossessed", authors: ["Ursula K. Le Guin"]), decidedAt: day + 60),
            SplitCorrection(workId: ids[2], photoContentHash: hash(7), rawText: "NOISE KAHNEMAN SIBONY SUNSTEIN",
                            read: TitleAndAuthors(title: "Noise", authors: ["Kahneman Sibony Sunstein"]),
                            corrected: TitleAndAuthors(title: "Noise", authors: ["Daniel Kahneman", "Olivier Sibony", "Cass R. Sunstein"]),
                            decidedAt: day + 120),
        ])
        #expect(found.editDecisions == 2 && found.titleChanges == 1 && found.authorChanges == 1)
    }

    @Test(arguments: Engine.available)
    func aWorkEditedTwiceThenMergedAwayKeepsItsFirstReadingAndItsLastCorrection(engine: Engine) async throws {
        // Given two spines, one read badly
        let store = try await engine.makeStore()
        let ids = try await store.file(photo(hash(8), [read("KINDRD BUTLER", "Kindrd", ["Butler"], position: 0),
                                                       read("KINDRED OCTAVIA E. BUTLER", "Kindred", ["Octavia E. Butler"], position: 1)]))
        let day = Date(timeIntervalSince1970: 1_800_000_000)
        // When its title is corrected, then its authors, and it is then merged into the other (and so deleted)
        _ = try await store.review(ReviewDecision(workID: ids[0], action: .edit(WorkEdit(title: "Kindred"))), defaults: ReviewDefaults(), date: day)
        _ = try await store.review(ReviewDecision(workID: ids[0], action: .edit(WorkEdit(authors: ["Octavia Butler"]))),
                                   defaults: ReviewDefaults(), date: day + 60)
        _ = try await store.review(ReviewDecision(workID: ids[0], action: .merge(into: ids[1])), defaults: ReviewDefaults(), date: day + 120)
        #expect(try await store.work(id: ids[0]) == nil)

        // Then it is listed once: read as filed, corrected as the person left it before the merge
        let found = try await store.splitCorrections()
        #expect(found.corrections == [
            SplitCorrection(workId: ids[0], photoContentHash: hash(8), rawText: "KINDRD BUTLER",
                            read: TitleAndAuthors(title: "Kindrd", authors: ["Butler"]),
                            corrected: TitleAndAuthors(title: "Kindred", authors: ["Octavia Butler"]), decidedAt: day + 60),
        ])
        #expect(found.editDecisions == 2 && found.titleChanges == 1 && found.authorChanges == 1)
    }
}
