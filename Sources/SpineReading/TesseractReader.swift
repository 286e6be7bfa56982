import Foundation
import ShelfImage

/// The embedded default reader: libtesseract, offline, no key. Each crop is tried in both reading
/// directions and the more confident one kept; title and authors are split from the layout.
public final class TesseractReader: SpineReader {
    public let name = "tesseract"
    /// `tesseract-5.3.0/eng`: part of the cache key, so a new Tesseract or language is a cache miss.
    public let model: String
    /// The version of the recognition recipe (`TesseractOptions`), recorded like a prompt version.
    public let promptVersion: String
    public let options: TesseractOptions
    private let pool: EngineThreadPool

    /// Throws `ReaderError.missingLanguageData` (naming the Debian package) when tessdata is absent.
    public init(language: String = "eng", dataPath: String? = nil, concurrency: Int = 4, options: TesseractOptions = TesseractOptions()) throws {
        let path = dataPath ?? TesseractEngine.defaultDataPath(language: language)
        pool = try EngineThreadPool(size: concurrency, dataPath: path, language: language)
        model = "tesseract-\(TesseractEngine.version)/\(language)"
        self.options = options
        promptVersion = options == TesseractOptions() ? "ocr-v1" : "ocr-custom"
    }

    deinit { pool.close() }

    public func read(_ crops: [SpineCrop]) async -> [Reading] {
        let options = self.options, model = self.model, version = self.promptVersion
        return await withTaskGroup(of: (Int, Reading).self) { group in
            for (i, crop) in crops.enumerated() {
                group.addTask {
                    let reading = await self.pool.perform { engine in
                        let (split, raw) = SpineOCR.read(crop.image, engine: engine, options: options)
                        return Reading.fromSplit(split, spineID: crop.id, rawText: raw, reader: "tesseract", model: model,
                                                 promptVersion: version)
                    }
                    return (i, reading)
                }
            }
            var out = [Reading?](repeating: nil, count: crops.count)
            for await (i, r) in group { out[i] = r }
            return out.map { $0! }
        }
    }
}
