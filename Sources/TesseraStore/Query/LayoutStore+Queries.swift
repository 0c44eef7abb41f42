import Locking
import TesseraLayout

/// What every read of a layout shares: the read of its fresh layout in one snapshot
/// (`readFresh`), which the one retry loop (`freshLayout`) runs, or the answer from memory before it.
extension LayoutStore {
    /// `body` on the fresh layout inside a read: its value, nil when missing or stale, and whether its directory
    /// was cached (for the caller to count once the read is done). A read whose body runs more than once (a backend
    /// behind a network) passes `missed`, set by any run that loaded the directory: a later run finds it cached.
    func readFresh<T>(
        name: String, crossExtent: Double, storage: RowSnapshot, missed: Locked<Bool>? = nil, _ body: (LayoutReader) throws -> T
    ) throws -> (value: T?, directoryHit: Bool?) {
        do {
            guard let record = try freshRecord(name: name, crossExtent: crossExtent, storage: storage) else { return (nil, nil) }
            let directory = try cachedDirectory(of: record, storage: storage)
            if directory.hit == false { missed?.withLock { $0 = true } }
            let reader = LayoutReader(box: LayoutRecordBox(record), storage: storage, store: self, cached: directory.layout)
            do {
                return (try body(reader), directory.hit)
            } catch is UnverifiedIndex {
                // The indexes' answer could not be proven complete: answer
                // from the whole directory, every row verified, none missing.
                let loaded = try loadDirectory(of: record, storage: storage)
                return (try body(reader.with(cached: loaded)), directory.hit)
            }
        } catch let error as StoreError {
            throw error.inLayout(name: name, crossExtent: crossExtent)
        }
    }

    /// `body` on the fresh layout of `name` at `crossExtent`, from memory;
    /// nil when something it needs is not there.
    func answerFromMemory<T>(name: String, crossExtent: Double, _ body: (LayoutReader) throws -> T) throws -> T? {
        guard cache.budget > 0, let state = backend.committedState,
              let (box, directory) = cache.resolvedWithDirectory(ResolvedName(tag: state, name: name, crossExtent: crossExtent))
        else { return nil }
        do {
            let answer = try body(LayoutReader(box: box, storage: nil, store: self, cached: directory))
            // Counted once answered: a query that falls back to a read counts there.
            cache.nameUses.count(hit: true)
            cache.directoryUses.count(hit: true)
            return answer
        } catch is AnswerNeedsStorage {
            return nil
        } catch let error as StoreError {
            throw error.inLayout(name: name, crossExtent: crossExtent)
        }
    }

    /// The elements in `rect` (pinned when `pinning`) of a layout answered
    /// from memory alone, nil when that needs a read: for this package's
    /// benchmark, whose synchronous loops time the warm path by itself.
    package func elementsFromMemory(
        name: String, crossExtent: Double, in rect: Rect, pinning: Bool, direction: LayoutDirection = .leftToRight, offsets: OrthogonalOffsets = .none
    ) throws -> [LayoutElement]? {
        let query: LayoutQuery = pinning ? .viewport(rect) : .rect(rect)
        return try answerFromMemory(name: specName(name), crossExtent: crossExtent) { try $0.answer(query, direction: direction, offsets: offsets)?.elements ?? [] }
    }
}

/// Thrown by a query answered from memory alone (no connection, no
/// statement: everything it needs cached under keys that name it exactly)
/// where it needs a read of storage: the query then runs as a read.
struct AnswerNeedsStorage: Error {}
