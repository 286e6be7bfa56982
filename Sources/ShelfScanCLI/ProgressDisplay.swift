import Foundation
import ShelfScan

/// Shows a batch's progress on stderr: a live bar on a terminal, one plain line per photo otherwise
/// (a log file or CI), nothing at all with --json or --quiet. Results go to stdout, never here.
actor ProgressDisplay {
    enum Mode { case bar, lines, silent }

    private let mode: Mode
    private var total = 0
    private var done = 0
    private var spines = 0
    private var books = 0
    private let clock = ContinuousClock()
    private var start: ContinuousClock.Instant
    private var lastDraw: ContinuousClock.Instant?

    init(mode: Mode) {
        self.mode = mode
        self.start = clock.now
    }

    static func mode(json: Bool, quiet: Bool) -> Mode {
        if json || quiet { return .silent }
        return isatty(STDERR_FILENO) == 1 ? .bar : .lines
    }

    func handle(_ event: ScanEvent) {
        switch event {
        case .started(let totalPhotos):
            total = totalPhotos
            start = clock.now
        case .finished(_, let outcome):
            done += 1
            if case .scanned(let scan) = outcome {
                spines += scan.spines.count
                books += scan.booksRead
            }
            switch mode {
            case .silent: break
            case .lines: Self.writeLine(line(for: outcome))
            case .bar:
                // A failure or skip is worth a line of its own above the bar; a scan updates the bar only.
                if case .scanned = outcome {} else { clearBar(); Self.writeLine(line(for: outcome)) }
                drawBar(force: done == total)
            }
        }
    }

    func finish() {
        if mode == .bar { clearBar() }
    }

    private func line(for outcome: PhotoOutcome) -> String {
        let counter = "[\(done)/\(total)]"
        switch outcome {
        case .scanned(let scan):
            let ms = Int(Self.seconds(scan.elapsed) * 1000)
            let action = scan.filedWorkIDs.isEmpty ? "found" : (scan.replacedPending ? "rescanned" : "filed")
            return "\(counter) \(scan.path): \(scan.spines.count) spines, \(scan.booksRead) read, \(action) (\(ms) ms)"
        case .skipped(let path, _):
            return "\(counter) \(path): already filed, skipped (use --rescan to scan again)"
        case .failed(let path, let reason):
            return "\(counter) \(path): failed: \(reason)"
        case .leftOut(let file):
            return "\(counter) \(file.path): left out, \(ResultPrinter.phrase(file.reason, count: 1))"
        }
    }

    private func drawBar(force: Bool) {
        let now = clock.now
        if !force, let lastDraw, now - lastDraw < .milliseconds(100) { return }
        lastDraw = now
        let elapsed = Self.seconds(now - start)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let eta = rate > 0 ? Double(total - done) / rate : 0
        let width = 24
        let filled = total > 0 ? width * done / total : width
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let text = String(
            format: "\r\u{1B}[2K%@ %d/%d photos · %d spines · %d read · %.1f/s · ETA %@",
            bar, done, total, spines, books, rate, Self.clockString(eta))
        FileHandle.standardError.write(Data(text.utf8))
    }

    private func clearBar() {
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }

    private static func writeLine(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    static func clockString(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}
