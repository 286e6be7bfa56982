import Foundation

/// Stops calling a provider that keeps failing, for a while, so a scan of a thousand spines against a
/// provider that is down costs a few failed requests rather than a thousand timeouts. Opens after
/// `threshold` consecutive failures; after `cooldown` one trial call is let through (half-open): success
/// closes it, failure opens it again. An actor because every concurrent request of a batch shares it.
actor CircuitBreaker {
    let threshold: Int
    let cooldown: TimeInterval
    private var failures: [BookProvider: Int] = [:]
    private var openUntil: [BookProvider: Date] = [:]
    private var announced: Set<BookProvider> = []

    init(threshold: Int, cooldown: TimeInterval) {
        self.threshold = max(1, threshold)
        self.cooldown = cooldown
    }

    /// Whether a call may go out now.
    func allows(_ provider: BookProvider, now: Date = Date()) -> Bool {
        guard let until = openUntil[provider] else { return true }
        if now >= until {
            // Half-open: let this one call through; a failure re-opens at once (failures is still >= threshold).
            openUntil[provider] = nil
            return true
        }
        return false
    }

    func recordSuccess(_ provider: BookProvider) {
        failures[provider] = 0
        openUntil[provider] = nil
    }

    /// - Returns: true when this failure opened the circuit and nobody was told yet: the caller says so,
    ///   once per provider per run.
    func recordFailure(_ provider: BookProvider, now: Date = Date()) -> Bool {
        let n = (failures[provider] ?? 0) + 1
        failures[provider] = n
        guard n >= threshold else { return false }
        openUntil[provider] = now.addingTimeInterval(cooldown)
        return announced.insert(provider).inserted
    }
}

/// At most `limit` requests in flight, first come first served.
actor RequestLimiter {
    private let limit: Int
    private var inFlight = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) { self.limit = max(1, limit) }

    func acquire() async {
        if inFlight < limit { inFlight += 1; return }
        // `release` hands its slot straight to the waiter, so `inFlight` stays counted.
        await withCheckedContinuation { waiters.append($0) }
    }

    func release() {
        if waiters.isEmpty { inFlight -= 1 } else { waiters.removeFirst().resume() }
    }
}
