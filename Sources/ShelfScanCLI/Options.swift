import ArgumentParser
import Foundation
import UserDirectories

/// `--library PATH`, shared by every command that opens the library.
struct LibraryOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The library: a SQLite file, or a shared one on PostgreSQL (postgres://user@host:5432/database).",
            discussion: "Default: $SHELFSCAN_LIBRARY, else $XDG_DATA_HOME/shelfscan/library.sqlite, else ~/.local/share/shelfscan/library.sqlite. The PostgreSQL password comes from $PGPASSWORD, else \"postgres_password\" in $XDG_CONFIG_HOME/shelfscan/config.json; never from the URL. ?statement_timeout=SECONDS bounds each wait on the server (default 120).",
            valueName: "path-or-url"),
        completion: .file(extensions: ["sqlite"]))
    var library: String?

    /// The path to open: the flag, else `$SHELFSCAN_LIBRARY`, else the XDG data location.
    func resolvedPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let library, !library.isEmpty { return library }
        if let path = environment["SHELFSCAN_LIBRARY"], !path.isEmpty { return path }
        return UserDirectories.data(environment).appendingPathComponent("library.sqlite").path
    }
}

/// `--json` and `--quiet`, shared by every command that prints results.
struct OutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Print JSON instead of text (one line per result when there are several; the README describes the fields).")
    var json = false

    @Flag(name: .shortAndLong, help: "Print results only: no progress, no summary.")
    var quiet = false
}
