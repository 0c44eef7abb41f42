import NIOCore

extension ConnectionWatch {
    /// The first handler of a connection's pipeline: tells the watch when
    /// bytes arrive and when either side closes, and once the server closed
    /// its side, reads and drops what the client still sends until the
    /// client closes or the linger time has passed. Without that, a client
    /// that stops reading after an error answer would keep the server's
    /// descriptor open for good.
    final class SocketSide: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer
        typealias OutboundIn = IOData
        typealias OutboundOut = IOData

        let watch: ConnectionWatch

        init(watch: ConnectionWatch) {
            self.watch = watch
        }

        func handlerAdded(context: ChannelHandlerContext) {
            watch.socket = context
            if context.channel.isActive { watch.started() }
        }

        func channelActive(context: ChannelHandlerContext) {
            watch.started()
            context.fireChannelActive()
        }

        func channelInactive(context: ChannelHandlerContext) {
            watch.ended()
            context.fireChannelInactive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !watch.closing else { return }
            watch.bytesArrived()
            context.fireChannelRead(data)
        }

        func channelReadComplete(context: ChannelHandlerContext) {
            // Nobody above reads any more: read on, to see the client's close.
            if watch.closing { context.read() }
            context.fireChannelReadComplete()
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if let event = event as? ChannelEvent, event == .inputClosed { watch.clientClosed() }
            context.fireUserInboundEventTriggered(event)
        }

        func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
            context.close(mode: mode, promise: promise)
            if mode == .output {
                watch.outputClosed()
                context.read()
            }
        }
    }
}
