import Foundation
import ShelfImage
import ShelfScanTestSupport
@testable import SpineReading

/// A crop whose pixel size is its identity on the fake server (the server "reads" by size).
func crop(_ id: Int, width: Int, height: Int) -> SpineCrop {
    var image = RGBImage(width: width, height: height, fill: (200, 180, 150))
    for x in 0..<width { image.pixels[3 * x] = UInt8((id * 37 + x) & 0xFF) }  // distinct pixels per id
    return SpineCrop(id: id, image: image)
}

/// Fast-failing settings for tests: short timeout, tiny backoff.
func testConfiguration(_ kind: ReaderConfiguration.Kind, _ server: FakeVisionServer, model: String = "vision-test",
                       timeout: Duration = .seconds(5), retries: Int = 3, batch: Int = 8, concurrency: Int = 4,
                       cache: URL? = nil) -> ReaderConfiguration {
    ReaderConfiguration(
        kind: kind, endpoint: kind == .openai ? server.openAIEndpoint : server.geminiEndpoint, model: model,
        timeout: timeout, maxRetries: retries, retryBaseDelay: .milliseconds(10), retryMaxDelay: .seconds(2),
        batchSize: batch, concurrency: concurrency, cacheDirectory: cache)
}

func reader(_ kind: ReaderConfiguration.Kind, _ server: FakeVisionServer, key: String? = "test-key",
            configure: (inout ReaderConfiguration) -> Void = { _ in }) throws -> any SpineReader {
    var c = testConfiguration(kind, server)
    configure(&c)
    var env: [String: String] = ["HOME": "/nonexistent", "XDG_CONFIG_HOME": "/nonexistent"]
    if let key { env[kind == .openai ? "OPENAI_API_KEY" : "GEMINI_API_KEY"] = key }
    return try ReaderFactory.make(c, environment: env)
}

func temporaryDirectory() throws -> URL { try ScratchDirectory.make("spine-reading") }

/// One text line as a reader hands it over: words of height `h` at row `y`, from `x0` on, each letter
/// `letterWidth` wide and the words `gap` apart.
func ocrLine(_ text: String, y: Int = 0, h: Int = 20, x0: Int = 0, letterWidth: Double = 12, gap: Int = 8) -> OCRLine {
    var x = x0
    let words = text.components(separatedBy: " ").map { (t: String) -> OCRWord in
        let width = Int((letterWidth * Double(t.count)).rounded())
        defer { x += width + gap }
        return OCRWord(text: t, confidence: 90, left: x, top: y, right: x + width, bottom: y + h, fromDictionary: false)
    }
    return OCRLine(words: words, left: x0, top: y, right: x, bottom: y + h)
}
