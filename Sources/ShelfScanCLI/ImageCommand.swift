import ArgumentParser
import Foundation
import ShelfImage

/// `shelfscan image ...`: inspect and convert photos with the same decoder the scanner uses.
struct ImageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "image",
        abstract: "Inspect and convert shelf photos.",
        subcommands: [Info.self, Convert.self]
    )
}

extension ImageCommand {
    /// Prints `error` as one stderr line and returns the exit code to leave with. Bad input is a data
    /// error (65, sysexits' EX_DATAERR), a path we cannot open is 66 (EX_NOINPUT).
    static func report(_ error: ShelfImageError) -> ExitCode {
        FileHandle.standardError.write(Data("shelfscan: \(error.description)\n".utf8))
        switch error.code {
        case .unreadablePath: return ExitCode(66)
        case .invalidArgument: return ExitCode(64)
        case .encodingFailed: return ExitCode(70)
        default: return ExitCode(65)
        }
    }

    /// seed-004's envelope: `{success, data | error, meta}`.
    struct Envelope<Payload: Encodable>: Encodable {
        var success: Bool
        var data: Payload?
        var error: ErrorBody?
        var meta: Meta

        struct ErrorBody: Encodable {
            var message: String
            var code: String
            var details: [String: String]?
        }

        struct Meta: Encodable {
            var timestamp: String
        }

        init(data: Payload) {
            success = true
            self.data = data
            meta = Meta(timestamp: Date().ISO8601Format())
        }

        init(error: ShelfImageError, path: String) where Payload == Empty {
            success = false
            var details = ["path": path]
            if let cause = error.cause { details["cause"] = cause }
            self.error = ErrorBody(message: error.message, code: Self.screamingSnake(error.code.rawValue), details: details)
            meta = Meta(timestamp: Date().ISO8601Format())
        }

        /// `unsupportedFormat` → `UNSUPPORTED_FORMAT`, the style of seed-004's error codes.
        static func screamingSnake(_ s: String) -> String {
            var out = ""
            for ch in s {
                if ch.isUppercase { out += "_" }
                out += ch.uppercased()
            }
            return out
        }

        func encoded() -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let bytes = (try? encoder.encode(self)) ?? Data("{\"success\":false}".utf8)
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    struct Empty: Encodable {}
}
