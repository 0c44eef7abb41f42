import NIOCore
import PostgresNIO
import TesseraStore

/// Async reads without a thread that waits: a read's body is synchronous
/// (the store's rules are written once, for every backend), so an async
/// read runs it against the answers fetched so far. A statement it asks
/// for and the session has no answer to is noted and the body stops; the
/// driver (`PostgresStorage.read(_:on:)`) fetches that answer without
/// blocking a thread, then runs the body again from the start. The port
/// allows it: a read's body may run more than once, and each run reads one
/// snapshot. A warm query runs once (everything cached) or twice (its one
/// statement); a statement's answer is fetched once per read.
final class ReplayLog {
    /// The answers fetched in this read, by statement.
    private(set) var answers: [StatementKey: Answer] = [:]
    /// The statement the body asked for last and had no answer to.
    private(set) var wanted: Wanted?
    /// Statements fetched in this read, at most ``maximumStatements``.
    private(set) var fetched = 0

    /// More than any read of the store sends (a warm query sends 0 or 1, a
    /// cold one 2 or 3, a query over many sections a page of 64 per
    /// statement): beyond it the body runs too often to be worth it.
    static let maximumStatements = 256

    enum Answer {
        case rows(PostgresQueryResult)
        case prepared([PostgresRow])
    }

    struct Wanted {
        var key: StatementKey
        var binds: PostgresBindings
        var preparedValues: [PostgresData]?
    }

    /// Thrown where the body asked for a statement without an answer.
    struct Needed: Error {}

    func answer(_ key: StatementKey) -> Answer? { answers[key] }

    func want(_ wanted: Wanted) -> Needed {
        self.wanted = wanted
        return Needed()
    }

    /// Before each run of the body.
    func startRun() { wanted = nil }

    /// Forgets every answer: the read goes on in another snapshot.
    func forget() {
        answers.removeAll()
        wanted = nil
    }

    /// Fetches what the body wanted, without holding a thread.
    func fetchWanted(on session: PostgresSession) async throws {
        guard let wanted else { return }
        fetched += 1
        guard fetched <= Self.maximumStatements else {
            throw StoreError(.internal, "a read asked for more than \(Self.maximumStatements) statements", store: session.location)
        }
        answers[wanted.key] = try await session.fetch(wanted)
        self.wanted = nil
    }
}

/// A statement and its parameters, as a read asks for it.
struct StatementKey: Hashable {
    var text: StatementText
    var sql: String { text.sql }
    var binds: PostgresBindings
    /// A prepared statement's parameters: their types and bytes.
    var prepared: [PreparedValue]?

    struct PreparedValue: Hashable {
        var type: PostgresDataType
        var value: ByteBuffer?
    }

    init(sql: String, binds: PostgresBindings) {
        text = StatementText(sql: sql)
        self.binds = binds
    }

    init(sql: String, prepared values: [PostgresData]) {
        text = StatementText(sql: sql)
        self.binds = PostgresBindings()
        self.prepared = values.map { PreparedValue(type: $0.type, value: $0.value) }
    }
}

/// A statement's text as a dictionary key, hashed by its length and last
/// bytes: a query looks its statement up several times, and most are
/// several hundred bytes long. Two are equal only when the whole texts are.
struct StatementText: Hashable {
    var sql: String

    func hash(into hasher: inout Hasher) {
        hasher.combine(sql.utf8.count)
        for byte in sql.utf8.suffix(32) { hasher.combine(byte) }
    }
}

extension PostgresSession {
    /// Sends one statement the body wanted and waits for its answer
    /// without holding a thread.
    func fetch(_ wanted: ReplayLog.Wanted) async throws -> ReplayLog.Answer {
        statementsSent.add(1, ordering: .relaxed)
        do {
            if let values = wanted.preparedValues {
                let statement = try await preparedStatement(wanted.key.text)
                do {
                    return .prepared(try await statement.execute(values).get())
                } catch {
                    // Prepared again next time (after a change of the schema, say).
                    forgetPreparedStatement(wanted.key.text)
                    throw error
                }
            }
            return .rows(try await connection.query(PostgresQuery(unsafeSQL: wanted.key.sql, binds: wanted.binds), logger: logger).get())
        } catch {
            throw StoreError(postgres: error, location: location, connecting: false)
        }
    }

    /// Runs a statement without waiting for its answer (BEGIN, COMMIT,
    /// ROLLBACK of an async read).
    func run(_ sql: String) async throws {
        statementsSent.add(1, ordering: .relaxed)
        do {
            _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).get()
        } catch {
            throw StoreError(postgres: error, location: location, connecting: false)
        }
    }
}
