import TesseraLayout

/// Warm queries answered from memory: no connection, no statement.
///
/// When the backend names the committed state without a transaction
/// (``StorageBackend/committedState``: a file-backed store in WAL mode reads
/// its WAL index's header), a query whose layout was resolved in that state
/// by an earlier read, whose directory is cached and whose candidate
/// groups' frames are cached, verified (all in the ``StoreCache``), is
/// answered from those alone. Each is keyed by what
/// names it exactly (the state; a layout's revision; a group's id and
/// checksum), so the answer is the one a read begun now would give. Any
/// miss, and any state the backend cannot name, runs the query as a read,
/// which fills the caches for the next.
/// Thrown by a query answered from memory alone where it needs what only a
/// read of storage gives (a reader without a snapshot): the query then runs as a read.
struct AnswerNeedsStorage: Error {}

extension LayoutStore {
    /// `body` on the fresh layout of `name` at `crossExtent`, from memory;
    /// nil when something it needs is not there.
    func answerFromMemory<T>(name: String, crossExtent: Double, _ body: (LayoutReader) throws -> T) throws -> T? {
        guard cache.budget > 0, let state = backend.committedState,
              let (box, directory) = cache.resolvedWithDirectory(ResolvedName(tag: state, name: name, crossExtent: crossExtent))
        else { return nil }
        do {
            let answer = try body(LayoutReader(box: box, storage: nil, store: self, cached: directory))
            // Counted once answered: a query that falls back to a read counts there.
            cache.count(.name, hits: 1, misses: 0)
            cache.count(.directory, hits: 1, misses: 0)
            return answer
        } catch is AnswerNeedsStorage {
            return nil
        } catch let error as StoreError {
            throw error.inLayout(name: name, crossExtent: crossExtent)
        }
    }
}
