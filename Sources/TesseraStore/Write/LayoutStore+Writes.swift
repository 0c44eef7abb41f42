import TesseraLayout

/// Saving, changing and deleting from async code: the blocking work of
/// each runs on the store's executor (see ``BlockingExecutor``), through
/// the write gate, and a cancelled task's write is rolled back whole.
extension LayoutStore {
    /// Saves `spec` under `name` (or its own name) and lays it out at every
    /// extent in `crossExtents` and at every extent already stored for that
    /// name, all in one transaction: if the spec is invalid at any extent,
    /// nothing changes and the previous spec and layouts stay as they were.
    /// A spec already stored is updated incrementally (see
    /// `update(name:with:progress:)`); layouts still fresh for the saved
    /// content are kept as they are. `progress` hears of every layout
    /// computed in full; it runs inside the write and must not write to the store.
    ///
    /// A spec the store does not hold is laid out at up to `jobs` of its
    /// widths at once (by default the machine's cores), each into memory and
    /// stored as soon as the widths before it are, when it has several
    /// widths and they take at most 512 MiB laid out; the layouts stored are
    /// the same whatever `jobs` is.
    /// Their progress reports then interleave; each width's last report
    /// (every cell) comes as it is stored, in the order of the widths.
    ///
    /// - Returns: the layouts now stored for the spec, and what the save did
    ///   to each: kept, shifted, resumed or recomputed sections.
    /// - Throws: ``StoreError``; `invalidArgument` when `jobs` is not 1 to 1,024.
    @discardableResult
    public func save(
        _ spec: Spec, as name: String? = nil, crossExtents: [Double] = [], jobs: Int? = nil,
        progress: (@Sendable (PrecomputeProgress) -> Void)? = nil
    ) async throws -> SaveResult {
        let jobs = try Self.checkedJobs(jobs, fallback: Self.machineCores)
        return try await writeAsync { flag in
            try await self.save(spec, as: name, crossExtents: crossExtents, jobs: jobs, progress: progress, cancellation: flag)
        }
    }

    /// Replaces the spec stored under `name` with `spec` and brings every
    /// stored layout of it up to date in the same transaction: sections
    /// before the first change are kept, unchanged sections after it are
    /// moved (one row each), sections whose items were only appended go on
    /// from their stored state, and only the others are laid out again. The
    /// result equals a full recompute of the new spec, frame for frame.
    /// `progress` hears of the layouts computed again in full (a new axis, a
    /// stale layout); it runs inside the write and must not write to the store.
    @discardableResult
    public func update(name: String, with spec: Spec, progress: (@Sendable (PrecomputeProgress) -> Void)? = nil) async throws -> UpdateReport {
        let name = try specName(name)
        return try await writeAsync { flag in try await self.update(name: name, with: spec, progress: progress, cancellation: flag) }
    }

    /// Appends `items` to section `section` of the spec stored under `name`
    /// and updates every stored layout of it in one transaction, going on
    /// from where each layout stopped: about the work of the new items.
    @discardableResult
    public func append(name: String, section: Int, items: [Item]) async throws -> UpdateReport {
        let name = try specName(name)
        return try await writeAsync { flag in try await self.append(name: name, section: section, items: items, cancellation: flag) }
    }

    /// Marks layouts stale: the spec's layout at `crossExtent`, or all of its
    /// layouts. A stale layout is never served; the next query recomputes it.
    ///
    /// - Returns: the number of layouts marked.
    @discardableResult
    public func invalidate(name: String, crossExtent: Double? = nil) async throws -> Int {
        let name = try specName(name)
        return try await writeAsync { _ in
            try await self.write { storage in
                guard let specID = try await storage.read({ try $0.specID(name: name) }) else { throw StoreError.noSuchSpec(name: name) }
                return try await storage.invalidate(specID: specID, crossExtent: crossExtent, updatedAt: Clock.wall())
            }
        }
    }

    /// Deletes the spec's layout at one extent, all of its rows, at once;
    /// returns whether there was one.
    @discardableResult
    public func deleteLayout(name: String, crossExtent: Double) async throws -> Bool {
        let name = try specName(name)
        return try await writeAsync { _ in
            try await self.write { storage in
                guard let id = try await storage.read({ rows in
                    guard let specID = try rows.specID(name: name) else { throw StoreError.noSuchSpec(name: name) }
                    return try rows.layoutID(specID: specID, crossExtent: crossExtent)
                }) else { return false }
                try await storage.deleteLayout(id: id)
                return true
            }
        }
    }

    /// Deletes a spec and all its layouts; returns whether it existed. A
    /// name the store holds more than one spec under (stored before names
    /// were normalized) deletes every one of them.
    @discardableResult
    public func deleteSpec(named name: String) async throws -> Bool {
        let name = Spec.normalizedName(name)
        if holdsEquivalentSpecs(name) {
            return try await writeAsync { _ in try await self.deleteEquivalentSpecs(name) }
        }
        return try await writeAsync { _ in try await self.deleteSpec(in: name) }
    }

    /// Deletes every stale layout and gives the freed space (theirs, and that
    /// of layouts replaced or updated before) back to the file system.
    @discardableResult
    public func prune() async throws -> PruneReport {
        try await writeAsync { _ in
            let before = await self.fileBytes
            let deleted = try await self.write { storage in
                var count = 0
                for record in try await storage.read({ try $0.layoutRecords(specID: nil, engineVersion: LayoutEngine.version) })
                where record.layout.state == .stale {
                    try await storage.deleteLayout(id: record.layout.id)
                    count += 1
                }
                return count
            }
            try await self.backend.settle(compacting: true)
            return PruneReport(layoutsDeleted: deleted, bytesBefore: before, bytesAfter: await self.fileBytes)
        }
    }

    /// Reads everything the store keeps and checks it: the backend's own
    /// integrity check; every stored spec parses and can be read by this
    /// program; every layout has its section rows, its cell groups cover
    /// each section's items exactly once, in order, with one exact frame per
    /// item, and each group's stored bounds are the union of its frames;
    /// every row and frame blob matches its checksum. Reads in one snapshot.
    ///
    /// - Parameter repair: marks the layouts found damaged stale (in one
    ///   write after the check, through the write gate), so that they are
    ///   computed again from their specs when next used; the report lists
    ///   them in ``CheckReport/markedStale``. Without it the check writes nothing.
    public func check(repair: Bool = false) async throws -> CheckReport {
        var (report, damaged) = try await checkAll()
        // Marked stale in one write after the check, through the write gate.
        guard repair, !damaged.isEmpty else { return report }
        try await writeAsync { _ in
            try await self.write { storage in
                for id in damaged.keys.sorted() { try await storage.markStale(layoutID: id, updatedAt: Clock.wall()) }
            }
        }
        report.markedStale = damaged.keys.sorted().compactMap { damaged[$0] }.map {
            CheckReport.Problem(spec: $0.spec, crossExtent: $0.crossExtent, message: "marked stale: computed again from its spec when next used")
        }
        return report
    }
}
