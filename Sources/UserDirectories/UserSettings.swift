import Foundation

/// The settings a person writes once, in the environment or in `config.json` in the config directory: the
/// keys and passwords that must never be given on the command line, where `ps` and shell history would show
/// them. One reader for every such setting (the vision readers' keys, Google Books' key, the PostgreSQL
/// password), so they are all found in the same file by the same rules.
public enum UserSettings {
    /// `$XDG_CONFIG_HOME/shelfscan/config.json`, else `~/.config/shelfscan/config.json`.
    public static func configPath(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        UserDirectories.config(environment).appendingPathComponent("config.json").path
    }

    /// The first of `variables` set in `environment`, else the first of `fields` set in the config file (a JSON
    /// object of strings); nil when none is. A blank value counts as unset, so an empty `export` does not hide
    /// the file. The file is read only when no variable answers, and an unreadable or malformed one counts as
    /// empty: a missing setting is reported by the caller, in the caller's words.
    public static func value(variables: [String], fields: [String],
                             environment: [String: String] = ProcessInfo.processInfo.environment,
                             configPath: String? = nil) -> String? {
        if let value = variables.lazy.compactMap({ environment[$0] }).first(where: isSet) { return value }
        let path = configPath ?? Self.configPath(environment)
        guard !fields.isEmpty, let data = FileManager.default.contents(atPath: path),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return fields.lazy.compactMap { object[$0] as? String }.first(where: isSet)
    }

    private static func isSet(_ value: String) -> Bool {
        !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    }
}
