import Locking
import TesseraLayout

/// The store's operations, all `async`, none blocking a cooperative thread
/// (the article "Serving from async code": what runs where, computations
/// shared between tasks, cancellation).
extension LayoutStore {
    // MARK: Queries

    /// Every element that intersects `rect`.
    ///
    /// With `computeIfMissing` false, a layout that is missing or stale is
    /// `notFound` instead of being computed first.
    nonisolated(nonsending) public func elements(name: String, crossExtent: Double, in rect: Rect, direction: LayoutDirection = .leftToRight, offsets: OrthogonalOffsets = .none, computeIfMissing: Bool = true) async throws -> [LayoutElement] {
        try await hotRead(.rect(rect), name: name, crossExtent: crossExtent, direction: direction, offsets: offsets, computeIfMissing: computeIfMissing)
    }

    /// The elements visible in `viewport`, pinned headers and footers moved.
    nonisolated(nonsending) public func visibleElements(name: String, crossExtent: Double, viewport: Rect, direction: LayoutDirection = .leftToRight, offsets: OrthogonalOffsets = .none, computeIfMissing: Bool = true) async throws -> [LayoutElement] {
        try await hotRead(.viewport(viewport), name: name, crossExtent: crossExtent, direction: direction, offsets: offsets, computeIfMissing: computeIfMissing)
    }

    /// The cell of one item, or nil when there is no such item.
    nonisolated(nonsending) public func element(name: String, crossExtent: Double, section: Int, item: Int, direction: LayoutDirection = .leftToRight, offsets: OrthogonalOffsets = .none, computeIfMissing: Bool = true) async throws -> LayoutElement? {
        try await hotRead(
            .item(section: section, item: item), name: name, crossExtent: crossExtent, direction: direction, offsets: offsets,
            computeIfMissing: computeIfMissing
        ).first
    }

    /// The layout of the spec stored under `name` at `crossExtent`, computed
    /// and persisted first when it is missing or stale (once for every task
    /// asking meanwhile).
    ///
    /// - Returns: the stored layout and whether this call computed it.
    /// - Throws: ``StoreError`` with code `notFound` for an unknown spec
    ///   (found out without waiting for a writer), `invalidArgument` for an
    ///   extent that is not a finite number above 0, `conflict` when the
    ///   spec's items files changed since it was saved.
    @discardableResult
    public func layout(name: String, crossExtent: Double, progress: (@Sendable (PrecomputeProgress) -> Void)? = nil) async throws -> ComputedLayout {
        let name = try specName(name)
        if let fresh = try await readAsync({ storage in try self.freshRecord(name: name, crossExtent: crossExtent, storage: storage)?.layout }) {
            return ComputedLayout(layout: fresh, computed: false)
        }
        return try await computeShared(name: name, crossExtent: crossExtent, progress: progress)
    }

    /// Precomputes the layouts of the spec stored under `name` at several
    /// extents, ahead of the queries that will ask for them: each computed
    /// only when missing or stale, one after the other, as
    /// `layout(name:crossExtent:progress:)` does.
    @discardableResult
    public func precompute(
        name: String, crossExtents: [Double], progress: (@Sendable (PrecomputeProgress) -> Void)? = nil
    ) async throws -> [ComputedLayout] {
        let name = try specName(name)
        var layouts: [ComputedLayout] = []
        for extent in crossExtents { layouts.append(try await layout(name: name, crossExtent: extent, progress: progress)) }
        return layouts
    }

    /// The on-screen content size of the layout, computed first when it is missing or stale.
    public func contentSize(name: String, crossExtent: Double) async throws -> Size {
        try await layout(name: name, crossExtent: crossExtent).layout.contentSize
    }

    // MARK: Reads

    /// Every stored layout with its state, by spec name and extent.
    public func layouts() async throws -> [StoredLayout] {
        try await readAsync { storage in try storage.layoutRecords().map(\.layout) }
    }

    /// The stored layouts of one spec, by extent; `notFound` for an unknown spec.
    public func layouts(name: String) async throws -> [StoredLayout] {
        let name = try specName(name)
        return try await readAsync { storage in try Self.layouts(name: name, storage: storage) }
    }

    /// Every stored spec, by name.
    public func specs() async throws -> [StoredSpec] {
        try await readAsync { storage in try storage.specSummaries() }
    }

    /// What the store holds of the spec stored under `name`, or nil.
    public func storedSpec(named name: String) async throws -> StoredSpec? {
        let name = try specName(name)
        return try await readAsync { storage in try storage.specSummary(name: name) }
    }

    /// The spec stored under `name` as one line of JSON with its name, as
    /// `tessera spec` prints it and `GET /v1/feeds/{name}/spec` answers; nil
    /// when there is none. Read and written on the store's executor: a spec
    /// of a million listed items never holds the caller's thread.
    public func specJSON(named name: String) async throws -> String? {
        try await onExecutor { try await spec(named: name).map { JSONWriter.canonical($0.jsonValue) } }
    }

    /// The spec stored under `name`, or nil.
    public func spec(named name: String) async throws -> Spec? {
        let name = try specName(name)
        return try await readAsync { storage in try self.loadSpec(name: name, storage: storage)?.spec }
    }

    // MARK: Plumbing

    /// `query`'s elements on the fresh layout of `name` (not normalized yet) at
    /// `crossExtent`, computed first when it is missing or stale (once for
    /// every task asking) unless `computeIfMissing` is false.
    nonisolated(nonsending) func hotRead(
        _ query: LayoutQuery, name: String, crossExtent: Double, direction: LayoutDirection, offsets: OrthogonalOffsets, computeIfMissing: Bool
    ) async throws -> [LayoutElement] {
        let name = try specName(name)
        // A warm query ends here: the closure stays on the stack.
        if let value = try answerFromMemory(name: name, crossExtent: crossExtent, { try $0.answer(query, direction: direction, offsets: offsets)?.elements ?? [] }) {
            return value
        }
        let read: @Sendable (LayoutReader) throws -> [LayoutElement] = { try $0.answer(query, direction: direction, offsets: offsets)?.elements ?? [] }
        switch try await freshLayout(name: name, crossExtent: crossExtent, compute: computeIfMissing ? .always : .never, triedMemory: true, read) {
        case .found(let value, _): return value
        case .missing: throw StoreError.notComputed(name: name, crossExtent: crossExtent)
        }
    }

    /// `body` on the fresh layout, all of it read from one snapshot, through the one retry loop
    /// (Architecture.md, "Concurrency"); `.missing` carries the spec's layouts from the read that found it so.
    nonisolated(nonsending) func freshLayout<T: Sendable>(
        name: String, crossExtent: Double, compute policy: ComputePolicy, triedMemory: Bool = false,
        _ body: @escaping @Sendable (LayoutReader) throws -> T
    ) async throws -> LayoutRead<T> {
        // From memory when it can be (unless the caller just tried): no thread waits, nothing is fetched.
        if !triedMemory, let value = try answerFromMemory(name: name, crossExtent: crossExtent, body) { return .found(value, computed: false) }
        // `.always` computes a missing layout without asking anyone (nothing to tell).
        let computesUnasked = if case .always = policy { true } else { false }
        var computed = false
        for _ in 0..<3 {
            let runs = ReadRuns()
            let read = try await readAsync { storage in
                let fresh = try self.readFresh(name: name, crossExtent: crossExtent, storage: storage, runs: runs, body)
                // What an admission or the caller is told; `.always` asks nothing.
                guard fresh.value == nil, !computesUnasked else { return (fresh: fresh, missing: nil as MissingLayout?) }
                return (fresh: fresh, missing: try Self.missing(name: name, crossExtent: crossExtent, storage: storage))
            }
            if let hit = read.fresh.directoryHit {
                cache.directoryUses.count(hit: hit && !runs.loadedDirectoryInAnyRun)
            }
            runs.count(into: cache.frameUses)
            if let value = read.fresh.value { return .found(value, computed: computed) }
            var release: (@Sendable () -> Void)?
            if !computesUnasked {
                guard let missing = read.missing else { throw StoreError(.internal, "a layout read neither fresh nor missing") }
                guard case .admittedBy(let admit) = policy else { return .missing(missing) }
                release = try admit(missing)
            }
            defer { release?() }
            computed = try await computeShared(name: name, crossExtent: crossExtent, progress: nil).computed || computed
        }
        throw StoreError(.conflict, "the layout of \(name.quotedForMessage) at \(JSONWriter.format(crossExtent)) keeps being replaced; try again",
                         spec: name, crossExtent: crossExtent)
    }

    /// A read that never blocks a cooperative thread (see
    /// `StorageBackend.read(_:on:)`): `body` may run more than once, the
    /// last run's value is the read's.
    package func readAsync<T: Sendable>(_ body: @escaping @Sendable (RowSnapshot) throws -> T) async throws -> T {
        let value = Locked<T?>(nil)
        try await backend.read({ rows in
            let result = try self.reportingSpecErrors(name: nil) { try body(RowSnapshot(rows, location: self.location)) }
            value.withLock { $0 = result }
        }, on: executor)
        guard let result = value.withLock({ $0 }) else { throw StoreError(.internal, "a read that returned ran its body") }
        return result
    }

    /// `body`, async work that writes, through the write gate, on the
    /// store's executor (see `onExecutor`), cancelled between chunks of
    /// cells when the calling task is: `body` checks the flag.
    func writeAsync<T: Sendable>(_ body: (CancellationFlag) async throws -> T) async throws -> T {
        try await gatedWrite { flag in
            try await onExecutor {
                try flag.check()
                return try await body(flag)
            }
        }
    }

    /// `body` with the store's executor as its task executor: its
    /// synchronous parts (a file-backed backend's statements, the engine)
    /// run on the executor's threads, where they may block.
    package func onExecutor<T>(_ body: () async throws -> T) async throws -> T {
        // An executor that runs nothing now (a pool shut down) fails here,
        // before anything is read or written.
        try await executor.run {}
        return try await withTaskExecutorPreference(executor) { try await body() }
    }

    /// `body`, an async write, once the write gate lets it through, with a
    /// flag set when the calling task is cancelled.
    package func gatedWrite<T: Sendable>(_ body: (CancellationFlag) async throws -> T) async throws -> T {
        let flag = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await writeGate.pass { try await body(flag) }
        } onCancel: {
            flag.cancel()
        }
    }
}
