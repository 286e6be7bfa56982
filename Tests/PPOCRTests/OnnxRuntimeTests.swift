import Foundation
import OnnxRuntime
import PPOCR
import ShelfImage
import ShelfScanTestSupport
import Testing

/// The real ONNX Runtime library and PP-OCR models that `scripts/setup.sh` fetches (pinned, hash-checked).
enum Engine {
    static let models: PPOCRModels? = try? PPOCRModels.inDirectory(PPOCRModels.defaultDirectory())
    static let runtime: OnnxRuntime? = models.flatMap { try? OnnxRuntime.load(libraryPath: $0.runtimeLibrary) }
    static let detector: TextDetector? = {
        guard let models, let runtime else { return nil }
        return (try? OnnxSession(runtime: runtime, modelPath: models.detector)).map { TextDetector(session: $0) }
    }()
    static let recognizer: TextRecognizer? = {
        guard let models, let runtime, let session = try? OnnxSession(runtime: runtime, modelPath: models.recognizer) else { return nil }
        return try? TextRecognizer(session: session, dictionaryPath: models.dictionary)
    }()
    static let missing: Comment = "the ONNX Runtime library and PP-OCR models are fetched by scripts/setup.sh (scripts/fetch-models.py)"
}

@Suite("ONNX Runtime binding")
struct OnnxRuntimeTests {
    @Test("Loads the pinned library through its C API and reports its version")
    func loads() throws {
        let runtime = try #require(Engine.runtime, Engine.missing)
        #expect(runtime.version == "1.32.0")
        // Loading the same path again shares the process's one environment.
        #expect(try OnnxRuntime.load(libraryPath: runtime.libraryPath) === runtime)
    }

    @Test("A missing library is one line naming the path and the set-up command")
    func missingLibrary() {
        #expect {
            _ = try OnnxRuntime.load(libraryPath: "/nonexistent/libonnxruntime.so.1")
        } throws: { error in
            let text = "\(error)"
            return text.contains("/nonexistent/libonnxruntime.so.1") && text.contains("scripts/setup.sh") && !text.contains("\n")
        }
    }

    @Test("A file that is not ONNX Runtime is refused, not loaded")
    func notTheRuntime() throws {
        let scratch = try ScratchDirectory.make("ort-notlib")
        let fake = scratch.appendingPathComponent("libonnxruntime.so.1")
        try Data("not a shared library".utf8).write(to: fake)
        #expect {
            _ = try OnnxRuntime.load(libraryPath: fake.path)
        } throws: { error in
            (error as? OnnxRuntimeError)?.code == .libraryUnusable && "\(error)".contains(fake.path)
        }
    }

    @Test("A corrupt or missing model file is one clear error, and the process goes on")
    func corruptModel() throws {
        let runtime = try #require(Engine.runtime, Engine.missing)
        let scratch = try ScratchDirectory.make("ort-corrupt")
        let bad = scratch.appendingPathComponent("det.onnx")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: bad)
        #expect {
            _ = try OnnxSession(runtime: runtime, modelPath: bad.path)
        } throws: { error in
            (error as? OnnxRuntimeError)?.code == .modelUnusable && "\(error)".contains(bad.path) && !"\(error)".contains("\n")
        }
        #expect {
            _ = try OnnxSession(runtime: runtime, modelPath: scratch.appendingPathComponent("absent.onnx").path)
        } throws: { error in
            (error as? OnnxRuntimeError)?.code == .modelMissing
        }
        // A truncated copy of the real model fails the same way.
        let models = try #require(Engine.models)
        let real = try Data(contentsOf: URL(fileURLWithPath: models.detector))
        let truncated = scratch.appendingPathComponent("truncated.onnx")
        try real.prefix(real.count / 3).write(to: truncated)
        #expect(throws: OnnxRuntimeError.self) { _ = try OnnxSession(runtime: runtime, modelPath: truncated.path) }
    }

    @Test("A wrong input shape is an error value from Run, not a crash")
    func wrongShape() throws {
        let runtime = try #require(Engine.runtime, Engine.missing)
        let models = try #require(Engine.models)
        let session = try OnnxSession(runtime: runtime, modelPath: models.recognizer)
        #expect(session.inputNames.count == 1)
        // The recognizer wants 3 channels and a height of 48.
        #expect(throws: OnnxRuntimeError.self) {
            _ = try session.run(Tensor(shape: [1, 2, 10, 10], values: [Float](repeating: 0, count: 200)))
        }
        #expect(throws: OnnxRuntimeError.self) {
            _ = try session.run(Tensor(shape: [1, 3, 48, 10], values: [0]))
        }
    }
}
