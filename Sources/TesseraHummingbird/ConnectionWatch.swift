import Hummingbird
import NIOCore

/// One connection's clock: what part of an exchange the server waits for,
/// and until when (``ConnectionLimits``). It lives on the connection's event
/// loop; two handlers tell it what passes: ``SocketSide`` (bytes, closes)
/// at the head of the pipeline, ``MessageSide`` (requests and answers)
/// behind the HTTP decoder.
final class ConnectionWatch {
    /// What the server is reading.
    enum Reading: Equatable {
        /// No part of a request: between requests.
        case waiting
        /// Bytes of a request head, not all of it yet.
        case head
        /// A request's body, not all of it yet.
        case body
    }

    /// What a deadline ends.
    private enum Wait: Equatable {
        case idle, head, body, linger
    }

    let limits: ConnectionLimits
    private let registration: ConnectionRegistry.Registration?
    private(set) var reading = Reading.waiting
    /// Requests whose head arrived and whose answer has not ended, oldest first.
    var unanswered: [MessageSide.Exchange] = []
    /// The answer that ends the connection was sent: what comes is dropped.
    private(set) var closing = false
    private(set) var inputClosed = false
    /// The handlers' contexts, while the connection is open.
    var socket: ChannelHandlerContext?
    var message: ChannelHandlerContext?
    /// What the server waits for now, and until when.
    private var deadline: (wait: Wait, at: NIODeadline)?
    /// The one timer of the connection, and when it fires: never after the
    /// deadline, often before it (it then looks again and fires later), so
    /// that a request on a busy connection schedules nothing.
    private var timer: (task: Scheduled<Void>, fires: NIODeadline)?
    /// What the registry was last told.
    private var registeredIdle = false

    init(limits: ConnectionLimits, registration: ConnectionRegistry.Registration?) {
        self.limits = limits
        self.registration = registration
    }

    // MARK: What passes

    /// The connection is open: the wait for its first request starts.
    func started() {
        refresh()
    }

    func bytesArrived() {
        guard reading == .waiting else { return }
        reading = .head
        refresh()
    }

    func headArrived(_ exchange: MessageSide.Exchange) {
        unanswered.append(exchange)
        reading = .body
        refresh()
    }

    func requestEnded() {
        reading = .waiting
        refresh()
    }

    func answerEnded() {
        if !unanswered.isEmpty { unanswered.removeFirst() }
        refresh()
    }

    /// The server closed its side (the answer that ends the connection is
    /// out): drop what still comes, close when the client does or the
    /// linger time has passed.
    func outputClosed() {
        closing = true
        inputClosed ? closeNow() : refresh()
    }

    func clientClosed() {
        inputClosed = true
        if closing { closeNow() }
    }

    /// The connection closed: no more deadlines, no more references.
    func ended() {
        timer?.task.cancel()
        timer = nil
        deadline = nil
        socket = nil
        message = nil
    }

    // MARK: Deadlines

    /// Schedules the deadline of what the server now waits for, unless it
    /// already runs: a deadline is set when a wait starts, never moved.
    private func refresh() {
        let wait: Wait?
        if closing {
            wait = .linger
        } else {
            switch reading {
            case .head: wait = .head
            case .body: wait = .body
            case .waiting: wait = unanswered.isEmpty ? .idle : nil
            }
        }
        if registeredIdle != (wait == .idle) {
            registeredIdle = wait == .idle
            registration?.setIdle(registeredIdle)
        }
        guard wait != deadline?.wait else { return }
        // No wait: the timer, if any, finds nothing when it fires.
        guard let wait else {
            deadline = nil
            return
        }
        let delay: TimeAmount
        switch wait {
        case .idle: delay = limits.idleTimeout
        case .head: delay = limits.headerTimeout
        case .body: delay = limits.bodyTimeout
        case .linger: delay = limits.lingerTimeout
        }
        let at = NIODeadline.now() + delay
        deadline = (wait, at)
        // A timer that fires by then looks again when it does.
        if let timer, timer.fires <= at { return }
        timer?.task.cancel()
        arm(at)
    }

    private func arm(_ at: NIODeadline) {
        guard let loop = socket?.eventLoop else { return }
        let task = loop.assumeIsolatedUnsafeUnchecked().scheduleTask(deadline: at) { [weak self] () -> Void in
            self?.timerFired()
        }
        timer = (task, at)
    }

    /// Ends the wait whose deadline passed, or fires again at its deadline.
    private func timerFired() {
        timer = nil
        guard let deadline else { return }
        guard NIODeadline.now() >= deadline.at else { return arm(deadline.at) }
        self.deadline = nil
        expired(deadline.wait)
    }

    private func expired(_ wait: Wait) {
        switch wait {
        case .idle, .linger:
            closeNow()
        case .head:
            headTimedOut()
        case .body:
            // The handler reading the body gets the error and answers 408;
            // the answer closes the connection.
            unanswered.indices.last.map { unanswered[$0].keepsAlive = false }
            message?.fireErrorCaught(Problem(.requestTimeout, "the request body did not arrive whole within "
                + "\(Self.seconds(limits.bodyTimeout)) s of its head (--body-timeout)"))
        }
    }

    /// 408 written under the HTTP encoder when no answer is under way (a
    /// pipelined one would be cut), then the lingering close.
    private func headTimedOut() {
        guard let socket, unanswered.isEmpty else { return closeNow() }
        let problem = Problem(.requestTimeout, "the request head did not arrive whole within "
            + "\(Self.seconds(limits.headerTimeout)) s of its first byte (--header-timeout)")
        let body = problem.body
        var answer = socket.channel.allocator.buffer(capacity: body.utf8.count + 160)
        answer.writeString("HTTP/1.1 408 Request Timeout\r\nContent-Type: application/problem+json\r\n")
        answer.writeString("Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
        socket.writeAndFlush(NIOAny(IOData.byteBuffer(answer)), promise: nil)
        // From the first handler's context the close goes straight to the
        // socket, past SocketSide: it is told here.
        socket.close(mode: .output, promise: nil)
        outputClosed()
    }

    private func closeNow() {
        socket?.close(promise: nil)
    }

    /// A timeout in seconds as a flag takes it: `10`, `0.5`.
    static func seconds(_ amount: TimeAmount) -> String {
        let seconds = Double(amount.nanoseconds) / 1e9
        return seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
