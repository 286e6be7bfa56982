/// Why ONNX Runtime could not be loaded or a model could not run. The message is one line a user can act
/// on: it names the file and, where set-up fixes it, the command.
public struct OnnxRuntimeError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        case libraryMissing, libraryUnusable, wrongVersion, modelMissing, modelUnusable, call, badInput
    }

    public let code: Code
    public let message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    static let setupHint = "Run scripts/setup.sh (it fetches the pinned ONNX Runtime and PP-OCR files) or use --reader tesseract."

    public static func libraryMissing(searched: [String]) -> OnnxRuntimeError {
        OnnxRuntimeError(.libraryMissing, "ONNX Runtime library not found (looked in \(searched.joined(separator: ", "))). \(setupHint)")
    }
    static func libraryUnusable(path: String, why: String) -> OnnxRuntimeError {
        OnnxRuntimeError(.libraryUnusable, "ONNX Runtime library \(path) cannot be loaded: \(why). \(setupHint)")
    }
    static func wrongVersion(path: String, found: String) -> OnnxRuntimeError {
        OnnxRuntimeError(.wrongVersion, "ONNX Runtime \(found) at \(path) is too old (API \(ortRequestedAPIVersion) or newer is needed). \(setupHint)")
    }
    public static func modelMissing(_ path: String) -> OnnxRuntimeError {
        OnnxRuntimeError(.modelMissing, "Model file \(path) not found. \(setupHint)")
    }
    static func modelUnusable(_ path: String, _ why: String) -> OnnxRuntimeError {
        OnnxRuntimeError(.modelUnusable, "Model file \(path) cannot be used: \(why). Run scripts/setup.sh to fetch it again.")
    }
    static func call(_ call: String, _ message: String) -> OnnxRuntimeError {
        OnnxRuntimeError(.call, "ONNX Runtime \(call) failed: \(message)")
    }
    public static func badInput(_ message: String) -> OnnxRuntimeError {
        OnnxRuntimeError(.badInput, message)
    }
}
