import TesseraLayout

/// The persistence port: what a backend (a file, a database server) implements so
/// that ``LayoutStore`` can keep layouts in it. The store owns every rule
/// (incremental planning, cell grouping, fingerprints, freshness, what
/// readers may see); a backend keeps rows and answers for them, through
/// small repositories by role (``SpecReads``, ``LayoutReads``,
/// ``SectionReads``, ``CellGroupReads`` and their writing counterparts).
///
/// A backend guarantees:
/// - `read` runs its body in one consistent snapshot: every call inside sees
///   the same committed state, which includes every commit that finished,
///   in any process, before `read` began.
/// - `write` runs its body in one transaction, committed when the body
///   returns and rolled back when it throws; writes to one store run one at
///   a time (other writers wait up to the backend's timeout).
/// - Failures are thrown as ``StoreError`` with the backend's own error kept
///   as the cause.
///
/// What differs between backends (how a name is resolved fast, whether
/// frames are fetched over a network) stays inside the backend: the port
/// has no capability flags.
package protocol StorageBackend: Sendable {
    /// Where the store is (a path or a URL without its password), for messages.
    var location: String { get }

    // Not generic: a generic requirement called through an existential runs
    // unspecialized, which cost 15 % of a warm query.

    /// Runs `body` in one read snapshot.
    func read(_ body: (any ReadSnapshot) throws -> Void) throws

    /// The committed state a read begun now would see, named without
    /// beginning one, from no connection (see ``SnapshotTag``): equal to
    /// the tag under which reads of that state share what they resolve.
    /// Nil when the backend cannot tell for sure (the default), and once
    /// closed (the read a query then falls back to reports `closed`).
    var committedState: SnapshotTag? { get }

    /// Runs `body` in one read snapshot if a connection is free at once;
    /// false, without running it, instead of waiting for one.
    func readIfAvailable(_ body: (any ReadSnapshot) throws -> Void) throws -> Bool

    /// Runs `body` in one read snapshot for async code, never blocking a
    /// cooperative thread; `body` may run more than once (each run in one
    /// snapshot; what the last run did is the read's). By default in place
    /// when a connection is free at once, else on `executor`; a backend
    /// behind a network runs it against the answers it fetched so far,
    /// fetching what a run lacked without holding a thread, then runs it again.
    func read(_ body: @escaping @Sendable (any ReadSnapshot) throws -> Void, on executor: any BlockingExecutor) async throws

    /// Runs `body` in one write transaction. A backend behind a network
    /// awaits each answer the body asks for (no thread waits); a file-backed
    /// one answers at once, on the thread the body runs on (the store runs
    /// it on its ``BlockingExecutor``).
    func write(_ body: (any WriteTransaction) async throws -> Void) async throws

    // MARK: Maintenance

    /// Gives space freed by deletions back to the file system, after the
    /// store deleted what it prunes.
    func compact() throws

    /// Waits until the maintenance that writes scheduled in the background
    /// (checkpoints) is done.
    func finishBackgroundWork()

    /// Finishes what is in flight, leaves everything committed where a copy
    /// of the store finds it (a file-backed store: the WAL folded into the database
    /// file, and the `-wal` and `-shm` files removed when no other
    /// connection has the store open), and releases the connections.
    /// Idempotent; reads and writes after it fail with code `closed`.
    func close()

    /// Bytes the store takes on disk.
    var storageBytes: Int { get }

    /// What the backend's own checks find wrong with its files and indexes
    /// (empty when nothing); reads only.
    func integrityProblems() throws -> [String]
}

/// One committed state, as a read sees it: its rows by role.
package protocol ReadSnapshot: AnyObject {
    var specs: any SpecReads { get }
    var layouts: any LayoutReads { get }
    var sections: any SectionReads { get }
    var groups: any CellGroupReads { get }
    /// Where the layouts this snapshot resolves by name may be kept and
    /// found again (see ``ResolvedNames``); nil when nowhere (a write,
    /// whose rows change under it).
    var resolutionScope: ResolutionScope? { get throws }

    /// Every stored row (and frame blob) that does not match its checksum,
    /// found without throwing at the first one.
    func damagedRows() throws -> [DamagedRow]
}

/// One write transaction: what it reads (its own writes included) and
/// what it changes, by role. Every method may suspend: a backend behind a
/// network awaits the answers it needs, and sends the rows it writes
/// without waiting for them (a failure is thrown by a later call, or by
/// the commit); a file-backed one implements them with the synchronous
/// methods of its snapshot.
package protocol WriteTransaction: AnyObject {
    /// Runs `body` against the transaction's rows as they are now (its own
    /// writes included), through the same repositories a read uses. `body`
    /// may run more than once (a backend behind a network runs it against
    /// the answers fetched so far, then again once it fetched what it
    /// lacked), so it only reads.
    func read<T>(_ body: (any ReadSnapshot) throws -> T) async throws -> T

    var specRows: any SpecRows { get }
    var layoutRows: any LayoutRows { get }
    /// The section and cell group rows of the layouts being written.
    var cellRows: any CellRows { get }

    /// Runs `body` inside a savepoint of the write: when it throws, what it
    /// wrote is rolled back and the rest of the transaction stays.
    func savepoint<T>(_ body: () async throws -> T) async throws -> T
}

extension StorageBackend {
    package var committedState: SnapshotTag? { nil }

    package func read(_ body: @escaping @Sendable (any ReadSnapshot) throws -> Void, on executor: any BlockingExecutor) async throws {
        if try readIfAvailable(body) { return }
        try await executor.run { try self.read(body) }
    }
}

// A backend whose one connection object plays every role hands itself out.

extension ReadSnapshot where Self: SpecReads & LayoutReads & SectionReads & CellGroupReads {
    package var specs: any SpecReads { self }
    package var layouts: any LayoutReads { self }
    package var sections: any SectionReads { self }
    package var groups: any CellGroupReads { self }
}

extension WriteTransaction where Self: SpecRows & LayoutRows & CellRows {
    package var specRows: any SpecRows { self }
    package var layoutRows: any LayoutRows { self }
    package var cellRows: any CellRows { self }
}

// A backend whose write sees its rows at once reads them in place.

extension WriteTransaction where Self: ReadSnapshot {
    package func read<T>(_ body: (any ReadSnapshot) throws -> T) async throws -> T { try body(self) }
}
