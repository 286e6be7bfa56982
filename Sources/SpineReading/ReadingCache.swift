import Crypto
import Foundation
import ShelfImage

/// Readings on disk, keyed by (crop SHA-256, reader, model, prompt version), so scanning the same photo
/// twice costs no second call while a new model or prompt version is a clean miss. Only successful
/// readings are stored: an unread crop must be retried next time. Entries hold what the reading holds
/// and nothing else (no key, no request).
public struct ReadingCache: Sendable {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    /// SHA-256 over the crop's size and pixels: the same crop cut from the same photo hashes alike whatever
    /// the encoder does later.
    public static func cropDigest(_ image: RGBImage) -> String {
        var hasher = SHA256()
        withUnsafeBytes(of: UInt32(image.width).bigEndian) { hasher.update(bufferPointer: $0) }
        withUnsafeBytes(of: UInt32(image.height).bigEndian) { hasher.update(bufferPointer: $0) }
        image.pixels.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// The file name for one key: a digest, so reader and model names need no escaping.
    static func entryName(crop: String, reader: String, model: String?, promptVersion: String?) -> String {
        let key = [crop, reader, model ?? "-", promptVersion ?? "-"].joined(separator: "\u{1F}")
        return SHA256.hash(data: Data(key.utf8)).map { String(format: "%02x", $0) }.joined() + ".json"
    }

    func lookup(crop: String, reader: String, model: String?, promptVersion: String?) -> Reading? {
        let url = directory.appendingPathComponent(Self.entryName(crop: crop, reader: reader, model: model, promptVersion: promptVersion))
        guard let data = try? Data(contentsOf: url), let entry = try? JSONDecoder().decode(Entry.self, from: data),
            entry.crop == crop, entry.reading.reader == reader, entry.reading.model == model,
            entry.reading.promptVersion == promptVersion
        else { return nil }
        return entry.reading
    }

    /// Best effort: a cache that cannot be written costs money later, never the reading now.
    func store(_ reading: Reading, crop: String) {
        guard reading.isRead else { return }
        var stored = reading
        stored.usage = nil
        let url = directory.appendingPathComponent(
            Self.entryName(crop: crop, reader: reading.reader, model: reading.model, promptVersion: reading.promptVersion))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        guard let data = try? encoder.encode(Entry(crop: crop, reading: stored)) else { return }
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? data.write(to: url, options: .atomic)
    }

    private struct Entry: Codable {
        var crop: String
        var reading: Reading
    }
}

/// Wraps a reader with the cache: hits are answered from disk, only misses reach the reader.
public struct CachingReader: SpineReader {
    public let base: any SpineReader
    public let cache: ReadingCache
    let model: String?
    let promptVersion: String?

    public var name: String { base.name }

    public init(base: any SpineReader, cache: ReadingCache, model: String?, promptVersion: String?) {
        self.base = base
        self.cache = cache
        self.model = model
        self.promptVersion = promptVersion
    }

    public func read(_ crops: [SpineCrop]) async -> [Reading] {
        let digests = crops.map { ReadingCache.cropDigest($0.image) }
        var results = [Reading?](repeating: nil, count: crops.count)
        var misses: [Int] = []
        for (i, crop) in crops.enumerated() {
            if var hit = cache.lookup(crop: digests[i], reader: name, model: model, promptVersion: promptVersion) {
                hit.spineID = crop.id
                results[i] = hit
            } else {
                misses.append(i)
            }
        }
        if !misses.isEmpty {
            let fresh = await base.read(misses.map { crops[$0] })
            for (i, reading) in zip(misses, fresh) {
                cache.store(reading, crop: digests[i])
                results[i] = reading
            }
        }
        return results.map { $0! }
    }
}
