import Dispatch
import NIOConcurrencyHelpers
import NIOCore
import TesseraStore

/// Up to `maximum` sessions, opened when first needed and kept open; a
/// caller beyond that waits for one to be given back. A session whose
/// connection broke is closed and replaced by the next caller.
final class SessionPool: @unchecked Sendable {
    private let url: PostgresURL
    private let eventLoop: any EventLoop
    private let slots: DispatchSemaphore
    private let lock = NIOLock()
    private var idle: [PostgresSession] = []
    private var all: [PostgresSession] = []
    private var nextID = 0
    private var closedStatements = 0

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
        let (reused, newID): (PostgresSession?, Int) = lock.withLock {
            while let session = idle.popLast() {
                if !session.isClosed { return (session, 0) }
                closedStatements += session.statementsSent.load(ordering: .relaxed)
                all.removeAll { $0 === session }
            }
            nextID += 1
            return (nil, nextID)
        }
        if let reused { return reused }
        let session = try PostgresSession.connect(to: url, on: eventLoop, id: newID)
        lock.withLock { all.append(session) }
        return session
    }

    private func give(_ session: PostgresSession) {
        lock.withLock { idle.append(session) }
    }

    /// Statements the pool's sessions sent, open or closed since.
    var statementsSent: Int {
        lock.withLock { closedStatements + all.reduce(0) { $0 + $1.statementsSent.load(ordering: .relaxed) } }
    }

    /// Closes every session (none may be in use).
    func close() {
        let sessions = lock.withLock {
            defer { all = []; idle = [] }
            return all
        }
        for session in sessions { session.close() }
    }
}
