import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization
import TesseraStore

/// One connection to the server. Its statements are written as synchronous
/// methods (the store's row port is synchronous), and never wait: in a
/// read or a write's step they run against the answers fetched so far, the
/// one they lacked is fetched without holding a thread, and they run again
/// (see `ReplayLog`, `answering`); a write sends the statements whose
/// answer it does not need without waiting (`pipeline`). A session is
/// used by one task at a time (the pool hands it out).
final class PostgresSession {
    let connection: PostgresConnection
    let location: String
    let logger: Logger

    /// The store's schema while the session runs a write; nil in reads.
    var writingSchema: String?
    /// For writes: the specs whose advisory lock this transaction holds.
    var lockedSpecs: Set<String> = []
    /// For writes: rows not sent yet (see `PendingRows`).
    var pending = PendingRows()
    /// For writes: the depth of savepoints.
    var savepointDepth = 0
    /// For writes, within `answering`: the writes its runs sent so far, and
    /// those the current run made (see `sendsWrite()`).
    var writesSent: Int?
    var writesInRun = 0
    /// For writes: the last statement sent without waiting (see `pipeline`),
    /// until it is drained.
    var lastPipelined: EventLoopFuture<PostgresQueryResult>?
    /// For writes: the first of those that failed.
    let pipelineFailure = PipelineFailure()
    /// For an async read: the answers fetched so far (see `ReplayLog`);
    /// nil: each statement waits for its answer.
    var replay: ReplayLog?
    /// For reads: the storage's listener for commits (`freshness=notified`).
    var changeListener: ChangeListener?
    /// For reads: whether the read runs outside a transaction, where its
    /// first statement is a snapshot by itself (see `PostgresStorage.read`).
    var singleStatementRead = false
    /// In such a read: statements sent, and whether one was refused.
    var statementsInRead = 0
    var refusedSecondStatement = false
    /// In such a read: the statement being sent fetches frames that will be
    /// checked against the checksums the snapshot gave, so it may be another;
    /// and whether one was sent, after which a failure may be a commit
    /// between the two (the read then runs again in one snapshot).
    var fetchingVerifiedFrames = false
    var sawLaterSnapshot = false
    /// The hot reads' statements, prepared on this session, by their SQL.
    private var preparedStatements: [StatementText: PreparedQuery] = [:]
    /// Statements sent to the server (preparing one not counted), for tests
    /// of how many a read takes.
    let statementsSent = Atomic<Int>(0)

    private init(connection: PostgresConnection, location: String, logger: Logger) {
        self.connection = connection
        self.location = location
        self.logger = logger
    }

    /// Connects and authenticates without holding a thread, with the
    /// store's schema first on the search path.
    static func connect(to url: PostgresURL, on eventLoop: any EventLoop, id: Int) async throws -> PostgresSession {
        let logger = Self.noLogger
        do {
            let connection = try await PostgresConnection.connect(on: eventLoop, configuration: configuration(url), id: id, logger: logger).get()
            return PostgresSession(connection: connection, location: url.description, logger: logger)
        } catch {
            throw StoreError(postgres: error, location: url.description, connecting: true)
        }
    }

    private static var noLogger: Logger { Logger(label: "tessera.postgres", factory: { _ in SwiftLogNoOpLogHandler() }) }

    /// How a session connects: the store's schema first on the search path.
    private static func configuration(_ url: PostgresURL) -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        if let socket = url.unixSocketPath {
            configuration = .init(unixSocketPath: socket, username: url.user, password: url.password, database: url.database)
        } else {
            configuration = .init(host: url.host, port: url.port, username: url.user, password: url.password, database: url.database, tls: .disable)
        }
        configuration.options.additionalStartupParameters = [
            ("search_path", "\(url.schema), public"),
            ("application_name", "tessera"),
            // Frames and bounds are exact doubles: no rounding of floats sent as text.
            ("extra_float_digits", "3"),
        ]
        configuration.options.connectTimeout = .seconds(10)
        return configuration
    }

    /// Runs one statement and collects its rows, after sending the rows a
    /// write has pending (so that it sees them).
    @discardableResult
    func query(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) throws -> PostgresQueryResult {
        try beginStatement()
        return try send(sql, binds)
    }

    /// What every statement does first: in a read outside a transaction,
    /// count it (refusing a second: it would see another snapshot, unless it
    /// fetches frames checked against the checksums the first gave); in a
    /// write, send the rows pending so that the statement sees them.
    private func beginStatement() throws {
        if singleStatementRead {
            guard statementsInRead == 0 || fetchingVerifiedFrames else { throw refuseOutsideTransaction() }
            if statementsInRead > 0 { sawLaterSnapshot = true }
            statementsInRead += 1
        }
        try flushPending()
    }

    /// Runs a read's statement, prepared on this session the first time
    /// (parsed and planned once, not on every call); its rows' cells. Every
    /// parameter in `sql` has an explicit type (`$1::int8`): the binds are
    /// sent in binary, as `binds` type them.
    func preparedCells(_ sql: String, _ binds: [PostgresData]) throws -> [PostgresRandomAccessRow] {
        try beginStatement()
        let key = StatementKey(sql: sql, prepared: binds)
        let wanted = ReplayLog.Wanted(key: key, binds: PostgresBindings(), preparedValues: binds)
        guard case .prepared(let rows) = try answer(wanted) else { preconditionFailure("a prepared statement answered with rows") }
        return rows.map { $0.makeRandomAccess() }
    }

    /// With a change listener (`freshness=notified`), resolved names are
    /// kept under the count of commits it heard of. A read's first attempt
    /// then answers only from what was resolved under that count (taking it
    /// counts as the read's one statement); any other statement makes it run
    /// again in one snapshot, which resolves its layouts anew and keeps them
    /// (within a transaction a layout resolved under the same count may be
    /// older than the snapshot, whose other rows must match it).
    ///
    /// Without one, nothing tells a session cheaply that another machine
    /// committed: every read resolves its layouts in its own snapshot.
    var resolutionScope: ResolutionScope? {
        guard let epoch = changeListener?.epoch else { return nil }
        if singleStatementRead { statementsInRead = max(statementsInRead, 1) }
        return ResolutionScope(tag: SnapshotTag(UInt64(bitPattern: epoch), 0, 0, 0, 0, 0), reuse: singleStatementRead)
    }

    /// The answer to one statement of a read or a write's step: fetched
    /// already, or asked of the driver of the read or step, which fetches it
    /// and runs the body again (see `ReplayLog`).
    private func answer(_ wanted: ReplayLog.Wanted) throws -> ReplayLog.Answer {
        guard let replay else {
            throw StoreError(.internal, "a statement was sent outside a read or a write's step", store: location)
        }
        guard let answer = replay.answer(wanted.key) else { throw replay.want(wanted) }
        return answer
    }

    /// The statement `text` prepared on this session, prepared now the
    /// first time without holding a thread.
    func preparedStatement(_ text: StatementText) async throws -> PreparedQuery {
        if let known = preparedStatements[text] { return known }
        let statement = try await connection.prepare(query: text.sql).get()
        preparedStatements[text] = statement
        return statement
    }

    func forgetPreparedStatement(_ text: StatementText) {
        preparedStatements[text] = nil
    }

    /// Ends the first attempt of a read outside a transaction: it runs
    /// again inside one (see `PostgresStorage.read`).
    func refuseOutsideTransaction() -> StoreError {
        refusedSecondStatement = true
        return StoreError(.internal, "a read outside a transaction needed a snapshot of more than one statement", store: location)
    }

    /// Sends the rows a write has pending, without waiting (see `pipeline`).
    func flushPending() throws {
        guard !pending.isEmpty else { return }
        let statements = try pending.statements()
        pending = PendingRows()
        for (sql, binds) in statements { sendPipelined(sql, binds) }
    }

    private func send(_ sql: String, _ binds: PostgresBindings) throws -> PostgresQueryResult {
        let key = StatementKey(sql: sql, binds: binds)
        let wanted = ReplayLog.Wanted(key: key, binds: binds, preparedValues: nil)
        guard case .rows(let result) = try answer(wanted) else { preconditionFailure("a statement answered as a prepared one") }
        return result
    }

    /// Runs one statement; its rows as ``RowColumns``.
    func rows(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) throws -> [RowColumns] {
        try query(sql, binds).map { RowColumns($0, location: location) }
    }

    /// Runs one statement; the integer in the first column of its first row.
    func scalarInt64(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) throws -> Int64? {
        try rows(sql, binds).first.map { try $0.int64(0) }
    }

    /// Runs `body` in one transaction: committed when it returns, rolled
    /// back when it throws.
    func inTransaction<T>(_ body: () async throws -> T) async throws -> T {
        try await run("BEGIN")
        do {
            let result = try await body()
            try await run("COMMIT")
            return result
        } catch {
            try? await run("ROLLBACK")
            throw error
        }
    }

    /// Runs statements without parameters (a migration's script), one after
    /// another (see `SQLScript`), each awaited: not through `answering`,
    /// whose replays would run the script from its start once per statement.
    func execute(script: String) async throws {
        for statement in SQLScript.statements(script) { try await run(statement) }
    }

    /// Closes the connection, without waiting for it to end: the
    /// connection lives until it has (PostgresNIO requires it closed when
    /// it goes).
    func close() {
        let connection = connection
        connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    var isClosed: Bool { connection.isClosed }
}

extension PostgresBindings {
    /// Bindings of `values` in order; nil binds NULL.
    static func of(_ values: (any PostgresThrowingDynamicTypeEncodable)?...) throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            if let value { try bindings.append(value) } else { bindings.appendNull() }
        }
        return bindings
    }
}
