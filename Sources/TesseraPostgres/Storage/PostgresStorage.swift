import Locking
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization
import TesseraStore

/// The PostgreSQL backend: a pool of reader sessions, each read one
/// statement outside a transaction when that is all it needs, else one
/// REPEATABLE READ, READ ONLY transaction (see `read`); with
/// `freshness=notified`, a listener for commits, shared by the readers; one
/// writer session per process, each write one READ COMMITTED transaction
/// that takes an advisory lock per spec it touches (see
/// `PostgresSession.lockSpecIfWriting`). Both go through ``PostgresRows``.
/// The sessions' connections live on an event loop of the storage's own, so
/// a caller on any other thread may wait for them.
final class PostgresStorage: StorageBackend, Sendable {
    let url: PostgresURL
    let readOnly: Bool
    private let busyTimeout: Double
    private let group: MultiThreadedEventLoopGroup
    private let readers: SessionPool
    private let writers: SessionPool
    /// Hears of commits, with `freshness=notified`.
    private let changeListener: ChangeListener?
    init(url: PostgresURL, maximumReaders: Int, busyTimeout: Double, readOnly: Bool) async throws {
        self.url = url
        self.readOnly = readOnly
        self.busyTimeout = busyTimeout
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let eventLoop = group.next()
        readers = SessionPool(url: url, eventLoop: eventLoop, maximum: maximumReaders)
        writers = SessionPool(url: url, eventLoop: eventLoop, maximum: 1)
        var listener: ChangeListener?
        do {
            if readOnly {
                try await readers.withSession { session in try await PostgresMigrator.requireCurrent(session, url: url) }
            } else {
                try await writers.withSession { session in try await PostgresMigrator.migrate(session, url: url) }
            }
            listener = url.freshness == .notified ? try await ChangeListener(url: url, eventLoop: eventLoop) : nil
        } catch {
            changeListener = nil
            shutdown()
            throw error
        }
        changeListener = listener
    }

    deinit { shutdown() }

    /// Closes the sessions and the listener (PostgreSQL keeps everything
    /// committed on its side: nothing to fold).
    func close() { shutdown() }

    /// Set by the first `shutdown()`.
    private let isShutDown = Atomic<Bool>(false)

    private func refuseIfClosed() throws {
        if isShutDown.load(ordering: .acquiring) { throw StoreError.closed(store: url.description) }
    }

    private func shutdown() {
        guard !isShutDown.exchange(true, ordering: .acquiringAndReleasing) else { return }
        changeListener?.close()
        readers.close()
        writers.close()
        // Without waiting: deinit may run on any thread, an event loop's too.
        group.shutdownGracefully { _ in }
    }

    var location: String { url.description }

    /// With `freshness=notified` and while the listener listens: the count
    /// of commits it heard of, the tag under which reads keep what they
    /// resolve (see `PostgresSession.resolutionScope`), so that a warm
    /// query answers from memory without a session. Nil otherwise, and once closed.
    var committedState: SnapshotTag? {
        guard let epoch = changeListener?.epoch, !isShutDown.load(ordering: .acquiring) else { return nil }
        return SnapshotTag(UInt64(bitPattern: epoch), 0, 0, 0, 0, 0)
    }

    /// The names the schema holds more than one spec under, read as the store opens.
    func nameConflicts() async throws -> [String] {
        let names = Locked<[String]>([])
        let location = location
        try await readReplaying { rows in
            let found = try RowSnapshot(rows, location: location).nameConflicts()
            names.withLock { $0 = found }
        }
        return names.withLock { $0 }
    }

    /// Whether a failed first attempt outside a transaction runs again in
    /// one: when it was refused a second statement, or it fetched frames in
    /// a later snapshot than its first statement's (a commit between the
    /// two looks like damage, which one snapshot tells apart).
    private static func mayRunAgain(_ session: PostgresSession) -> Bool {
        session.refusedSecondStatement || session.sawLaterSnapshot
    }

    /// Runs `body` first outside a transaction, where its first statement
    /// is one snapshot by itself (a warm query needs no other: the layout's
    /// row, its directory and frames cached); if it asks for a second
    /// statement, it runs again from the start in one REPEATABLE READ,
    /// READ ONLY transaction. Whatever the first attempt did or cached came
    /// from a snapshot that includes every commit before the read began.
    /// No thread waits: `body` runs against the answers fetched so far,
    /// and what a run lacked is fetched, awaited, before the next run (see
    /// `ReplayLog`). Nothing runs on `executor`.
    func read(_ body: @escaping @Sendable (any RowReader) throws -> Void, on executor: any BlockingExecutor) async throws {
        try await readReplaying(body)
    }

    private func readReplaying(_ body: (any RowReader) throws -> Void) async throws {
        try refuseIfClosed()
        try await readers.withSession { session in
            let log = ReplayLog()
            session.changeListener = changeListener
            session.replay = log
            defer {
                session.replay = nil
                session.singleStatementRead = false
            }
            if try await runUntilAnswered(body, session: session, log: log, singleStatement: true) { return }
            // Another snapshot: nothing fetched so far counts.
            log.forget()
            try await session.run("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            do {
                _ = try await runUntilAnswered(body, session: session, log: log, singleStatement: false)
                try await session.run("COMMIT")
            } catch {
                try? await session.run("ROLLBACK")
                throw error
            }
        }
    }

    /// Runs `body` until a run asks for no statement it lacks; false when,
    /// outside a transaction, it needs more than one snapshot.
    private func runUntilAnswered(
        _ body: (any RowReader) throws -> Void, session: PostgresSession, log: ReplayLog, singleStatement: Bool
    ) async throws -> Bool {
        while true {
            log.startRun()
            session.singleStatementRead = singleStatement
            session.statementsInRead = 0
            session.refusedSecondStatement = false
            session.sawLaterSnapshot = false
            var failure: (any Error)?
            do { try body(PostgresRows(session)) } catch { failure = error }
            // A body that caught what stopped it and went on read nothing right.
            if session.refusedSecondStatement { return false }
            if log.wanted == nil {
                if let failure {
                    if singleStatement, Self.mayRunAgain(session) { return false }
                    throw failure
                }
                return true
            }
            try await log.fetchWanted(on: session)
        }
    }

    /// A store opened read-only refuses every write before it begins.
    private func refuseIfReadOnly() throws {
        guard readOnly else { return }
        throw StoreError(.readOnly, "the store \(location.quotedForMessage) was opened read-only; nothing was written", store: location)
    }

    /// Runs `body` in one transaction on a writer session, no thread
    /// waiting (see `PostgresSession+Pipeline`): BEGIN and the lock timeout are sent
    /// ahead of the body's first statement, and at the end the rows still
    /// pending, then COMMIT once every statement sent without waiting has
    /// answered (a failure among them rolls the transaction back instead).
    func write(_ body: (any RowWriter) async throws -> Void) async throws {
        try refuseIfClosed()
        try refuseIfReadOnly()
        // Waits for another writer's lock at most the busy timeout.
        let timeout = max(1, Int((busyTimeout * 1000).rounded()))
        let schema = url.schema
        try await writers.withSession { session in
            session.writingSchema = schema
            defer {
                session.writingSchema = nil
                session.lockedSpecs = []
                session.pending = PendingRows()
            }
            do {
                try session.pipeline("BEGIN")
                try session.pipeline("SET LOCAL lock_timeout = \(timeout)")
                try await body(PostgresRows(session))
                try session.flushPending()
                try await session.drainPipeline()
                try await session.run("COMMIT")
            } catch {
                session.pending = PendingRows()
                try? await session.drainPipeline()
                try? await session.run("ROLLBACK")
                throw error
            }
        }
        // This process's readers need not wait for the notification.
        changeListener?.committed()
    }

    /// Compacting gives the space of deleted rows back for reuse and
    /// refreshes the planner's statistics (VACUUM of the store's tables);
    /// nothing runs in the background: every write is committed when it returns.
    func settle(compacting: Bool) async throws {
        guard compacting else { return }
        try refuseIfReadOnly()
        try await writers.withSession { session in
            try await session.run("VACUUM (ANALYZE) specs, spec_sections, spec_item_runs, layouts, layout_sections, cell_groups")
        }
    }

    /// Statements sent by every session so far (for tests).
    var statementsSent: Int { readers.statementsSent + writers.statementsSent }

    /// Runs `script` in one transaction of the writer's session, outside the store's rules.
    func execute(script: String) async throws {
        try await writers.withSession { session in try await session.inTransaction { try await session.execute(script: script) } }
    }

    /// Bytes of the store's tables, their TOAST tables and indexes.
    func storageBytes() async throws -> Int {
        let bytes = try await readers.withSession { session in try await session.answering { session in
            try session.scalarInt64("""
                SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::int8 FROM pg_class AS c
                JOIN pg_namespace AS n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'
                """, .of(url.schema))
        } }
        return Int(bytes ?? 0)
    }

    /// Rows the schema's constraints cannot catch: groups of a slot that has
    /// no section row, and sections counted differently from their layout's row.
    func integrityProblems() async throws -> [String] {
        try await readers.withSession { session in try await session.answering { session in
            var problems: [String] = []
            let orphans = try session.scalarInt64("""
                SELECT count(*) FROM cell_groups AS g WHERE NOT EXISTS (
                    SELECT 1 FROM layout_sections AS s WHERE s.layout_id = g.layout_id AND s.slot = g.slot)
                """) ?? 0
            if orphans > 0 { problems.append("\(orphans) cell groups belong to no section of their layout") }
            let miscounted = try session.scalarInt64("""
                SELECT count(*) FROM layouts AS l
                WHERE l.section_count <> (SELECT count(*) FROM layout_sections AS s WHERE s.layout_id = l.id)
                """) ?? 0
            if miscounted > 0 { problems.append("\(miscounted) layouts have another number of section rows than they count") }
            // Each group's reach from its predecessor's (see GroupReach): right for every row, right for the slot.
            let unreached = try session.scalarInt64("""
                WITH chained AS (
                    SELECT g.*, lag(reach_start) OVER w AS before_start, lag(reach_end) OVER w AS before_end,
                        lag(reach_slack) OVER w AS before_slack, row_number() OVER w AS position
                    FROM cell_groups AS g WINDOW w AS (PARTITION BY layout_id, slot ORDER BY first_item)
                )
                SELECT count(*) FROM chained WHERE
                    CASE WHEN position = 1 THEN
                        reach_start IS DISTINCT FROM min_scroll OR reach_end IS DISTINCT FROM max_scroll OR reach_slack IS DISTINCT FROM 0
                    ELSE
                        reach_start IS DISTINCT FROM greatest(before_start, min_scroll)
                        OR reach_end IS DISTINCT FROM greatest(before_end, max_scroll)
                        OR reach_slack IS DISTINCT FROM greatest(before_slack, greatest(before_start, min_scroll) - min_scroll)
                    END
                """) ?? 0
            if unreached > 0 { problems.append("\(unreached) cell groups' reach disagrees with the bounds of their slot's groups") }
            return problems
        } }
    }
}
