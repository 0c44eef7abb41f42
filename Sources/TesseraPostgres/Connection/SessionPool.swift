import Dispatch
import Locking
import NIOCore
import TesseraStore

/// Up to `maximum` sessions, opened when first needed and kept open; a
/// caller beyond that waits for one to be given back. A session whose
/// connection broke is closed and replaced by the next caller.
final class SessionPool: Sendable {
    private let url: PostgresURL
    private let eventLoop: any EventLoop
    private let slots: DispatchSemaphore
    private struct State {
        var idle: [PostgresSession] = []
        var all: [PostgresSession] = []
        var nextID = 0
        var closedStatements = 0
        /// Set by `close()`: no session is opened after it.
        var closed = false
    }

    /// The sessions, handed out one caller at a time under the lock.
    private let state = Locked(State())

    init(url: PostgresURL, eventLoop: any EventLoop, maximum: Int) {
        self.url = url
        self.eventLoop = eventLoop
        slots = DispatchSemaphore(value: max(1, maximum))
    }

    /// Runs `body` with a session of its own.
    func withSession<T>(_ body: (PostgresSession) throws -> T) throws -> T {
        slots.wait()
        defer { slots.signal() }
        let session = try take()
        defer { give(session) }
        return try body(session)
    }

    private func take() throws -> PostgresSession {
        // An open idle session, or the id of a new one.
        let (reused, newID): (PostgresSession?, Int) = try state.withLock { state in
            // The event loop may be gone: connecting on it would never complete.
            if state.closed { throw StoreError.closed(store: url.description) }
            while let session = state.idle.popLast() {
                if !session.isClosed { return (session, 0) }
                state.closedStatements += session.statementsSent.load(ordering: .relaxed)
                state.all.removeAll { $0 === session }
            }
            state.nextID += 1
            return (nil, state.nextID)
        }
        if let reused { return reused }
        let session = try PostgresSession.connect(to: url, on: eventLoop, id: newID)
        state.withLock { $0.all.append(session) }
        return session
    }

    private func give(_ session: PostgresSession) {
        state.withLock { $0.idle.append(session) }
    }

    /// Statements the pool's sessions sent, open or closed since.
    var statementsSent: Int {
        state.withLock { state in state.closedStatements + state.all.reduce(0) { $0 + $1.statementsSent.load(ordering: .relaxed) } }
    }

    /// Closes every session (none may be in use).
    func close() {
        let sessions = state.withLock { state in
            defer { state.all = []; state.idle = []; state.closed = true }
            return state.all
        }
        for session in sessions { session.close() }
    }
}
