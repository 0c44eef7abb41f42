import Locking
import NIOCore
import PostgresNIO
import TesseraStore

// A write transaction on a writer session, without a thread that waits for
// the server: a statement whose answer the store needs (a read, a new
// number) runs against the answers fetched so far and again once the one
// it lacked is fetched (`answering`); one whose answer it does not need (an
// update, a delete, rows in batches) is sent without waiting (`pipeline`).
// The server runs the session's statements in order, so later ones see it,
// and a failure is thrown by the next awaited statement or by the commit.

/// The first failure among the statements a write sent without waiting,
/// recorded on the event loop when it answers.
final class PipelineFailure: Sendable {
    private let first = Locked<StoreError?>(nil)

    func record(_ error: StoreError) {
        first.withLock { if $0 == nil { $0 = error } }
    }

    /// The failure, forgotten.
    func take() -> StoreError? {
        first.withLock { failure in
            defer { failure = nil }
            return failure
        }
    }
}

extension PostgresSession {
    /// Runs `body`, one of the session's synchronous statements, until it
    /// has the answers it asks for: each it lacks is fetched without
    /// holding a thread, then `body` runs again (see `ReplayLog`). What it
    /// sends without waiting (rows, an advisory lock) goes once: a run
    /// makes the writes of the one before in the same order, and sends
    /// those past them (``sendsWrite()``). Within one call, a statement
    /// read twice answers the same, so a step reads a row before it writes it.
    func answering<T>(_ body: (PostgresSession) throws -> T) async throws -> T {
        let log = ReplayLog()
        replay = log
        writesSent = 0
        defer {
            replay = nil
            writesSent = nil
        }
        while true {
            log.startRun()
            writesInRun = 0
            var failure: (any Error)?
            do {
                let value = try body(self)
                if log.wanted == nil { return value }
            } catch {
                failure = error
            }
            if log.wanted == nil, let failure { throw failure }
            do {
                try await log.fetchWanted(on: self)
            } catch {
                // An earlier statement sent without waiting may have failed
                // first (the server then refuses the rest): that is the cause.
                try await drainPipeline()
                throw error
            }
        }
    }

    /// Whether the write the caller is about to make is new: false for one a
    /// run before this one (of `answering`) made already.
    func sendsWrite() -> Bool {
        guard let sent = writesSent else { return true }
        writesInRun += 1
        guard writesInRun > sent else { return false }
        writesSent = writesInRun
        return true
    }

    /// Takes the advisory lock of spec `name` when this session writes and
    /// does not hold it yet (waits up to the lock timeout for another
    /// writer): writers of one spec serialise on it, taken before the
    /// transaction reads anything of that spec; writers of other specs go on.
    func lockSpecIfWriting(_ name: String) throws {
        guard let schema = writingSchema, !lockedSpecs.contains(name) else { return }
        try pipeline("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", .of("tessera.\(schema).spec.\(name)"))
        lockedSpecs.insert(name)
    }

    /// Runs `body` inside a savepoint of the write transaction.
    func savepoint<T>(_ body: () async throws -> T) async throws -> T {
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let name = "tessera_\(savepointDepth)"
        try pipeline("SAVEPOINT \(name)")
        do {
            let result = try await body()
            // A failure of the rows it sent is the savepoint's own.
            try flushPending()
            try await drainPipeline()
            try pipeline("RELEASE SAVEPOINT \(name)")
            return result
        } catch {
            // Rows of the savepoint not sent yet are dropped with it.
            pending = PendingRows()
            try? await drainPipeline()
            try await run("ROLLBACK TO SAVEPOINT \(name)")
            throw error
        }
    }

    /// Sends one statement of a write without waiting for its answer, after
    /// the rows pending: a failure is thrown by `drainPipeline()`.
    func pipeline(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) throws {
        try flushPending()
        sendPipelined(sql, binds)
    }

    func sendPipelined(_ sql: String, _ binds: PostgresBindings) {
        statementsSent.add(1, ordering: .relaxed)
        let future = connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
        let (failures, location) = (pipelineFailure, location)
        future.whenFailure { error in failures.record(StoreError(postgres: error, location: location, connecting: false)) }
        lastPipelined = future
    }

    /// Waits, without a thread, until every statement sent without waiting
    /// has answered (the last one: the server answers in order), and throws
    /// the first that failed.
    func drainPipeline() async throws {
        if let last = lastPipelined {
            lastPipelined = nil
            _ = try? await last.get()
        }
        if let failure = pipelineFailure.take() { throw failure }
    }
}
