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

    init(now: @escaping @Sendable () -> Duration, sleep: @escaping @Sendable (Duration) async throws -> Void,
                date: @escaping @Sendable () -> Date) {
        self.now = now
        self.sleep = sleep
        self.date = date
    }

    private static let start = ContinuousClock.now
    static let continuous = ServerClock(now: { ContinuousClock.now - start }, sleep: { try await Task.sleep(for: $0) },
                                               date: { Date() })
}
