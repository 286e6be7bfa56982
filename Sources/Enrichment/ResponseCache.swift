import Foundation

/// Provider replies on disk, one JSON file per request, so a rescan or a second `library enrich` costs no
/// requests. The key is the provider plus the request path and query without the API key, so a cache
/// directory never holds a key and is shared whatever key is configured. Files are written to a temporary
/// name and renamed, so a crash never leaves a half-written entry; an unreadable entry counts as a miss.
public struct ResponseCache: Sendable {
    public let directory: URL
    public let maxAge: TimeInterval

    /// One stored reply: `storedAt` gives its age, `key` guards against the rare hash collision.
    struct Entry: Codable {
        var key: String
        var storedAt: Date
        var status: Int
        var body: Data
    }

    public struct Hit: Sendable {
        public var status: Int
        public var body: Data
        /// Seconds since the reply was stored (seed 004's `cacheAge`).
        public var age: TimeInterval
    }

    public init(directory: URL, maxAge: TimeInterval) {
        self.directory = directory
        self.maxAge = maxAge
    }

    /// The cached reply for `key` when it is younger than `maxAge`.
    public func lookup(_ key: String, now: Date = Date()) -> Hit? {
        guard let data = FileManager.default.contents(atPath: file(for: key).path),
              let entry = try? JSONDecoder().decode(Entry.self, from: data), entry.key == key else { return nil }
        let age = now.timeIntervalSince(entry.storedAt)
        guard age >= 0, age <= maxAge else { return nil }
        return Hit(status: entry.status, body: entry.body, age: age)
    }

    /// Stores a reply; a cache that cannot be written is skipped silently (it only saves requests).
    public func store(_ key: String, status: Int, body: Data, now: Date = Date()) {
        let url = file(for: key)
        guard let data = try? JSONEncoder().encode(Entry(key: key, storedAt: now, status: status, body: body)) else { return }
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let tmp = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString.prefix(8)).tmp")
            try data.write(to: tmp)
            if FileManager.default.fileExists(atPath: url.path) { try? FileManager.default.removeItem(at: url) }
            do { try FileManager.default.moveItem(at: tmp, to: url) } catch { try? FileManager.default.removeItem(at: tmp) }
        } catch {
            return
        }
    }

    /// Two FNV-1a hashes with different seeds: 128 bits, enough that the stored `key` check never fires
    /// in practice, without a crypto dependency for a file name.
    func file(for key: String) -> URL {
        func fnv(_ seed: UInt64) -> String {
            var h = seed
            for b in key.utf8 { h = (h ^ UInt64(b)) &* 0x100000001b3 }
            let hex = String(h, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }
        let name = fnv(0xcbf29ce484222325) + fnv(0x84222325cbf29ce4)
        return directory.appendingPathComponent(String(name.prefix(2))).appendingPathComponent(name + ".json")
    }
}
