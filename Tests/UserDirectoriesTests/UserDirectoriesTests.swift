import Foundation
import Testing
import UserDirectories

@Suite struct UserDirectoriesTests {
    @Test func theVariableWinsAndAnEmptyOneFallsBackToHome() {
        let env = ["HOME": "/home/u", "XDG_CACHE_HOME": "/c", "XDG_CONFIG_HOME": "", "XDG_DATA_HOME": "/d/"]
        #expect(UserDirectories.cache(env).path == "/c/shelfscan")
        #expect(UserDirectories.config(env).path == "/home/u/.config/shelfscan")
        #expect(UserDirectories.data(env).path == "/d/shelfscan")
        #expect(UserDirectories.data(["HOME": "/home/u"]).appendingPathComponent("library.sqlite").path
                == "/home/u/.local/share/shelfscan/library.sqlite")
    }
}

@Suite struct UserSettingsTests {
    /// A config directory holding `config.json` with `text`, as a person would write it.
    func configHome(_ text: String) throws -> URL {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("shelfscan-settings-\(UUID().uuidString)")
        let file = home.appendingPathComponent("shelfscan/config.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return home
    }

    @Test func theEnvironmentWinsThenTheFileInTheOrderAsked() throws {
        let home = try configHome(#"{"gemini_api_key": "g-file", "api_key": "generic", "postgres_password": " p w ", "n": 3}"#)
        defer { try? FileManager.default.removeItem(at: home) }
        let env = ["XDG_CONFIG_HOME": home.path]
        #expect(UserSettings.configPath(env) == home.appendingPathComponent("shelfscan/config.json").path)
        // A variable wins over the file; the first variable set wins over the next.
        #expect(UserSettings.value(variables: ["A", "B"], fields: ["api_key"], environment: env.merging(["B": "b", "A": "a"]) { x, _ in x }) == "a")
        // A blank variable does not hide the file; fields are tried in order; a value is kept as written.
        #expect(UserSettings.value(variables: ["A"], fields: ["gemini_api_key", "api_key"], environment: env.merging(["A": "  "]) { x, _ in x }) == "g-file")
        #expect(UserSettings.value(variables: [], fields: ["openai_api_key", "api_key"], environment: env) == "generic")
        #expect(UserSettings.value(variables: ["PGPASSWORD"], fields: ["postgres_password"], environment: env) == " p w ")
        // A field that is not a string is not a setting.
        #expect(UserSettings.value(variables: [], fields: ["n"], environment: env) == nil)
    }

    @Test func aMissingOrMalformedFileIsNoSetting() throws {
        let home = try configHome("{not json")
        defer { try? FileManager.default.removeItem(at: home) }
        #expect(UserSettings.value(variables: ["A"], fields: ["api_key"], environment: ["XDG_CONFIG_HOME": home.path]) == nil)
        #expect(UserSettings.value(variables: [], fields: ["api_key"], environment: ["XDG_CONFIG_HOME": "/nonexistent"]) == nil)
        let other = try configHome(#"{"api_key": "from-the-path-given"}"#)
        defer { try? FileManager.default.removeItem(at: other) }
        #expect(UserSettings.value(variables: [], fields: ["api_key"], environment: ["XDG_CONFIG_HOME": home.path],
                                   configPath: other.appendingPathComponent("shelfscan/config.json").path) == "from-the-path-given")
    }
}
