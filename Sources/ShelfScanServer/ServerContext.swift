import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The request context of every route: the client's address (rate limiting, logging) and the WebSocket
/// handler slot that `/ws/progress` fills during its upgrade.
public struct ServerContext: RequestContext, WebSocketRequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<ServerContext>
    public let remoteAddress: SocketAddress?
    /// The connection, for `RefusedUpgradeMiddleware`, which hands it the problem that refused an upgrade.
    let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }

    /// Bodies decoded as JSON (review decisions) are small; photo uploads are collected by their own limit.
    public var maxUploadSize: Int { 64 << 10 }

    /// The client's IP address, the key of its rate limit ("unknown" only for a socket without a peer).
    var clientKey: String { remoteAddress?.ipAddress ?? "unknown" }
}
