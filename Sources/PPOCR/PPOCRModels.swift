import Foundation
import OnnxRuntime
import ShelfModels
import UserDirectories

/// Where the pinned ONNX Runtime library and PP-OCR model files live on this machine.
///
/// `scripts/fetch-models.py` puts them in the model cache from the manifest `models/ocr/ppocr.json`;
/// this reads the same manifest, so the script and the binary cannot disagree on a file name or version.
public struct PPOCRModels: Sendable, Equatable {
    public var runtimeLibrary: String
    public var detector: String
    public var recognizer: String
    public var dictionary: String
    /// `ppocr-v5det-v6rec`: recorded with each reading, so a new model is a cache miss.
    public var name: String

    public init(runtimeLibrary: String, detector: String, recognizer: String, dictionary: String, name: String) {
        self.runtimeLibrary = runtimeLibrary
        self.detector = detector
        self.recognizer = recognizer
        self.dictionary = dictionary
        self.name = name
    }

    /// The model cache: `SHELFSCAN_MODELS_DIR`, else `$XDG_CACHE_HOME/shelfscan/models`, else
    /// `~/.cache/shelfscan/models` (what `scripts/fetch-models.py` writes to by the same rule).
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let dir = environment["SHELFSCAN_MODELS_DIR"], !dir.isEmpty { return URL(fileURLWithPath: dir, isDirectory: true) }
        return UserDirectories.cache(environment).appendingPathComponent("models", isDirectory: true)
    }

    /// The files the manifest names, under `directory`. Does not check that they exist: loading does, with
    /// a message that says how to fetch them.
    public static func inDirectory(_ directory: URL) throws(OnnxRuntimeError) -> PPOCRModels {
        struct Manifest: Decodable {
            struct Wheel: Decodable { var extract: [Member] }
            struct Member: Decodable { var role: String; var to: String }
            var name: String
            var wheels: [Wheel]
        }
        let manifest: Manifest
        do {
            manifest = try JSONDecoder().decode(Manifest.self, from: ShelfModels.data("ppocr.json", in: "ocr"))
        } catch {
            throw .modelMissing("models/ocr/ppocr.json (shipped with ShelfScan)")
        }
        var byRole: [String: String] = [:]
        for member in manifest.wheels.flatMap(\.extract) {
            byRole[member.role] = directory.appendingPathComponent(member.to).path
        }
        guard let runtime = byRole["runtime"], let det = byRole["detector"], let rec = byRole["recognizer"],
              let dict = byRole["dictionary"] else {
            throw .modelMissing("an entry of models/ocr/ppocr.json")
        }
        return PPOCRModels(runtimeLibrary: runtime, detector: det, recognizer: rec, dictionary: dict, name: manifest.name)
    }
}
