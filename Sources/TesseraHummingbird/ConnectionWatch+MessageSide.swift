import NIOCore
import NIOHTTP1

extension ConnectionWatch {
    /// The handler right behind the HTTP/1 decoder: tells the watch when a
    /// request's head and end arrive and when its answer ends, and frames
    /// each answer for its request: an HTTP/1.0 request is answered in
    /// HTTP/1.0, and a request that does not keep the connection alive
    /// (`Connection: close`, HTTP/1.0 without `keep-alive`), whose body is
    /// not all read when its answer ends, or that timed out, gets
    /// `Connection: close`, and the server closes its side after the answer.
    final class MessageSide: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias InboundOut = HTTPServerRequestPart
        typealias OutboundIn = HTTPServerResponsePart
        typealias OutboundOut = HTTPServerResponsePart

        /// What an answer needs to know of its request.
        struct Exchange {
            var version: HTTPVersion
            var keepsAlive: Bool
            /// It asked for `100 Continue` before its body, and has not had it yet.
            var awaitsContinue = false

            /// HTTP/1.0 (or older): no chunks, no keep-alive unless asked.
            var isHTTP10: Bool { version.major < 1 || (version.major == 1 && version.minor == 0) }
        }

        let watch: ConnectionWatch
        /// The answer under way ends the connection.
        private var closesAfterAnswer = false

        init(watch: ConnectionWatch) {
            self.watch = watch
        }

        func handlerAdded(context: ChannelHandlerContext) {
            watch.message = context
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                let exchange = Exchange(version: head.version, keepsAlive: head.isKeepAlive, awaitsContinue: Self.expectsContinue(head))
                watch.headArrived(exchange)
                sendContinueIfDue(context: context)
            case .body:
                break
            case .end:
                watch.requestEnded()
            }
            context.fireChannelRead(data)
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            switch unwrapOutboundIn(data) {
            case .head(var head) where head.status.code >= 200:
                context.write(wrapOutboundOut(.head(frame(head: &head))), promise: promise)
            case .head, .body:
                context.write(data, promise: promise)
            case .end:
                context.write(data, promise: promise)
                watch.answerEnded()
                if closesAfterAnswer {
                    closesAfterAnswer = false
                    context.flush()
                    context.close(mode: .output, promise: nil)
                } else {
                    sendContinueIfDue(context: context)
                }
            }
        }

        /// `Expect: 100-continue` from an HTTP/1.1 client (RFC 9110, 10.1.1;
        /// an HTTP/1.0 client never gets a 100).
        private static func expectsContinue(_ head: HTTPRequestHead) -> Bool {
            !(head.version.major == 1 && head.version.minor == 0)
                && head.headers["expect"].contains { $0.lowercased().filter { $0 != " " && $0 != "\t" } == "100-continue" }
        }

        /// `100 Continue` to the request whose body is being read, once the
        /// answers to the requests before it have ended (an interim answer
        /// must not cut into another): its client waits for it to send the body.
        private func sendContinueIfDue(context: ChannelHandlerContext) {
            guard watch.reading == .body, watch.unanswered.count == 1, watch.unanswered[0].awaitsContinue else { return }
            watch.unanswered[0].awaitsContinue = false
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .continue))), promise: nil)
        }

        /// The answer's head for its request (the oldest unanswered one).
        private func frame(head: inout HTTPResponseHead) -> HTTPResponseHead {
            let exchange = watch.unanswered.first ?? Exchange(version: .http1_1, keepsAlive: true)
            // Its body still coming: reading it to the end would take as
            // long as the client likes.
            let bodyUnread = watch.unanswered.count == 1 && watch.reading == .body
            // HTTP/1.0 has no chunks: a body of unknown length ends with the connection.
            let lengthUnknown = exchange.isHTTP10 && !head.headers.contains(name: "content-length")
                && head.status.mayHaveResponseBody
            closesAfterAnswer = !exchange.keepsAlive || bodyUnread || lengthUnknown || watch.closing
            if exchange.isHTTP10 { head.version = .http1_0 }
            if closesAfterAnswer {
                head.headers.replaceOrAdd(name: "connection", value: "close")
            } else if exchange.isHTTP10 {
                head.headers.replaceOrAdd(name: "connection", value: "keep-alive")
            }
            return head
        }
    }
}
