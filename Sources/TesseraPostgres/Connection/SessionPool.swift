import Locking
import NIOCore
import TesseraStore

/// Up to `maximum` sessions, opened when first needed and kept open; a
/// caller beyond that waits for one to be given back, without holding a thread. A session
/// whose connection broke is closed and replaced by the next caller.
final class SessionPool: Sendable {
    private let url: PostgresURL
    private let eventLoop: any EventLoop
    private let slots: AsyncGate
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
        slots = AsyncGate(width: maximum)
    }

    /// Runs `body` with a session of its own, waiting for one without
    /// holding a thread (and connecting so).
    func withSession<T>(_ body: (PostgresSession) async throws -> T) async throws -> T {
        try await slots.pass {
            let session: PostgresSession
            switch try reuseOrNumber() {
            case .reused(let reused): session = reused
            case .new(let id):
                session = try await PostgresSession.connect(to: url, on: eventLoop, id: id)
                state.withLock { $0.all.append(session) }
            }
            defer { give(session) }
            return try await body(session)
        }
    }

    private enum Taken {
        case reused(PostgresSession)
        case new(id: Int)
    }

    /// An open idle session, or the id of a new one.
    private func reuseOrNumber() throws -> Taken {
        try state.withLock { state in
            // The event loop may be gone: connecting on it would never complete.
            if state.closed { throw StoreError.closed(store: url.description) }
            while let session = state.idle.popLast() {
                if !session.isClosed { return .reused(session) }
                state.closedStatements += session.statementsSent.load(ordering: .relaxed)
                state.all.removeAll { $0 === session }
            }
            state.nextID += 1
            return .new(id: state.nextID)
        }
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
