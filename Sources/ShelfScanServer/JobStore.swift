import Foundation

/// Accepted jobs on disk: one folder per job under `<library>.jobs/`, holding the uploaded photos and
/// `job.json`. Every write replaces `job.json` whole (write to a temporary name, then rename), so a
/// kill -9 at any moment leaves either the old state or the new one, never half of each.
struct JobStore: Sendable {
    let directory: URL

    init(directory: String) throws {
        self.directory = URL(fileURLWithPath: directory, isDirectory: true)
        try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true)
    }

    func folder(for id: UUID) -> URL { directory.appendingPathComponent(id.uuidString.lowercased(), isDirectory: true) }

    func photoURL(_ job: ScanJob, _ index: Int) -> URL { folder(for: job.id).appendingPathComponent(job.photos[index].file) }

    /// Writes the uploads, then the job: a job file only ever names photos already on disk.
    func create(_ job: ScanJob, photos: [[UInt8]]) throws {
        let folder = folder(for: job.id)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        do {
            for (photo, bytes) in zip(job.photos, photos) {
                try Data(bytes).write(to: folder.appendingPathComponent(photo.file), options: .atomic)
            }
            try save(job)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    func save(_ job: ScanJob) throws {
        let data = try Self.encoder.encode(job)
        try data.write(to: folder(for: job.id).appendingPathComponent("job.json"), options: .atomic)
    }

    /// Removes the uploaded photos of a job, keeping its `job.json` (status and results stay answerable).
    func removeUploads(_ job: ScanJob) {
        for photo in job.photos {
            try? FileManager.default.removeItem(at: folder(for: job.id).appendingPathComponent(photo.file))
        }
    }

    /// Every job on disk. A folder without a readable `job.json` is an upload interrupted before it was
    /// accepted (no 202 was sent): it is removed.
    func loadAll() -> [ScanJob] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var jobs: [ScanJob] = []
        for name in names {
            let folder = directory.appendingPathComponent(name, isDirectory: true)
            guard UUID(uuidString: name) != nil else { continue }
            if let data = try? Data(contentsOf: folder.appendingPathComponent("job.json")),
               let job = try? Self.decoder.decode(ScanJob.self, from: data) {
                jobs.append(job)
            } else {
                try? FileManager.default.removeItem(at: folder)
            }
        }
        return jobs.sorted { $0.createdAt < $1.createdAt }
    }

    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.dateEncodingStrategy = .iso8601
        e.outputFormatting = [.sortedKeys]
        return e
    }()
    static let decoder: JSONDecoder = {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .iso8601
        return d
    }()
}
