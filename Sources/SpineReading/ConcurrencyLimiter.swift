/// At most `limit` operations at once, first come first served. One limiter is shared by every photo read
/// through a reader, so `--concurrency 4` means four calls in flight for the whole batch, not per photo.
public actor ConcurrencyLimiter {
    public let limit: Int
    private var inFlight = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    public init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `body` once a slot is free; the slot is returned even when `body` throws.
    public func run<T: Sendable>(_ body: @Sendable () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        if inFlight < limit {
            inFlight += 1
            return
        }
        // The slot is handed over by `release`, so `inFlight` stays counted for the waiter.
        await withCheckedContinuation { waiters.append($0) }
    }

    private func release() {
        if waiters.isEmpty {
            inFlight -= 1
        } else {
            waiters.removeFirst().resume()
        }
    }
}
