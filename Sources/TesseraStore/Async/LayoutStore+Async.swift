import TesseraLayout

/// The store from async code: every operation has an `async` form, which a
/// call from an async context picks. None blocks Swift concurrency's
/// cooperative threads: a query runs in place only when a reader is free at
/// once (microseconds of work) and otherwise on the store's own threads, and
/// writes and computations always run on the store's own threads.
///
/// - A query of a missing or stale layout computes it once however many
///   tasks ask meanwhile, outside the writer (computed in memory, then
///   stored in one short write), while queries of other layouts go on.
///   Cancelling a task that waits for it does not stop the computation.
/// - Writes (`save`, `update`, `append`, `prune`) honour cancellation
///   between chunks of cells: a cancelled write is rolled back whole and
///   throws ``StoreError/Code/cancelled``.
/// - A spec, width, section or item that does not exist is answered from
///   a read, never by waiting for a writer.
extension LayoutStore {
    // MARK: Queries

    /// Every element that intersects `rect` (see `elements(name:crossExtent:in:direction:computeIfMissing:)`).
    public func elements(name: String, crossExtent: Double, in rect: Rect, direction: LayoutDirection = .leftToRight, computeIfMissing: Bool = true) async throws -> [LayoutElement] {
        try await withFreshLayout(name: name, crossExtent: crossExtent, computeIfMissing: computeIfMissing) { reader in
            try reader.elements(in: rect, pinning: false, direction: direction)
        }
    }

    /// The elements visible in `viewport`, pinned headers and footers moved.
    public func visibleElements(name: String, crossExtent: Double, viewport: Rect, direction: LayoutDirection = .leftToRight, computeIfMissing: Bool = true) async throws -> [LayoutElement] {
        try await withFreshLayout(name: name, crossExtent: crossExtent, computeIfMissing: computeIfMissing) { reader in
            try reader.elements(in: viewport, pinning: true, direction: direction)
        }
    }

    /// The cell of one item, or nil when there is no such item.
    public func element(name: String, crossExtent: Double, section: Int, item: Int, direction: LayoutDirection = .leftToRight, computeIfMissing: Bool = true) async throws -> LayoutElement? {
        try await withFreshLayout(name: name, crossExtent: crossExtent, computeIfMissing: computeIfMissing) { reader in
            try reader.cell(section: section, item: item, direction: direction)
        }
    }

    /// The fresh layout, computed first when it is missing or stale (once
    /// for every task asking meanwhile).
    @discardableResult
    public func layout(name: String, crossExtent: Double, progress: (@Sendable (PrecomputeProgress) -> Void)? = nil) async throws -> ComputedLayout {
        if let fresh = try await readAsync({ storage in try self.freshRecord(name: name, crossExtent: crossExtent, storage: storage)?.layout }) {
            return ComputedLayout(layout: fresh, computed: false)
        }
        return try await computeShared(name: name, crossExtent: crossExtent, progress: progress)
    }

    // MARK: Reads

    /// Every stored layout with its state, by spec name and extent.
    public func layouts() async throws -> [StoredLayout] {
        try await readAsync { storage in try storage.layouts.layoutRecords(specID: nil, engineVersion: LayoutEngine.version).map(\.layout) }
    }

    /// The stored layouts of one spec, by extent.
    public func layouts(name: String) async throws -> [StoredLayout] {
        try await readAsync { storage in try Self.layouts(name: name, storage: storage) }
    }

    /// Every stored spec, by name.
    public func specs() async throws -> [StoredSpec] {
        try await readAsync { storage in try storage.specs.specSummaries() }
    }

    /// What the store holds of the spec stored under `name`, or nil.
    public func storedSpec(named name: String) async throws -> StoredSpec? {
        try await readAsync { storage in try storage.specs.specSummary(name: name) }
    }

    /// The spec stored under `name`, or nil.
    public func spec(named name: String) async throws -> Spec? {
        try await readAsync { storage in try self.loadSpec(name: name, storage: storage)?.spec }
    }

    // MARK: Writes

    /// Saves a spec and lays it out (see `save(_:as:crossExtents:progress:)`).
    @discardableResult
    public func save(
        _ spec: Spec, as name: String? = nil, crossExtents: [Double] = [], progress: (@Sendable (PrecomputeProgress) -> Void)? = nil
    ) async throws -> [StoredLayout] {
        try await precompute(spec, as: name, crossExtents: crossExtents, progress: progress).layouts
    }

    /// Saves a spec and tells what it did to each layout.
    public func precompute(
        _ spec: Spec, as name: String? = nil, crossExtents: [Double], progress: (@Sendable (PrecomputeProgress) -> Void)? = nil
    ) async throws -> SaveResult {
        try await writeAsync { flag in
            try self.precompute(spec, as: name, crossExtents: crossExtents, progress: progress, cancellation: flag)
        }
    }

    /// Replaces a stored spec, laying out only what changed.
    @discardableResult
    public func update(name: String, with spec: Spec, progress: (@Sendable (PrecomputeProgress) -> Void)? = nil) async throws -> UpdateReport {
        try await writeAsync { flag in try self.update(name: name, with: spec, progress: progress, cancellation: flag) }
    }

    /// Appends items to a section at every stored width.
    @discardableResult
    public func append(name: String, section: Int, items: [Item]) async throws -> UpdateReport {
        try await writeAsync { flag in try self.append(name: name, section: section, items: items, cancellation: flag) }
    }

    /// Marks layouts stale; returns how many.
    @discardableResult
    public func invalidate(name: String, crossExtent: Double? = nil) async throws -> Int {
        try await writeAsync { _ in try self.invalidate(name: name, crossExtent: crossExtent) as Int }
    }

    /// Deletes the spec's layout at one extent; returns whether there was one.
    @discardableResult
    public func deleteLayout(name: String, crossExtent: Double) async throws -> Bool {
        try await writeAsync { _ in try self.deleteLayout(name: name, crossExtent: crossExtent) as Bool }
    }

    /// Deletes a spec and all its layouts; returns whether it existed.
    @discardableResult
    public func deleteSpec(named name: String) async throws -> Bool {
        try await writeAsync { _ in try self.deleteSpec(named: name) as Bool }
    }

    /// Deletes every stale layout and gives the freed space back.
    @discardableResult
    public func prune() async throws -> PruneReport {
        try await writeAsync { _ in try self.prune() as PruneReport }
    }

    // MARK: Plumbing

    /// `body` on the fresh layout, from an async context (see the sync form).
    func withFreshLayout<T: Sendable>(
        name: String, crossExtent: Double, computeIfMissing: Bool, _ body: @escaping @Sendable (LayoutReader) throws -> T
    ) async throws -> T {
        switch try await freshLayout(name: name, crossExtent: crossExtent, compute: computeIfMissing ? .always : .never, body) {
        case .found(let value, _): return value
        case .missing: throw Self.notComputed(name: name, crossExtent: crossExtent)
        }
    }

    /// `body` on the fresh layout, all of it read from one snapshot; a
    /// missing or stale layout computed first as `policy` says (and read
    /// again: tried again when a writer replaced it meanwhile), or told
    /// missing, with the spec's layouts from the read that found it so.
    func freshLayout<T: Sendable>(
        name: String, crossExtent: Double, compute policy: ComputePolicy, _ body: @escaping @Sendable (LayoutReader) throws -> T
    ) async throws -> Fresh<T> {
        var computed = false
        for _ in 0..<3 {
            let read = try await readAsync { storage in
                let fresh = try self.readFresh(name: name, crossExtent: crossExtent, storage: storage, body)
                // What an admission or the caller is told; `.always` asks nothing.
                guard fresh.value == nil, !policy.computesUnasked else { return (fresh: fresh, missing: nil as MissingLayout?) }
                return (fresh: fresh, missing: try Self.missing(name: name, crossExtent: crossExtent, storage: storage))
            }
            if let hit = read.fresh.directoryHit { layoutCache.count(hit: hit) }
            if let value = read.fresh.value { return .found(value, computed: computed) }
            var release: (@Sendable () -> Void)?
            if !policy.computesUnasked {
                guard let missing = read.missing else { throw StoreError(.internal, "a layout read neither fresh nor missing") }
                guard case .admittedBy(let admit) = policy else { return .missing(missing) }
                release = try admit(missing)
            }
            defer { release?() }
            computed = try await computeShared(name: name, crossExtent: crossExtent, progress: nil).computed || computed
        }
        throw Self.keepsBeingReplaced(name: name, crossExtent: crossExtent)
    }

    /// A read in place when a reader is free at once, else on the executor.
    func readAsync<T: Sendable>(_ body: @escaping @Sendable (any ReadSnapshot) throws -> T) async throws -> T {
        if let result = try readIfAvailable(body) { return result }
        return try await executor.run { try self.read(body) }
    }

    /// The blocking work of a write on the executor, through the write
    /// gate, cancelled between chunks of cells when the calling task is:
    /// `body` checks the flag.
    func writeAsync<T: Sendable>(_ body: @escaping @Sendable (CancellationFlag) throws -> T) async throws -> T {
        try await gatedWrite { flag in
            try await executor.run {
                try flag.check()
                return try body(flag)
            }
        }
    }

    /// `body`, an async write, once the write gate lets it through, with a
    /// flag set when the calling task is cancelled.
    func gatedWrite<T: Sendable>(_ body: (CancellationFlag) async throws -> T) async throws -> T {
        let flag = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await writeGate.pass { try await body(flag) }
        } onCancel: {
            flag.cancel()
        }
    }
}
