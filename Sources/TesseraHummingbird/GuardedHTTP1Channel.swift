import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1 channel with the server's limits on every
/// connection (``ConnectionLimits``): ``ConnectionWatch``'s two handlers in
/// its pipeline, and the connection counted in a ``ConnectionRegistry``.
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let base: HTTP1Channel
    let limits: ConnectionLimits
    let registry: ConnectionRegistry?

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let registration = registry?.register(channel)
            // Whatever ends the connection, a failed setup too.
            if let registration { channel.closeFuture.whenComplete { _ in registration.remove() } }
            let watch = ConnectionWatch(limits: limits, registration: registration)
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(ConnectionWatch.MessageSide(watch: watch), position: .after(decoder))
            try pipeline.addHandler(ConnectionWatch.SocketSide(watch: watch), position: .first)
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 within `limits`; connections counted in `registry`.
    static func guardedHTTP1(limits: ConnectionLimits, registry: ConnectionRegistry?) -> HTTPServerBuilder {
        .init { responder in
            GuardedHTTP1Channel(base: HTTP1Channel(responder: responder), limits: limits, registry: registry)
        }
    }
}

/// How long a connection may keep the server waiting, and how many may be
/// open at once: `--idle-timeout`, `--header-timeout`, `--body-timeout`,
/// `--max-connections`.
struct ConnectionLimits: Sendable {
    /// A kept-alive connection with no request under way is closed after
    /// this long without a byte.
    var idleTimeout: TimeAmount = .seconds(60)
    /// A request's head must arrive whole within this long of its first
    /// byte, else 408 and the connection is closed.
    var headerTimeout: TimeAmount = .seconds(10)
    /// A request's body must arrive whole within this long of its head,
    /// else 408 and the connection is closed.
    var bodyTimeout: TimeAmount = .seconds(60)
    /// The most connections open at once; at the limit the one idle the
    /// longest is closed for a new one, and with none idle new ones wait.
    var maximumConnections = 1024
    /// After the answer that ends a connection, what the client still sends
    /// is read and dropped for up to this long before the socket closes: a
    /// close with unread bytes would reset the connection and could destroy
    /// the answer before the client read it.
    var lingerTimeout: TimeAmount = .seconds(2)
}
