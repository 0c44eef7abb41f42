import TesseraLayout

/// The persistence port: what a backend (a file, a database server) implements so that ``LayoutStore`` keeps layouts
/// in it. It keeps rows (``RowReader``, ``RowWriter``) and throws failures as ``StoreError``, its own error the cause;
/// every rule is the store's, and what differs per backend stays inside it: no capability flags (Architecture.md).
package protocol StorageBackend: Sendable {
    // Not generic: a generic requirement called through an existential runs
    // unspecialized, which cost 15 % of a warm query.

    /// The ``SnapshotTag`` of the committed state a read begun now would see, named from no connection: the tag reads of
    /// that state resolve under. Nil when the backend cannot tell for sure (the default), and once closed (the read a
    /// query then falls back to reports `closed`).
    var committedState: SnapshotTag? { get }

    /// Runs `body` in one snapshot holding every commit (any process) finished before the read began, never blocking
    /// a cooperative thread (files: in place when a connection is free at once, else on `executor`). `body` may rerun,
    /// each run in one snapshot, the last one's is the read's (a network backend fetches what a run lacked, then reruns).
    func read(_ body: @escaping @Sendable (any RowReader) throws -> Void, on executor: any BlockingExecutor) async throws

    /// Runs `body` in one transaction, committed when it returns and rolled back when it throws; one write per store
    /// at a time (others wait up to the backend's timeout). A network backend awaits each answer (no thread waits); a
    /// file-backed one answers at once, on the body's thread (the store runs it on its ``BlockingExecutor``).
    func write(_ body: (any RowWriter) async throws -> Void) async throws

    // MARK: Maintenance

    /// Waits for the maintenance that writes scheduled in the background (checkpoints); with `compacting`, first gives
    /// space freed by deletions back to the file system (after pruning). Called on the store's ``BlockingExecutor``.
    func settle(compacting: Bool) async throws

    /// Refuses new reads and writes and, once those in flight end (not waiting for them), leaves everything committed
    /// where a copy of the store finds it (a file: the WAL folded in, `-wal` and `-shm` removed when no other connection
    /// has it open) and releases the connections. Idempotent; reads and writes after it fail with code `closed`.
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
