// ShelfScanTestSupport: see Package.swift for this target's one job.

extension Sequence {
    /// `map` whose transform awaits (a store call per element), in order, one at a time.
    public func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var out: [T] = []
        for element in self { out.append(try await transform(element)) }
        return out
    }
}
