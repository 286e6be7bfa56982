import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the real `shelfscan` binary as a subprocess, for tests of what a user or a script sees: exit
/// status, stdout, stderr, signals.
public enum ShelfscanProcess {
    /// The `shelfscan` built next to the test bundle (`swift build --build-tests` builds every product).
    public static let binary: URL? = {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [dir, dir.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("shelfscan")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }()

    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        public var signalled: Bool
        public var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
        public var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
    }

    public struct NotBuilt: Error, CustomStringConvertible {
        public var description: String { "shelfscan is not built next to the tests; run `swift build --build-tests`" }
    }

    /// Runs to completion. `environment` entries are added to (or override) this process's environment.
    public static func run(_ arguments: [String], environment: [String: String] = [:], stdin: Data? = nil) throws -> Result {
        let process = try makeProcess(arguments, environment: environment)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try process.run()
        if let stdin {
            input.fileHandleForWriting.write(stdin)
            try? input.fileHandleForWriting.close()
        }
        // Read both pipes at once, so a chatty child never blocks on a full pipe.
        let errBox = DataBox()
        let done = DispatchSemaphore(value: 0)
        let errHandle = err.fileHandleForReading
        DispatchQueue.global().async {
            errBox.data = readAll(errHandle)
            done.signal()
        }
        let outData = readAll(out.fileHandleForReading)
        done.wait()
        let errData = errBox.data
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self), signalled: process.terminationReason == .uncaughtSignal)
    }

    /// Reads a pipe to its end with read(2), retrying on EINTR. Foundation's readDataToEndOfFile()
    /// traps on an interrupted read, which a test run full of child processes (SIGCHLD) does hit.
    public static func readAll(_ handle: FileHandle) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let fd = handle.fileDescriptor
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 { data.append(contentsOf: buffer[0..<n]); continue }
            if n < 0 && errno == EINTR { continue }
            return data
        }
    }

    /// Written by one reader thread before the semaphore is signalled, read only after the wait.
    private final class DataBox: @unchecked Sendable { var data = Data() }

    /// A started process whose stderr is read line by line, for tests that act mid-run (kill -9).
    public static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> (Process, FileHandle) {
        let process = try makeProcess(arguments, environment: environment)
        let err = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, err.fileHandleForReading)
    }

    static func makeProcess(_ arguments: [String], environment: [String: String]) throws -> Process {
        guard let binary else { throw NotBuilt() }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        // A test that moves the cache directory (to isolate a reading or enrichment cache) still means the
        // models `scripts/setup.sh` fetched: without them `scan` would detect without the text cue, and the
        // test would compare two different detectors.
        if environment["XDG_CACHE_HOME"] != nil, environment["SHELFSCAN_MODELS_DIR"] == nil, env["SHELFSCAN_MODELS_DIR"] == nil {
            let cache = env["XDG_CACHE_HOME"].map { URL(fileURLWithPath: $0) }
                ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
            env["SHELFSCAN_MODELS_DIR"] = cache.appendingPathComponent("shelfscan/models").path
        }
        for (key, value) in environment { env[key] = value }
        process.environment = env
        return process
    }

    /// A fresh temporary directory (under `ScratchDirectory.root`, removed at exit).
    public static func temporaryDirectory(_ label: String = "shelfscan-test") throws -> URL {
        try ScratchDirectory.make(label)
    }
}
