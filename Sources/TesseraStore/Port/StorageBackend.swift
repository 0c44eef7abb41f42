import TesseraLayout

/// The persistence port: what a backend (a file, a database server) implements so
/// that ``LayoutStore`` can keep layouts in it. The store owns every rule
/// (incremental planning, cell grouping, fingerprints, freshness, checksums,
/// what readers may see); a backend keeps rows (``RowReader``, ``RowWriter``).
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
    // Not generic: a generic requirement called through an existential runs
    // unspecialized, which cost 15 % of a warm query.

    /// The committed state a read begun now would see, named without
    /// beginning one, from no connection (see ``SnapshotTag``): equal to
    /// the tag under which reads of that state share what they resolve.
    /// Nil when the backend cannot tell for sure (the default), and once
    /// closed (the read a query then falls back to reports `closed`).
    var committedState: SnapshotTag? { get }

    /// Runs `body` in one read snapshot for async code, never blocking a
    /// cooperative thread; `body` may run more than once (each run in one
    /// snapshot; what the last run did is the read's). A backend of files
    /// runs it in place when a connection is free at once, else on
    /// `executor`; a backend behind a network runs it against the answers
    /// it fetched so far, fetching what a run lacked without holding a
    /// thread, then runs it again.
    func read(_ body: @escaping @Sendable (any RowReader) throws -> Void, on executor: any BlockingExecutor) async throws

    /// Runs `body` in one write transaction. A backend behind a network
    /// awaits each answer the body asks for (no thread waits); a file-backed
    /// one answers at once, on the thread the body runs on (the store runs
    /// it on its ``BlockingExecutor``).
    func write(_ body: (any RowWriter) async throws -> Void) async throws

    // MARK: Maintenance

    /// Waits until the maintenance that writes scheduled in the background
    /// (checkpoints) is done; with `compacting`, first gives space freed by
    /// deletions back to the file system (after the store deleted what it prunes).
    /// The store calls it on its ``BlockingExecutor``.
    func settle(compacting: Bool) async throws

    /// Refuses new reads and writes and, once those in flight end (without
    /// waiting for them), leaves everything committed where a copy
    /// of the store finds it (a file-backed store: the WAL folded into the database
    /// file, and the `-wal` and `-shm` files removed when no other
    /// connection has the store open), and releases the connections.
    /// Idempotent; reads and writes after it fail with code `closed`.
    func close()

    /// Bytes the store takes on disk.
    func storageBytes() async throws -> Int

    /// What the backend's own checks find wrong with its files and indexes
    /// (empty when nothing); reads only, on the store's ``BlockingExecutor``.
    func integrityProblems() async throws -> [String]
}

extension StorageBackend {
    package var committedState: SnapshotTag? { nil }
}
