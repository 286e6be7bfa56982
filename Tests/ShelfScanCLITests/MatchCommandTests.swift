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

    @Test func aMissingCatalogueFailsWithOneClearLine() throws {
        var command = try #require(try Shelfscan.parseAsRoot(["match", "--catalog", "/nonexistent/b.csv", "x"]) as? MatchCommand)
        do {
            try command.run()
            Issue.record("expected an error")
        } catch {
            let message = Shelfscan.message(for: error)
            #expect(message.contains("/nonexistent/b.csv"))
            #expect(!message.contains("\n"))
            #expect(Shelfscan.exitCode(for: error) != .success)
        }
        _ = command
    }
}
