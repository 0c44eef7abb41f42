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
            let watch = ConnectionWatch(limits: limits, registration: registry?.register(channel))
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
