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
        subcommands: [ImageCommand.self, MatchCommand.self]
    )

    public init() {}
}
