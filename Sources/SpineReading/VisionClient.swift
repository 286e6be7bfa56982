import Foundation
import ShelfImage
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The shared engine of the vision readers: batching, the concurrency limit, retries with backoff,
/// output-format fallback and tolerant parsing. Protocol details live in a `VisionDialect`.
final class VisionClient: Sendable {
    let dialect: any VisionDialect
    let endpoint: URL
    let model: String
    let prompt: PromptProfile
    let photoPrompt: PromptProfile
    private let key: APIKey?
    private let configuration: ReaderConfiguration
    private let transport: HTTPTransport
    private let limiter: ConcurrencyLimiter
    private let format = FormatLevel()

    init(dialect: any VisionDialect, configuration: ReaderConfiguration, key: APIKey?) throws(ReaderError) {
        guard let endpoint = configuration.resolvedEndpoint, let model = configuration.resolvedModel else {
            throw .invalidConfiguration("A vision reader needs an endpoint and a model")
        }
        guard endpoint.scheme == "http" || endpoint.scheme == "https", endpoint.host != nil else {
            throw .invalidConfiguration("Endpoint must be an http(s) URL such as http://localhost:11434/v1, not \(endpoint.absoluteString)")
        }
        guard !model.trimmingCharacters(in: .whitespaces).isEmpty else { throw .invalidConfiguration("--model must not be empty") }
        guard configuration.batchSize >= 1, configuration.concurrency >= 1, configuration.maxRetries >= 0 else {
            throw .invalidConfiguration("batch size and concurrency must be at least 1, retries at least 0")
        }
        self.dialect = dialect
        self.endpoint = endpoint
        self.model = model
        self.key = key
        self.configuration = configuration
        self.prompt = try Self.loadPrompt(configuration.promptFile)
        self.photoPrompt = try Self.loadPrompt(configuration.photoPromptFile)
        self.transport = HTTPTransport(maxResponseBytes: configuration.maxResponseBytes, maxConnections: configuration.concurrency)
        self.limiter = ConcurrencyLimiter(limit: configuration.concurrency)
    }

    private static func loadPrompt(_ file: String) throws(ReaderError) -> PromptProfile {
        do { return try PromptProfile.load(file) } catch let e as ReaderError { throw e } catch {
            throw .promptUnavailable(String(describing: error))
        }
    }

    // MARK: Crops

    func read(_ crops: [SpineCrop]) async -> [Reading] {
        let batches = stride(from: 0, to: crops.count, by: configuration.batchSize).map {
            Array(crops[$0..<min($0 + configuration.batchSize, crops.count)])
        }
        var byID: [Int: [Reading]] = [:]
        await withTaskGroup(of: [Reading].self) { group in
            for batch in batches {
                group.addTask { await self.readBatch(batch) }
            }
            for await readings in group {
                for r in readings { byID[r.spineID, default: []].append(r) }
            }
        }
        // Same order as `crops`, also when two crops share an id.
        return crops.map { crop in byID[crop.id]!.removeFirst() }
    }

    private func readBatch(_ crops: [SpineCrop]) async -> [Reading] {
        do {
            let images = try crops.map { crop throws(ReaderError) in try ImagePayload.encode(crop.image, quality: configuration.jpegQuality) }
            let answer = try await complete(images: images, prompt: prompt)
            return readings(for: crops, from: answer)
        } catch let failure as Failure {
            return crops.enumerated().map { i, crop in
                unread(crop.id, failure.description, usage: i == 0 ? failure.usage : nil)
            }
        } catch {
            return crops.map { unread($0.id, String(describing: error)) }
        }
    }

    private func readings(for crops: [SpineCrop], from answer: Answer) -> [Reading] {
        var byIndex: [Int: AnsweredBook] = [:]
        let allIndexed = answer.books.allSatisfy { $0.index != nil }
        for (position, book) in answer.books.enumerated() {
            // Without indices, order is the only key, and only when the counts agree.
            guard let i = allIndexed ? book.index : (answer.books.count == crops.count ? position : nil) else { continue }
            if byIndex[i] == nil { byIndex[i] = book }
        }
        return crops.enumerated().map { i, crop in
            let usage = i == 0 ? answer.usage : nil
            guard let book = byIndex[i] else {
                return unread(crop.id, "no answer for image \(i) in the reply", raw: answer.raw, usage: usage)
            }
            guard !book.title.isEmpty else {
                return unread(crop.id, "model found no title", raw: answer.raw, usage: usage)
            }
            return Reading(
                spineID: crop.id, title: book.title, authors: book.authors, confidence: book.confidence ?? 0.5,
                rawText: book.title + (book.authors.isEmpty ? "" : "\n" + book.authors.joined(separator: ", ")),
                reader: dialect.name, model: model, promptVersion: prompt.version, usage: usage)
        }
    }

    private func unread(_ id: Int, _ reason: String, raw: String = "", usage: TokenUsage? = nil) -> Reading {
        .unread(spineID: id, reason: reason, reader: dialect.name, model: model, promptVersion: prompt.version, rawText: raw, usage: usage)
    }

    // MARK: Whole photo

    func readPhoto(_ photo: RGBImage) async throws(ReaderError) -> PhotoReading {
        let image = try ImagePayload.encode(photo, quality: configuration.jpegQuality)
        let answer: Answer
        do { answer = try await complete(images: [image], prompt: photoPrompt) } catch { throw error.error }
        let books = answer.books.compactMap { book -> PhotoReading.Book? in
            guard !book.title.isEmpty else { return nil }
            return PhotoReading.Book(
                title: book.title, authors: book.authors, confidence: book.confidence ?? 0.5,
                box: book.box.flatMap { PhotoReading.Box($0, width: photo.width, height: photo.height) })
        }
        return PhotoReading(
            books: books, rawText: answer.raw, reader: dialect.name, model: model, promptVersion: photoPrompt.version,
            usage: answer.usage)
    }

    // MARK: One call, with retries

    struct Answer {
        var books: [AnsweredBook]
        var raw: String
        var usage: TokenUsage?
    }

    /// A failure plus the tokens already spent on unusable answers.
    struct Failure: Error, CustomStringConvertible {
        var error: ReaderError
        var usage: TokenUsage?
        var description: String { error.message }
    }

    func complete(images: [ImagePayload], prompt: PromptProfile) async throws(Failure) -> Answer {
        var attempt = 0
        var spent: TokenUsage?
        while true {
            let level = await format.current
            do {
                let request = try dialect.request(endpoint: endpoint, model: model, key: key, prompt: prompt, images: images, format: level)
                let reply: HTTPReply
                do {
                    reply = try await limiter.run { try await self.transport.send(request, timeout: self.configuration.timeout) }
                } catch let e as ReaderError { throw e } catch { throw ReaderError.cancelled }
                guard reply.status == 200 else {
                    let message = redact(dialect.errorMessage(reply.body))
                    if dialect.isKeyRejection(status: reply.status, message: message) {
                        throw ReaderError.unauthorized(reply.status, message)
                    }
                    if reply.status == 400, dialect.rejectsFormat(message), let lower = level.lower {
                        await format.lower(from: level, to: lower)
                        continue  // not a fault of this attempt: ask again, one level down
                    }
                    throw ReaderError.http(reply.status, message, retryAfter: reply.retryAfter)
                }
                let (text, usage) = try dialect.content(of: reply.body)
                if let usage { spent = (spent ?? .zero) + usage }
                let books = try AnswerParser.books(in: text)
                return Answer(books: books, raw: text, usage: spent)
            } catch let error as ReaderError {
                guard error.isTransient, attempt < configuration.maxRetries, !Task.isCancelled else {
                    throw Failure(error: attempt == 0 ? error : ReaderError(error.code, error.message + " (after \(attempt + 1) attempts)", status: error.status), usage: spent)
                }
                try? await Task.sleep(for: delay(attempt: attempt, retryAfter: error.retryAfter))
                attempt += 1
            } catch {
                throw Failure(error: .cancelled, usage: spent)
            }
        }
    }

    /// Services echo a masked key in 401 messages ("Incorrect API key provided: sk-ab***yz"); messages end up
    /// in readings and the library, so both the key and any masked echo are removed.
    private func redact(_ message: String) -> String {
        var text = message
        key?.withValue { text = text.replacingOccurrences(of: $0, with: "[redacted]") }
        return text.split(separator: " ", omittingEmptySubsequences: false)
            .map { $0.contains("***") ? "[redacted]" : String($0) }
            .joined(separator: " ")
    }

    /// Exponential backoff with "equal" jitter (a random wait in the upper half of the step), or the endpoint's `Retry-After`, capped at `retryMaxDelay`.
    private func delay(attempt: Int, retryAfter: Double?) -> Duration {
        let cap = configuration.retryMaxDelay.seconds
        if let retryAfter { return .milliseconds(Int(min(cap, retryAfter) * 1000)) }
        let ceiling = min(cap, configuration.retryBaseDelay.seconds * pow(2, Double(attempt)))
        return .milliseconds(Int(Double.random(in: ceiling / 2...max(ceiling / 2, ceiling)) * 1000))
    }
}

/// The strongest output format the endpoint has not rejected; shared by all calls of one reader so a
/// rejection costs one extra request per reader, not per batch.
private actor FormatLevel {
    private(set) var current: OutputFormat = .schema

    func lower(from level: OutputFormat, to lower: OutputFormat) {
        if current == level { current = lower }
    }
}
