import Catalog
import Foundation
import Testing
@testable import ShelfScanCLI

@Suite struct MatchCommandTests {
    @Test func parsesOptionsAndReadings() throws {
        let command = try Shelfscan.parseAsRoot(["match", "--catalog", "books.csv", "--top", "3", "--json", "CIEN AÑOS", "GOYA"])
        let match = try #require(command as? MatchCommand)
        #expect(match.catalog == "books.csv")
        #expect(match.top == 3)
        #expect(match.json)
        #expect(match.text == ["CIEN AÑOS", "GOYA"])
    }

    @Test func rejectsAZeroTopAndAMissingReading() {
        #expect(throws: (any Error).self) { try Shelfscan.parseAsRoot(["match", "--catalog", "b.csv", "--top", "0", "x"]) }
        #expect(throws: (any Error).self) { try Shelfscan.parseAsRoot(["match", "--catalog", "b.csv"]) }
    }

    @Test func jsonLinesListMatchesBestFirst() throws {
        let catalog = Catalog(entries: [
            CatalogEntry(title: "La Bella salvaje", authors: ["Pullman, Philip"], isbn: "9788417092986", tag: "JN Pul"),
            CatalogEntry(title: "La Bella durmiente", authors: ["Perrault, Charles"], tag: "I** Per"),
        ])
        let index = CatalogIndex(catalog)
        let query = "PULLMAN LA BELLA SALVAJE JN Pul"
        let line = MatchCommand.jsonLine(query: query, matches: index.match(query, top: 2))
        #expect(!line.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["query"] as? String == query)
        let matches = try #require(object["matches"] as? [[String: Any]])
        #expect(matches.count == 2)
        #expect(matches[0]["isbn"] as? String == "9788417092986")
        #expect(matches[0]["author"] as? String == "Pullman, Philip")
        #expect(matches[0]["tag"] as? String == "JN Pul")
        let scores = matches.compactMap { $0["score"] as? Double }
        #expect(scores.count == 2 && scores[0] >= scores[1])
    }

    @Test func aMissingCatalogueFailsWithOneClearLine() throws {
        let command = try #require(try Shelfscan.parseAsRoot(["match", "--catalog", "/nonexistent/b.csv", "x"]) as? MatchCommand)
        do {
            try command.run()
            Issue.record("expected an error")
        } catch {
            let message = Shelfscan.message(for: error)
            #expect(message.contains("/nonexistent/b.csv"))
            #expect(!message.contains("\n"))
            #expect(Shelfscan.exitCode(for: error) != .success)
        }
    }
}
