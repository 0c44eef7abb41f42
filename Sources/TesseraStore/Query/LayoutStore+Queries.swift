import Locking
import Synchronization
import TesseraLayout

/// What every read of a layout shares: the read of its fresh layout in one snapshot
/// (`readFresh`), which the one retry loop (`freshLayout`) runs, or the answer from memory before it.
extension LayoutStore {
    /// `body` on the fresh layout inside a run of a read: its value, nil when missing or stale, and whether its
    /// directory was cached (for the caller to count once the read is done, with what earlier `runs` did).
    func readFresh<T>(
        name: String, crossExtent: Double, storage: RowSnapshot, runs: ReadRuns, _ body: (LayoutReader) throws -> T
    ) throws -> (value: T?, directoryHit: Bool?) {
        runs.start()
        do {
            guard let record = try freshRecord(name: name, crossExtent: crossExtent, storage: storage) else { return (nil, nil) }
            let directory = try cachedDirectory(of: record, storage: storage)
            if directory.hit == false { runs.loadedDirectory() }
            let reader = LayoutReader(box: LayoutRecordBox(record), storage: storage, store: self, cached: directory.layout, runs: runs)
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
            let answer = try body(LayoutReader(box: box, storage: nil, store: self, cached: directory, runs: nil))
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
    package func elementsFromMemory(name: String, crossExtent: Double, in rect: Rect, pinning: Bool) throws -> [LayoutElement]? {
        let query: LayoutQuery = pinning ? .viewport(rect) : .rect(rect)
        return try answerFromMemory(name: specName(name), crossExtent: crossExtent) { try $0.answer(query, direction: .leftToRight, offsets: .none)?.elements ?? [] }
    }
}

/// Thrown by a query answered from memory alone (no connection, no
/// statement: everything it needs cached under keys that name it exactly)
/// where it needs a read of storage: the query then runs as a read.
struct AnswerNeedsStorage: Error {}

/// What a read carries from one run of its body to the next (a backend behind a network reruns it once it has what
/// a run lacked; runs follow one another): whether a run loaded the directory, the last run's frame uses, and what
/// the runs before it read, which it found cached. Counted once the read is done.
final class ReadRuns: Sendable {
    private let loaded = Atomic(false), earlierMisses = Atomic(0), hits = Atomic(0), misses = Atomic(0)
    var loadedDirectoryInAnyRun: Bool { loaded.load(ordering: .relaxed) }
    func start() { earlierMisses.add(misses.exchange(0, ordering: .relaxed), ordering: .relaxed); hits.store(0, ordering: .relaxed) }
    func loadedDirectory() { loaded.store(true, ordering: .relaxed) }
    func add(_ uses: FrameUses) { hits.add(uses.hits, ordering: .relaxed); misses.add(uses.misses, ordering: .relaxed) }
    /// Counts the last run's uses, the groups it found that earlier runs read as the misses they were.
    func count(into uses: StoreCache.Uses) {
        let found = hits.load(ordering: .relaxed), moved = min(earlierMisses.load(ordering: .relaxed), found)
        uses.count(hits: found - moved, misses: misses.load(ordering: .relaxed) + moved)
    }
}
