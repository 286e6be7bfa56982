import ArgumentParser
import ShelfImage

/// `shelfscan image ...`: inspect and convert photos with the same decoder the scanner uses.
struct ImageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "image",
        abstract: "Inspect and convert shelf photos.",
        subcommands: []
    )
}
