import Foundation

/// Every folder a test run makes lives under one root per test process, removed when the process exits,
/// so a test that fails half-way (or forgets a `defer`) leaves nothing behind in the temporary directory.
public enum ScratchDirectory {
    /// `<tmp>/shelfscan-tests-<pid>`, created on first use and registered for removal at exit.
    public static let root: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("shelfscan-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: ScratchDirectory.root) }
        return url
    }()

    /// A new, empty folder under `root`.
    public static func make(_ label: String = "test") throws -> URL {
        let dir = root.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}
