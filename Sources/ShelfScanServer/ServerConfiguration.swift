import Foundation

/// Everything `shelfscan serve` decides besides the scanner itself; the CLI builds it from flags and the
/// environment. Library code never reads either.
public struct ServerConfiguration: Sendable {
    /// Address to bind. Default 127.0.0.1: the service is for one household's machine unless asked otherwise.
    public var host: String = "127.0.0.1"
    /// Port to bind; 0 picks a free one (tests), reported by `ShelfScanServer.run(onListening:)`.
    public var port: Int = 8080
    /// Photos one v3 request may carry. Default 5, as BooksTrack's clients send 1-5.
    public var maxPhotos: Int = 5
    /// Bytes one request body may carry (all photos and multipart framing). Default 50 MiB.
    public var maxRequestBytes: Int = 50 << 20
    /// Bytes one photo may have. Default 20 MiB: a 48 MP phone JPEG is about 15 MiB.
    public var maxPhotoBytes: Int = 20 << 20
    /// Pixels one photo may have, checked from its header before anything is stored. Default 100 MP.
    public var maxPixels: Int = 100_000_000
    /// When set, every route takes `Authorization: Bearer <token>` and the routes that are not a job's own want
    /// it (a job's own always want this or that job's token). From `SHELFSCAN_SERVER_TOKEN`, never argv; never
    /// logged, never stored.
    public var token: String?
    /// Scan submissions a client (by address) may make per minute; 0 turns the limit off. Default 30.
    public var submissionsPerMinute: Int = 30
    /// Submissions a client may make at once before the per-minute rate applies. Default 10.
    public var submissionBurst: Int = 10
    /// Jobs scanned at the same time; the rest wait queued. Default 2: each photo already uses every core
    /// for reading, and two in flight keep the CPU busy while one decodes.
    public var concurrentJobs: Int = 2
    /// Seconds between SSE `ping` events (and WebSocket keep-alives). Default 30, as BooksTrack.
    public var pingInterval: Duration = .seconds(30)
    /// Seconds a v1 WebSocket client has to send `ready` before the server starts sending anyway. Default 10.
    public var readyTimeout: Duration = .seconds(10)
    /// Where accepted jobs and their uploads live until scanned: `<library>.jobs/` beside the database, so a
    /// restart finds them. Set by `ShelfScanServer` from the library path when nil.
    public var jobsDirectory: String?

    public init() {}

    /// Whether `host` is reachable from this machine only: `localhost`, 127.0.0.0/8 or `::1`. Any other address
    /// (`0.0.0.0`, a LAN address, a name) may be reached from the network.
    public static func isLoopback(_ host: String) -> Bool {
        if host.lowercased() == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        guard inet_pton(AF_INET6, bare, &v6) == 1 else { return false }
        return withUnsafeBytes(of: &v6) { bytes in bytes.dropLast().allSatisfy { $0 == 0 } && bytes.last == 1 }
    }
}
