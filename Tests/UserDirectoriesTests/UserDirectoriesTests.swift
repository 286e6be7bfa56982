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
