import Locking
import TesseraLayout

/// Rect queries answered from storage, computing the layout first when it is
/// missing or stale. Results equal the in-memory ``LayoutResult``'s, frame
/// for frame and in the same order.
///
/// These are the synchronous forms of the hot reads, for a caller on a
/// thread of its own that asks many in a row (a benchmark, a probe): they
/// read on the calling thread, and a missing layout is computed as the
/// async forms compute it while the calling thread waits. From async code,
/// call the `async` forms.
extension LayoutStore {
    /// Every element that intersects `rect`.
    ///
    /// With `computeIfMissing` false, a layout that is missing or stale is
    /// `notFound` instead of being computed first. `direction` right to
    /// left answers with the mirror of the left-to-right answer for the
    /// mirrored rect (`LayoutDirection`), here and in the queries below;
    /// `offsets` scroll carousels (`OrthogonalOffsets`), before mirroring.
    public func elements(name: String, crossExtent: Double, in rect: Rect, direction: LayoutDirection = .leftToRight, offsets: OrthogonalOffsets = .none, computeIfMissing: Bool = true) throws -> [LayoutElement] {
        let name = try specName(name)
        return try withFreshLayout(name: name, crossExtent: crossExtent, computeIfMissing: computeIfMissing) { reader in
            try reader.elements(in: rect, pinning: false, direction: direction, offsets: offsets)
        }
    }

    /// The elements visible in `viewport`, pinned headers and footers moved.
    public func visibleElements(name: String, crossExtent: Double, viewport: Rect, direction: LayoutDirection = .leftToRight, offsets: OrthogonalOffsets = .none, computeIfMissing: Bool = true) throws -> [LayoutElement] {
        let name = try specName(name)
        return try withFreshLayout(name: name, crossExtent: crossExtent, computeIfMissing: computeIfMissing) { reader in
            try reader.elements(in: viewport, pinning: true, direction: direction, offsets: offsets)
        }
    }

    /// The cell of one item, or nil when there is no such item.
    public func element(name: String, crossExtent: Double, section: Int, item: Int, direction: LayoutDirection = .leftToRight, offsets: OrthogonalOffsets = .none, computeIfMissing: Bool = true) throws -> LayoutElement? {
        let name = try specName(name)
        return try withFreshLayout(name: name, crossExtent: crossExtent, computeIfMissing: computeIfMissing) { reader in
            try reader.cell(section: section, item: item, direction: direction, offsets: offsets)?.element
        }
    }

    /// Runs `body` on the fresh layout, all of it read from one snapshot
    /// (answered from memory when it can be, see `answerFromMemory`), on
    /// the calling thread. A layout missing or stale goes to the one retry
    /// loop of every read (`freshLayout`), which computes it and reads it
    /// again, this thread waiting.
    func withFreshLayout<T: Sendable>(name: String, crossExtent: Double, computeIfMissing: Bool, _ body: (LayoutReader) throws -> T) throws -> T {
        if let answer = try answerFromMemory(name: name, crossExtent: crossExtent, body) { return answer }
        let read = try read { storage in try readFresh(name: name, crossExtent: crossExtent, storage: storage, body) }
        if let hit = read.directoryHit { cache.count(.directory, hit: hit) }
        if let result = read.value { return result }
        guard computeIfMissing else { throw Self.notComputed(name: name, crossExtent: crossExtent) }
        return try withoutActuallyEscaping(body) { body in
            // Called only while this thread waits for the loop, never after.
            nonisolated(unsafe) let body = body
            return try waitForAsync { try await self.withFreshLayout(name: name, crossExtent: crossExtent, computeIfMissing: true) { try body($0) } }
        }
    }

    /// `body` on the fresh layout inside a read: its value, nil when the
    /// layout is missing or stale, and whether its directory was cached
    /// (for the caller to count once the read is done). A read whose body
    /// runs more than once (an async read of a backend behind a network)
    /// passes `missed`, set by any run that loaded the directory: a later
    /// run finds it cached by the earlier one.
    func readFresh<T>(
        name: String, crossExtent: Double, storage: RowSnapshot, missed: Locked<Bool>? = nil, _ body: (LayoutReader) throws -> T
    ) throws -> (value: T?, directoryHit: Bool?) {
        do {
            guard let record = try freshRecord(name: name, crossExtent: crossExtent, storage: storage) else { return (nil, nil) }
            let directory = try cachedDirectory(of: record, storage: storage)
            if directory.hit == false { missed?.withLock { $0 = true } }
            do {
                return (try body(LayoutReader(record: record, storage: storage, store: self, cached: directory.layout)), directory.hit)
            } catch is UnverifiedIndex {
                // The indexes' answer could not be proven complete: answer
                // from the whole directory, every row verified, none missing.
                let loaded = try loadDirectory(of: record, storage: storage)
                cache.insert(loaded, for: record.cacheKey)
                return (try body(LayoutReader(record: record, storage: storage, store: self, cached: loaded)), directory.hit)
            }
        } catch let error as StoreError {
            throw error.inLayout(name: name, crossExtent: crossExtent)
        }
    }

    static func notComputed(name: String, crossExtent: Double) -> StoreError {
        StoreError.noSuchLayout(name: name, crossExtent: crossExtent, reason: "it is missing or stale, and this query may not compute it")
    }

    static func keepsBeingReplaced(name: String, crossExtent: Double) -> StoreError {
        StoreError(.conflict, "the layout of \(name.quotedForMessage) at \(JSONWriter.format(crossExtent)) keeps being replaced; try again",
                   spec: name, crossExtent: crossExtent)
    }
}

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
            cache.count(.name, hit: true)
            cache.count(.directory, hit: true)
            return answer
        } catch is AnswerNeedsStorage {
            return nil
        } catch let error as StoreError {
            throw error.inLayout(name: name, crossExtent: crossExtent)
        }
    }
}
