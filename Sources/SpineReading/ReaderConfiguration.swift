import Foundation
import UserDirectories

/// Everything needed to build a reader. Every field has a default, so `ReaderConfiguration()` is the
/// offline Tesseract reader and `ReaderConfiguration(kind: .openai, endpoint: ..., model: ...)` a local
/// vision server. The API key is not a field: it is resolved from the environment or the config file
/// (`APIKeyResolver`) so that it can never come from argv.
public struct ReaderConfiguration: Sendable {
    public enum Kind: String, Sendable, CaseIterable, Codable {
        case tesseract, ppocr, openai, gemini
    }

    /// Default `.tesseract`: works offline on a fresh machine.
    public var kind: Kind
    /// Base URL. Default: `https://api.openai.com/v1` for openai (requests go to `{endpoint}/chat/completions`),
    /// `https://generativelanguage.googleapis.com` for gemini (`{endpoint}/v1beta/models/{model}:generateContent`).
    public var endpoint: URL?
    /// Default `gpt-4o-mini` for openai, `gemini-2.0-flash` for gemini; ignored by tesseract.
    public var model: String?
    /// One attempt's limit. Default 60 s.
    public var timeout: Duration
    /// Further attempts after a transient fault (429, 5xx, timeout, dropped connection, unusable answer). Default 3.
    public var maxRetries: Int
    /// First backoff delay; doubles per attempt, each wait drawn from its upper half (jitter, so many
    /// clients rate-limited together do not retry in step). Default 0.5 s.
    public var retryBaseDelay: Duration
    /// Longest single wait, including an endpoint's `Retry-After`. Default 30 s.
    public var retryMaxDelay: Duration
    /// Crops per vision call. Default 8: a shelf of 40 spines costs 5 calls.
    public var batchSize: Int
    /// Calls (or Tesseract engines) in flight at once, shared by every photo read through one reader. Default 4.
    public var concurrency: Int
    /// Where cached readings live; nil (default) disables the cache.
    public var cacheDirectory: URL?
    /// Ask the vision endpoint for every book on the whole photo in one call instead of reading crops. Default false.
    public var wholePhoto: Bool
    /// Replies larger than this fail instead of filling memory. Default 4 MiB.
    public var maxResponseBytes: Int
    /// The prompt profile under models/prompts. Default `spine-v1.json`.
    public var promptFile: String
    /// The whole-photo prompt profile under models/prompts. Default `photo-v1.json`.
    public var photoPromptFile: String
    /// JPEG quality of the crops sent to vision endpoints. Default 85.
    public var jpegQuality: Int
    /// Tesseract language(s), e.g. `eng` or `eng+spa`. Default `eng`.
    public var language: String
    /// Tesseract data directory; nil (default) means `TESSDATA_PREFIX` or the Debian location.
    public var tessdataPath: String?
    /// Where the ONNX Runtime library and PP-OCR models are; nil (default) means the model cache
    /// `scripts/setup.sh` fills (`SHELFSCAN_MODELS_DIR` or `~/.cache/shelfscan/models`).
    public var modelsDirectory: URL?

    public init(
        kind: Kind = .tesseract, endpoint: URL? = nil, model: String? = nil, timeout: Duration = .seconds(60),
        maxRetries: Int = 3, retryBaseDelay: Duration = .milliseconds(500), retryMaxDelay: Duration = .seconds(30),
        batchSize: Int = 8, concurrency: Int = 4, cacheDirectory: URL? = nil, wholePhoto: Bool = false,
        maxResponseBytes: Int = 4 << 20, promptFile: String = "spine-v1.json", photoPromptFile: String = "photo-v1.json",
        jpegQuality: Int = 85, language: String = "eng", tessdataPath: String? = nil, modelsDirectory: URL? = nil
    ) {
        self.modelsDirectory = modelsDirectory
        self.kind = kind
        self.endpoint = endpoint
        self.model = model
        self.timeout = timeout
        self.maxRetries = maxRetries
        self.retryBaseDelay = retryBaseDelay
        self.retryMaxDelay = retryMaxDelay
        self.batchSize = batchSize
        self.concurrency = concurrency
        self.cacheDirectory = cacheDirectory
        self.wholePhoto = wholePhoto
        self.maxResponseBytes = maxResponseBytes
        self.promptFile = promptFile
        self.photoPromptFile = photoPromptFile
        self.jpegQuality = jpegQuality
        self.language = language
        self.tessdataPath = tessdataPath
    }

    public static let defaultOpenAIEndpoint = URL(string: "https://api.openai.com/v1")!
    public static let defaultGeminiEndpoint = URL(string: "https://generativelanguage.googleapis.com")!

    /// The endpoint actually used.
    public var resolvedEndpoint: URL? {
        switch kind {
        case .tesseract, .ppocr: nil
        case .openai: endpoint ?? Self.defaultOpenAIEndpoint
        case .gemini: endpoint ?? Self.defaultGeminiEndpoint
        }
    }

    /// The model actually used.
    public var resolvedModel: String? {
        switch kind {
        case .tesseract, .ppocr: nil
        case .openai: model ?? "gpt-4o-mini"
        case .gemini: model ?? "gemini-2.0-flash"
        }
    }

    /// The cache directory the CLI uses by default: `$XDG_CACHE_HOME/shelfscan/readings` or `~/.cache/shelfscan/readings`.
    public static func defaultCacheDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        UserDirectories.cache(environment).appendingPathComponent("readings", isDirectory: true)
    }
}

extension Duration {
    var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}
