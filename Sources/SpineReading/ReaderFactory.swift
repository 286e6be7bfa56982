import Foundation
import PPOCR

/// Builds the reader a configuration asks for, so the CLI needs one call and one error path.
public enum ReaderFactory {
    /// The spine reader, wrapped in the cache when `cacheDirectory` is set. Throws one `ReaderError` with a
    /// fix in its message: missing tessdata (names `tesseract-ocr-eng`), missing key, bad endpoint.
    public static func make(
        _ configuration: ReaderConfiguration,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> any SpineReader {
        let reader: any SpineReader
        let model: String?
        let version: String?
        switch configuration.kind {
        case .tesseract:
            let t = try TesseractReader(
                language: configuration.language, dataPath: configuration.tessdataPath,
                concurrency: configuration.concurrency)
            (reader, model, version) = (t, t.model, t.promptVersion)
        case .ppocr:
            let directory = configuration.modelsDirectory ?? PPOCRModels.defaultDirectory(environment: environment)
            let models: PPOCRModels
            do { models = try PPOCRModels.inDirectory(directory) } catch { throw ReaderError.ocrEngine(error.message) }
            let r = try PPOCRReader(models: models, concurrency: configuration.concurrency)
            (reader, model, version) = (r, r.model, r.promptVersion)
        case .openai:
            let r = try OpenAIVisionReader(configuration: configuration, key: try key(for: configuration, environment))
            (reader, model, version) = (r, r.model, r.promptVersion)
        case .gemini:
            let r = try GeminiReader(configuration: configuration, key: try key(for: configuration, environment))
            (reader, model, version) = (r, r.model, r.promptVersion)
        }
        guard let directory = configuration.cacheDirectory else { return reader }
        return CachingReader(base: reader, cache: ReadingCache(directory: directory), model: model, promptVersion: version)
    }

    /// The whole-photo reader (vision kinds only).
    public static func makeWholePhoto(
        _ configuration: ReaderConfiguration,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> any WholePhotoReader {
        switch configuration.kind {
        case .tesseract, .ppocr:
            throw ReaderError.invalidConfiguration("Whole-photo mode needs a vision reader: use --reader openai or --reader gemini")
        case .openai:
            return try OpenAIVisionReader(configuration: configuration, key: try key(for: configuration, environment))
        case .gemini:
            return try GeminiReader(configuration: configuration, key: try key(for: configuration, environment))
        }
    }

    /// The public services need a key; a custom endpoint (Ollama, vLLM, a proxy) may not, so there a
    /// missing key is sent as no header and the server decides.
    static func key(for configuration: ReaderConfiguration, _ environment: [String: String]) throws -> APIKey? {
        let key = APIKeyResolver.resolve(for: configuration.kind, environment: environment)
        let isPublic = configuration.endpoint == nil
            || configuration.endpoint?.host?.hasSuffix("openai.com") == true
            || configuration.endpoint?.host?.hasSuffix("googleapis.com") == true
        if key == nil && isPublic {
            throw ReaderError.missingAPIKey(configuration.kind.rawValue, variable: APIKeyResolver.variable(for: configuration.kind))
        }
        return key
    }
}
