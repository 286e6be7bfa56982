import BookModel
import Foundation

/// The time the server's timeouts, rate limits and caches read and sleep on. `serve` runs on the continuous
/// clock and the system's date; tests pass a clock they move, so an expiry is a step a test takes rather than
/// a wait it sits through (and races, on a busy machine).
struct ServerClock: Sendable {
    /// Time since some fixed start.
    var now: @Sendable () -> Duration
    /// Returns once `duration` has passed on this clock; throws `CancellationError` when the task is canceled.
    var sleep: @Sendable (Duration) async throws -> Void
    /// The calendar date, for the times jobs record.
    var date: @Sendable () -> Date
    private let stamps = Timestamps()

    init(now: @escaping @Sendable () -> Duration, sleep: @escaping @Sendable (Duration) async throws -> Void,
                date: @escaping @Sendable () -> Date) {
        self.now = now
        self.sleep = sleep
        self.date = date
    }

    private static let start = ContinuousClock.now
    static let continuous = ServerClock(now: { ContinuousClock.now - start }, sleep: { try await Task.sleep(for: $0) },
                                               date: { Date() })

    /// `date()` in ISO 8601 to the second, as every JSON response's `metadata.timestamp` and SSE ping carry it.
    func timestamp() -> String { stamps.string(for: date()) }
}

/// The last second formatted, reused until the clock leaves it: every JSON response carries a timestamp, and
/// formatting one (a calendar and a format style each time) was about 1% of a status request's CPU in bench-serve.
private final class Timestamps: @unchecked Sendable {
    private let lock = NSLock()
    private var second = Int64.min
    private var text = ""

    func string(for date: Date) -> String {
        let second = Int64(date.timeIntervalSince1970.rounded(.down))
        return lock.withLock {
            if second != self.second {
                self.second = second
                text = ISO8601.string(from: Date(timeIntervalSince1970: Double(second)))
            }
            return text
        }
    }
}
