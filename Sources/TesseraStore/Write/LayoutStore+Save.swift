import Locking
import TesseraLayout
import TesseraStoreFormat

/// Saving a spec: checked and fingerprinted before its write, then its
/// rows and its layouts in one transaction.
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
    /// widths at once (by default the machine's cores), when it has several
    /// widths and they take at most 512 MiB laid out: each width's rows are
    /// stored as they are laid out once the widths before it are stored,
    /// and held in memory until then. The layouts stored are the same
    /// whatever `jobs` is.
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
        return try await writeAsync { cancellation in
            let prepared = try prepareSave(spec, as: name, crossExtents: crossExtents)
            let extents = prepared.crossExtents
            let onWorkers = jobs > 1 && extents.count > 1
                && prepared.spec.knownItemCount.map { $0 * extents.count <= Self.parallelSaveBytes / Self.bufferedBytesPerCell } == true
            return try await write(naming: prepared.name) { storage in
                if onWorkers, try await storage.read({ try $0.spec(name: prepared.name)?.id }) == nil {
                    return try await saveNew(prepared, jobs: jobs, storage: storage, progress: progress, cancellation: cancellation)
                }
                return try await saveInWrite(prepared, storage: storage, progress: progress, cancellation: cancellation).result
            }
        }
    }

    /// ``save(_:as:crossExtents:jobs:progress:)`` of a new spec, inside the caller's write: `jobs` workers each take the next
    /// width and hand its rows on as they lay it out; the first width that fails fails the save, as when laid out in turn.
    private func saveNew(
        _ prepared: PreparedSave, jobs: Int, storage: RowTransaction, progress: (@Sendable (PrecomputeProgress) -> Void)?, cancellation: CancellationFlag
    ) async throws -> SaveResult {
        let extents = prepared.crossExtents
        let handOffs = extents.map { _ in HandOff<BufferedLayout.Rows, BufferedComputation>() }
        let taken = Locked(0)
        var outcome = try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<min(jobs, extents.count) {
                group.addTask {
                    while case let index = taken.takeNext(), index < extents.count, !Task.isCancelled {
                        await handOffs[index].finish {
                            try await self.executor.run {
                                try self.computeBuffered(
                                    prepared.spec, name: prepared.name, crossExtent: extents[index], handingTo: handOffs[index],
                                    progress: progress, cancellation: cancellation
                                )
                            }
                        }
                    }
                }
            }
            return try await saveNew(prepared, computed: handOffs, storage: storage, progress: progress)
        }
        outcome.result.layouts = try await storage.read { try $0.spec(name: prepared.name).map($0.layoutRecords(of:)) ?? [] }.map(\.layout)
        return outcome.result
    }

    /// The most bytes a save lays out into memory ahead of its write, on
    /// several threads; and what a cell takes there, at most (32 bytes of
    /// frames unencoded, and its share of its group's row).
    static let parallelSaveBytes = 512 << 20
    static let bufferedBytesPerCell = 34

    /// A spec ready to be saved: its name, its items files resolved, its
    /// fingerprint, and the extents checked against its axis.
    package struct PreparedSave: Sendable {
        package var name: String
        package var spec: Spec
        var fingerprint: SpecFingerprint
        /// Each section's stored body, rendered with the fingerprint.
        var bodies: [String]
        /// The extents to lay out, in order, each once.
        package var crossExtents: [Double]
    }

    /// What a save did inside its write.
    package struct SaveOutcome {
        package var result: SaveResult
        /// Nothing was written: the stored spec had the same content and
        /// every layout asked for was fresh.
        package var unchanged: Bool
    }

    /// Checks and fingerprints a spec before its write: no name, an extent
    /// the spec's axis cannot take or an unreadable items file fail here.
    package func prepareSave(_ spec: Spec, as name: String?, crossExtents: [Double]) throws -> PreparedSave {
        guard let name = try (name ?? spec.name).map(specName), !name.isEmpty else {
            throw StoreError(.invalidArgument, "the spec has no name: give one (a \"name\" in the spec, or a name to save it as)")
        }
        if let problem = Spec.nameProblem(name) {
            throw StoreError(.invalidArgument, "\(problem): \(name.quotedForMessage)", spec: name)
        }
        for extent in crossExtents { try Self.checkCrossExtent(extent, axis: spec.axis) }
        let stored = spec.resolvingItemFiles()
        let (fingerprint, bodies) = try reportingSpecErrors(name: name) { try SpecFingerprint.withBodies(spec: stored) }
        let extents = crossExtents.sorted().reduce(into: [Double]()) { if $0.last != $1 { $0.append($1) } }
        return PreparedSave(name: name, spec: stored, fingerprint: fingerprint, bodies: bodies, crossExtents: extents)
    }

    /// The save, inside the caller's write. A spec ``unchangedLayouts(_:storage:)`` finds unchanged is left
    /// as it is without a write (and without parsing the stored spec).
    package func saveInWrite(
        _ prepared: PreparedSave,
        storage: RowTransaction,
        progress: (@Sendable (PrecomputeProgress) -> Void)?,
        cancellation: CancellationFlag?
    ) async throws -> SaveOutcome {
        let (name, stored, fingerprint) = (prepared.name, prepared.spec, prepared.fingerprint)
        if let kept = try await storage.read({ try self.unchangedLayouts(prepared, storage: $0) }) {
            let report = UpdateReport(layouts: kept.map { .kept(crossExtent: $0.crossExtent, sections: stored.sections.count) })
            return SaveOutcome(result: SaveResult(layouts: kept, report: report), unchanged: true)
        }
        let existing = try await storage.read({ try $0.spec(name: name)?.id })
        var report = UpdateReport()
        let specID: Int64
        if let existing {
            report = try await applyUpdate(
                name: name, spec: stored, fingerprint: fingerprint, bodies: prepared.bodies, storage: storage,
                progress: progress, cancellation: cancellation
            )
            specID = existing
        } else {
            specID = try await writeSpec(stored, name: name, fingerprint: fingerprint, bodies: prepared.bodies, storage: storage)
        }
        // The update reported every layout stored before; a new spec has none.
        for extent in prepared.crossExtents where !report.layouts.contains(where: { $0.crossExtent == extent }) {
            try await storeLayout(
                stored, name: name, specID: specID, fingerprint: fingerprint, crossExtent: extent, storage: storage, progress: progress,
                cancellation: cancellation
            )
            report.layouts.append(.fullRecompute(crossExtent: extent, sections: stored.sections.count))
        }
        report.layouts.sort { $0.crossExtent < $1.crossExtent }
        let layouts = try await storage.read { try $0.layoutRecords(specID: specID) }.map(\.layout)
        return SaveOutcome(result: SaveResult(layouts: layouts, report: report, created: existing == nil), unchanged: false)
    }

    /// The stored layouts when saving `prepared` would change nothing: same content hash and section
    /// identities, every layout fresh, at every extent asked for. Two indexed lookups (by name, by spec
    /// id), plus the section identities when the hash matches; nil as soon as one differs.
    package func unchangedLayouts(_ prepared: PreparedSave, storage: RowSnapshot) throws -> [StoredLayout]? {
        guard let record = try storage.spec(name: prepared.name), record.contentHash == prepared.fingerprint.specHash else { return nil }
        let layouts = try storage.layoutRecords(of: record).map(\.layout)
        guard layouts.allSatisfy({ $0.state == .fresh }),
              prepared.crossExtents.allSatisfy({ extent in layouts.contains { $0.crossExtent == extent } }) else { return nil }
        let identities = try storage.sections(specID: record.id).map(\.sectionIdentity)
        let fingerprint = prepared.fingerprint
        return identities.map(\.identity) == fingerprint.sectionIdentities && identities.map(\.hash) == fingerprint.sectionHashes ? layouts : nil
    }

    /// Deletes the spec stored under `spelling` (by its own bytes: the
    /// backend finds that row alone) and all its layouts, inside the caller's
    /// write; returns whether there was one.
    func deleteSpec(spelling: String, storage: RowTransaction) async throws -> Bool {
        guard let specID = try await storage.read({ try $0.spec(name: spelling)?.id }) else { return false }
        try await storage.deleteSpec(id: specID)
        return true
    }

    /// Writes a spec's row and its sections' rows (`bodies`, their canonical JSON), new or in place of
    /// the stored spec `old`, whose unchanged sections' rows are kept. Returns the spec's id.
    func writeSpec(
        _ spec: Spec, name: String, fingerprint: SpecFingerprint, bodies: [String], storage: RowTransaction,
        replacing old: (id: Int64, sections: [SectionIdentity])? = nil
    ) async throws -> Int64 {
        var header = spec
        header.sections = []
        var headerJSON = header.jsonValue
        if case .object(var object) = headerJSON {
            object["name"] = .string(name)
            object["sections"] = nil
            headerJSON = .object(object)
        }
        let row = SpecRow(
            id: 0, name: name, body: JSONWriter.canonical(headerJSON), contentHash: fingerprint.specHash,
            axis: spec.axis.rawValue, sectionCount: spec.sections.count, updatedAt: Clock.wall()
        )
        let specID = if let old { old.id } else { try await storage.insertSpec(row) }
        // The sections kept in place: none when the count changed (every body is deleted then, with its runs).
        let kept = old.flatMap { $0.sections.count == spec.sections.count ? $0.sections : nil }
        if let old {
            try await storage.updateSpec(id: old.id, row)
            if kept == nil { try await storage.deleteSectionBodies(specID: specID) }
        }
        var rewritten: [Int] = []
        for index in spec.sections.indices {
            let identity = SectionIdentity(identity: fingerprint.sectionIdentities[index], hash: fingerprint.sectionHashes[index])
            if kept?[index] == identity { continue }
            try await storage.writeSection(specID: specID, index: index, identity: identity.identity, contentHash: identity.hash, body: bodies[index])
            rewritten.append(index)
        }
        // A section written anew holds its appended items in its body.
        if kept != nil, !rewritten.isEmpty { try await storage.deleteItemRuns(specID: specID, sections: rewritten) }
        return specID
    }
}
