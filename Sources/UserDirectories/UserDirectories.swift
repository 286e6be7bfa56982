import Foundation

/// Where ShelfScan keeps a person's files, by the XDG base-directory rules Linux desktops follow: the
/// variable when it is set and not empty, else its documented default under `$HOME`. One rule for every
/// caller, so the library, the models, the caches and the config file never disagree about where they are.
public enum UserDirectories {
    /// `$XDG_CACHE_HOME/shelfscan`, else `~/.cache/shelfscan`: what can be fetched or computed again.
    public static func cache(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        base("XDG_CACHE_HOME", default: ".cache", environment)
    }

    /// `$XDG_CONFIG_HOME/shelfscan`, else `~/.config/shelfscan`: settings and keys a person writes.
    public static func config(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        base("XDG_CONFIG_HOME", default: ".config", environment)
    }

    /// `$XDG_DATA_HOME/shelfscan`, else `~/.local/share/shelfscan`: what would be lost if deleted (the library).
    public static func data(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        base("XDG_DATA_HOME", default: ".local/share", environment)
    }

    private static func base(_ variable: String, default relative: String, _ environment: [String: String]) -> URL {
        let root = environment[variable].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()) as NSString).appendingPathComponent(relative)
        return URL(fileURLWithPath: root, isDirectory: true).appendingPathComponent("shelfscan", isDirectory: true)
    }
}
