import CSQLite

extension SQL {
    static let beginDeferred = SQL("BEGIN DEFERRED")
    /// Reads the database header: inside a transaction, takes its read snapshot.
    static let schemaVersion = SQL("PRAGMA schema_version")
    static let beginImmediate = SQL("BEGIN IMMEDIATE")
    static let beginExclusive = SQL("BEGIN EXCLUSIVE")
    static let commit = SQL("COMMIT")
    static let rollback = SQL("ROLLBACK")
}

extension Connection {
    /// When a transaction takes its locks.
    package enum TransactionKind: Sendable {
        /// Locks on first access; the read snapshot starts at the first read. For reads.
        case deferred
        /// Takes the write lock at BEGIN (waiting up to the busy timeout). For writes:
        /// a deferred transaction that reads and then writes can fail with
        /// `SQLITE_BUSY_SNAPSHOT` without waiting if another writer committed meanwhile.
        case immediate
        /// Like `.immediate`; in WAL mode the two are the same.
        case exclusive

        var begin: SQL {
            switch self {
            case .deferred: SQL.beginDeferred
            case .immediate: SQL.beginImmediate
            case .exclusive: SQL.beginExclusive
            }
        }
    }

    /// Runs `body` in a transaction: commits when it returns, rolls back when it (or
    /// the commit) throws, and rethrows that error. Transactions do not nest: inside
    /// one, use `savepoint(_:)`.
    ///
    /// - Throws: whatever `body` throws, or `SQLiteError` if BEGIN/COMMIT fail
    ///   (`SQLITE_BUSY` when another connection kept the lock past the busy timeout).
    package func transaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        try begin(kind)
        do {
            return try committing(try body())
        } catch {
            rollbackAfterFailure()
            throw error
        }
    }

    /// `transaction(_:_:)` around an async body (a write whose caller runs
    /// it on threads where it may block).
    package func transaction<T>(_ kind: TransactionKind = .immediate, _ body: () async throws -> T) async throws -> T {
        try begin(kind)
        do {
            return try committing(try await body())
        } catch {
            rollbackAfterFailure()
            throw error
        }
    }

    private func begin(_ kind: TransactionKind) throws {
        try cachedStatement(kind.begin).execute()
        transactionState = nil
    }

    /// Commits, then hands `result` on.
    private func committing<T>(_ result: T) throws -> T {
        try cachedStatement(SQL.commit).execute()
        return result
    }

    /// Runs `body` inside a savepoint: released when it returns, rolled back to (and
    /// released) when it throws. Works inside or outside a transaction, and nests;
    /// outside a transaction it behaves like a deferred transaction.
    package func savepoint<T>(_ body: () async throws -> T) async throws -> T {
        // Distinct names per depth keep RELEASE/ROLLBACK TO aimed at our own savepoint
        // even if `body` leaves one of its own open.
        let name = "tessera_savepoint_\(savepointDepth)"
        try cachedStatement("SAVEPOINT \(name)").execute()
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let result: T
        do {
            result = try await body()
            try cachedStatement("RELEASE \(name)").execute()
        } catch {
            // ROLLBACK TO keeps the savepoint open; RELEASE then removes it. If SQLite
            // already rolled back the whole transaction (e.g. SQLITE_FULL), both fail
            // harmlessly and the original error is what matters.
            if isInTransaction {
                try? cachedStatement("ROLLBACK TO \(name)").execute()
                try? cachedStatement("RELEASE \(name)").execute()
            }
            throw error
        }
        return result
    }

    /// Rolls back the open transaction, if SQLite has not already done so. Failures
    /// are ignored: the caller is already reporting the error that caused this.
    private func rollbackAfterFailure() {
        guard isInTransaction else { return }
        try? cachedStatement(SQL.rollback).execute()
    }
}
