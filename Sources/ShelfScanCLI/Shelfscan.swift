import Foundation
import ArgumentParser

/// The root command holds configuration only; each subcommand lives in its own file.
public struct Shelfscan: AsyncParsableCommand {
    public static let version = "0.1.0"

    public static let configuration = CommandConfiguration(
        commandName: "shelfscan",
        abstract: "Turn photos of bookshelves into a reviewed book library.",
        discussion: """
            Scan a photo, then review what was read:
              shelfscan scan shelf.jpg
              shelfscan review
            """,
        version: version,
        subcommands: [ScanCommand.self, ReviewCommand.self, LibraryCommand.self, FindCommand.self, MatchCommand.self, ImageCommand.self, ServeCommand.self]
    )

    public init() {}

    /// The entry point. Like `main()`, except that a usage error exits with status 2, as `scan`
    /// promises (ArgumentParser's default is 64), so scripts can tell "you typed it wrong" (2) from
    /// "some photos failed" (1).
    public static func runMain(_ arguments: [String]? = nil) async -> Never {
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            exit(withError: nil)
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}
