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
        summary.leftOut = source.leftOut
        await onEvent(.started(totalPhotos: source.photos.count + source.missing.count))
        var index = 0
        for missing in source.missing {
            let reason = PathCheck.problem(missing, folderAllowed: true) ?? "No such file or folder: \(missing)."
            let outcome = PhotoOutcome.failed(path: missing, reason: reason)
            summary.add(outcome)
            await onEvent(.finished(index: index, outcome: outcome))
            index += 1
        }
        let jobs = max(1, scanner.configuration.jobs)
        let scanner = self.scanner
        // Photos another worker holds (a shared library) wait for the end: by then that worker has filed them,
        // or died and its lease ran out, and this one finishes them.
        var heldElsewhere: [String] = []
        await withTaskGroup(of: (String, PhotoOutcome?).self) { group in
            var next = 0
            func enqueue() {
                guard next < source.photos.count else { return }
                let path = source.photos[next]
                next += 1
                let foundInFolder = !source.named.contains(path)
                group.addTask { (path, await scanner.scan(photoAt: path, waitForOtherWorkers: false, foundInFolder: foundInFolder)) }
            }
            for _ in 0..<jobs { enqueue() }
            while let (path, result) = await group.next() {
                if let outcome = result {
                    summary.add(outcome)
                    await onEvent(.finished(index: index, outcome: outcome))
                    index += 1
                } else {
                    heldElsewhere.append(path)
                }
                enqueue()
            }
        }
        for path in heldElsewhere {
            let outcome = await scanner.scan(photoAt: path, waitForOtherWorkers: true, foundInFolder: !source.named.contains(path))!
            summary.add(outcome)
            await onEvent(.finished(index: index, outcome: outcome))
            index += 1
        }
        if let library = scanner.library {
            summary.pendingInQueue = try? await library.pendingCount()
        }
        summary.elapsed = clock.now - start
        return summary
    }
}
