import Foundation

/// Scans a batch of photos with `jobs` photos in flight, reporting each outcome as it lands.
///
/// Every photo is filed in its own transaction, so a batch killed at any moment and run again files
/// every photo exactly once: finished ones are skipped by content hash, the interrupted one starts over.
public struct BatchScanner: Sendable {
    public var scanner: PhotoScanner

    public init(scanner: PhotoScanner) { self.scanner = scanner }

    /// Scans every photo of `source`. Outcomes reach `onEvent` in completion order, on one task at a
    /// time, so a progress display needs no locking.
    public func run(
        _ source: PhotoSource,
        onEvent: @Sendable (ScanEvent) async -> Void
    ) async -> BatchSummary {
        let clock = ContinuousClock()
        let start = clock.now
        var summary = BatchSummary()
        summary.skippedNonImages = source.skippedNonImages
        await onEvent(.started(totalPhotos: source.photos.count + source.missing.count))
        var index = 0
        for missing in source.missing {
            let outcome = PhotoOutcome.failed(path: missing, reason: "No such file or folder: \(missing)")
            summary.add(outcome)
            await onEvent(.finished(index: index, outcome: outcome))
            index += 1
        }
        let jobs = max(1, scanner.configuration.jobs)
        let scanner = self.scanner
        await withTaskGroup(of: PhotoOutcome.self) { group in
            var next = 0
            func enqueue() {
                guard next < source.photos.count else { return }
                let path = source.photos[next]
                next += 1
                group.addTask { await scanner.scan(photoAt: path) }
            }
            for _ in 0..<jobs { enqueue() }
            while let outcome = await group.next() {
                summary.add(outcome)
                await onEvent(.finished(index: index, outcome: outcome))
                index += 1
                enqueue()
            }
        }
        if let library = scanner.library {
            summary.pendingInQueue = try? library.pendingCount()
        }
        summary.elapsed = clock.now - start
        return summary
    }
}
