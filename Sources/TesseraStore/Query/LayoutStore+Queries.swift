import Locking
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

/// What a read carries from one run of its body to the next (a backend behind a network runs it again from the
/// start once it has what a run lacked): whether a run loaded the directory, what the last run found of the frame
/// cache, and what the runs before it read, which it found cached. Counted once the read is done.
struct ReadRuns: Sendable {
    private let state = Locked((loaded: false, earlierMisses: 0, run: (hits: 0, misses: 0) as FrameUses))
    var loadedDirectoryInAnyRun: Bool { state.withLock { $0.loaded } }
    func start() { state.withLock { $0.earlierMisses &+= $0.run.misses; $0.run = (0, 0) } }
    func loadedDirectory() { state.withLock { $0.loaded = true } }
    func add(_ uses: FrameUses) { state.withLock { $0.run = ($0.run.hits &+ uses.hits, $0.run.misses &+ uses.misses) } }
    /// The last run's uses, the groups it found that earlier runs read counted as the misses they were.
    var frameUses: FrameUses { state.withLock { state in let moved = min(state.earlierMisses, state.run.hits); return (state.run.hits - moved, state.run.misses + moved) } }
}
