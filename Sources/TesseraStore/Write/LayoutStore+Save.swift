import TesseraLayout
import TesseraStoreFormat

/// Saving a spec: checked and fingerprinted before its write, then its
/// rows and its layouts in one transaction.
extension LayoutStore {
    /// The body of `save(_:as:crossExtents:progress:)` (the async form runs
    /// it on the executor), cancelled between chunks of cells when
    /// `cancellation` is set.
    func save(
        _ spec: Spec,
        as name: String?,
        crossExtents: [Double],
        jobs: Int = 1,
        progress: (@Sendable (PrecomputeProgress) -> Void)?,
        cancellation: CancellationFlag?
    ) async throws -> SaveResult {
        let prepared = try prepareSave(spec, as: name, crossExtents: crossExtents)
        let extents = prepared.distinctCrossExtents
        let onWorkers = jobs > 1 && extents.count > 1
            && prepared.spec.knownItemCount.map { $0 * extents.count <= Self.parallelSaveBytes / Self.bufferedBytesPerCell } == true
        return try await reportingSpecErrors(name: prepared.name) { try await write { storage in
            if onWorkers, try await storage.read({ try $0.specID(name: prepared.name) }) == nil {
                return try await saveNew(prepared, extents: extents, jobs: jobs, storage: storage, progress: progress, cancellation: cancellation)
            }
            return try await saveInWrite(prepared, storage: storage, progress: progress, cancellation: cancellation).result
        } }
    }

    /// Saves a spec the store does not hold inside the caller's write, its
    /// widths laid out into memory on up to `jobs` of the executor's threads
    /// at once while each one done is stored, in the order of `extents`.
    /// A width that fails fails the save with the error of the first width
    /// that fails, as when they are laid out in turn.
    private func saveNew(
        _ prepared: PreparedSave, extents: [Double], jobs: Int, storage: RowTransaction,
        progress: (@Sendable (PrecomputeProgress) -> Void)?, cancellation: CancellationFlag?
    ) async throws -> SaveResult {
        let specID = try await upsertSpec(
            prepared.spec, name: prepared.name, fingerprint: prepared.fingerprint, bodies: prepared.bodies, storage: storage, isNew: true
        )
        var report = UpdateReport()
        try await withThrowingTaskGroup(of: (Int, Result<BufferedComputation, any Error>).self) { group in
            var done = [Result<BufferedComputation, any Error>?](repeating: nil, count: extents.count)
            var started = 0, stored = 0
            func start() {
                let (index, extent) = (started, extents[started])
                started += 1
                group.addTask {
                    do {
                        return (index, .success(try await self.executor.run {
                            try self.computeBuffered(prepared.spec, name: prepared.name, crossExtent: extent, progress: progress, cancellation: cancellation)
                        }))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            while started < min(jobs, extents.count) { start() }
            while let (index, result) = try await group.next() {
                done[index] = result
                if started < extents.count { start() }
                // Stored as soon as every width before it is; a failure waits for them too.
                while stored < extents.count, let next = done[stored] {
                    done[stored] = nil
                    let layout = try next.get()
                    report.layouts.append(try await storeNewLayout(layout, of: prepared, specID: specID, storage: storage))
                    let cells = layout.totals.cellCount
                    progress?(PrecomputeProgress(specName: prepared.name, crossExtent: layout.crossExtent, cellsWritten: cells, cellsExpected: cells))
                    stored += 1
                }
            }
        }
        let layouts = try await storage.read { try $0.layoutRecords(specID: specID, engineVersion: LayoutEngine.version) }.map(\.layout)
        return SaveResult(layouts: layouts, report: report, created: true)
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
        var crossExtents: [Double]
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
        return PreparedSave(name: name, spec: stored, fingerprint: fingerprint, bodies: bodies, crossExtents: crossExtents)
    }

    /// The save, inside the caller's write. A spec stored with the same
    /// content and section identities, whose layouts are all fresh and
    /// include every extent asked for, is left as it is without a write
    /// (and without parsing the stored spec).
    package func saveInWrite(
        _ prepared: PreparedSave,
        storage: RowTransaction,
        progress: (@Sendable (PrecomputeProgress) -> Void)?,
        cancellation: CancellationFlag?
    ) async throws -> SaveOutcome {
        let (name, stored, fingerprint) = (prepared.name, prepared.spec, prepared.fingerprint)
        if let kept = try await unchangedLayouts(prepared, storage: storage) {
            var report = UpdateReport()
            for layout in kept {
                var entry = UpdateReport.Layout(crossExtent: layout.crossExtent)
                entry.kept = stored.sections.count
                report.layouts.append(entry)
            }
            return SaveOutcome(result: SaveResult(layouts: kept, report: report), unchanged: true)
        }
        var report = UpdateReport()
        let specID: Int64
        let created: Bool
        if let existing = try await storage.read({ try $0.specID(name: name) }) {
            report = try await applyUpdate(
                name: name, spec: stored, fingerprint: fingerprint, bodies: prepared.bodies, storage: storage,
                progress: progress, cancellation: cancellation
            )
            specID = existing
            created = false
        } else {
            specID = try await upsertSpec(stored, name: name, fingerprint: fingerprint, bodies: prepared.bodies, storage: storage)
            created = true
        }
        let existing = try await storage.read { try $0.layoutRecords(specID: specID, engineVersion: LayoutEngine.version) }.map(\.layout.crossExtent)
        for extent in prepared.crossExtents.sorted() where !existing.contains(extent) && !report.layouts.contains(where: { $0.crossExtent == extent }) {
            _ = try await computeLayout(
                spec: stored, name: name, specID: specID, fingerprint: fingerprint,
                crossExtent: extent, storage: storage, progress: progress, cancellation: cancellation
            )
            report.layouts.append(.fullRecompute(crossExtent: extent, sections: stored.sections.count))
        }
        report.layouts.sort { $0.crossExtent < $1.crossExtent }
        let layouts = try await storage.read { try $0.layoutRecords(specID: specID, engineVersion: LayoutEngine.version) }.map(\.layout)
        return SaveOutcome(result: SaveResult(layouts: layouts, report: report, created: created), unchanged: false)
    }

    /// The stored layouts when saving `prepared` would change nothing: the
    /// stored spec has the same content hash and section identities, and
    /// every layout of it is fresh, at every extent asked for. Two indexed
    /// lookups by name and spec id, plus the section identities when the
    /// hash matches; nil as soon as one differs.
    func unchangedLayouts(_ prepared: PreparedSave, storage: RowTransaction) async throws -> [StoredLayout]? {
        try await storage.read { try self.unchangedLayouts(prepared, storage: $0) }
    }

    /// The same judgement in a read, without the writer.
    package func unchangedLayouts(_ prepared: PreparedSave, storage: RowSnapshot) throws -> [StoredLayout]? {
        guard let record = try storage.spec(name: prepared.name),
              let layouts = Self.keptLayouts(prepared, record: record,
                  try storage.layoutRecords(specID: record.id, engineVersion: LayoutEngine.version))
        else { return nil }
        return Self.sameSections(prepared, try storage.sectionIdentities(specID: record.id)) ? layouts : nil
    }

    /// The layouts of a spec stored with the content hash of `prepared`
    /// when all are fresh and cover every extent it asks for, else nil.
    private static func keptLayouts(_ prepared: PreparedSave, record: SpecRow, _ records: [LayoutRecord]) -> [StoredLayout]? {
        guard record.contentHash == prepared.fingerprint.specHash else { return nil }
        let layouts = records.map(\.layout)
        guard layouts.allSatisfy({ $0.state == .fresh }),
              prepared.crossExtents.allSatisfy({ extent in layouts.contains { $0.crossExtent == extent } }) else { return nil }
        return layouts
    }

    /// Whether the stored sections have the identities and hashes of `prepared`'s.
    private static func sameSections(_ prepared: PreparedSave, _ identities: [SectionIdentity]) -> Bool {
        identities.map(\.identity) == prepared.fingerprint.sectionIdentities && identities.map(\.hash) == prepared.fingerprint.sectionHashes
    }

    /// Deletes a spec and all its layouts. Returns whether it existed.
    func deleteSpec(in name: String) async throws -> Bool {
        try await write { storage in
            guard let (specID, layouts) = try await storage.read({ rows -> (Int64, [LayoutRecord])? in
                guard let specID = try rows.specID(name: name) else { return nil }
                return (specID, try rows.layoutRecords(specID: specID, engineVersion: LayoutEngine.version))
            }) else { return false }
            for record in layouts {
                try await storage.deleteLayout(id: record.layout.id)
            }
            try await storage.deleteSpec(id: specID)
            return true
        }
    }

    /// Inserts or replaces the spec row and its sections' rows. With the
    /// previous sections' hashes, only the rows of changed sections are
    /// written. `bodies`, when given, are the sections' canonical JSON.
    /// `isNew`: the caller knows no spec has the name (no lookup, nothing to delete).
    func upsertSpec(
        _ spec: Spec,
        name: String,
        fingerprint: SpecFingerprint,
        bodies: [String]? = nil,
        storage: RowTransaction,
        previous: [SectionIdentity]? = nil,
        isNew: Bool = false
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
        let specID: Int64
        if !isNew, let existing = try await storage.read({ try $0.specID(name: name) }) {
            try await storage.updateSpec(id: existing, row)
            specID = existing
        } else {
            specID = try await storage.insertSpec(row)
        }
        // Deleted with every body, or (a new spec) none: no runs to delete by section.
        let bodiesDeleted = !isNew && previous?.count != spec.sections.count
        if bodiesDeleted { try await storage.deleteSectionBodies(specID: specID) }
        var rewritten: [Int] = []
        for (index, section) in spec.sections.enumerated() {
            let identity = fingerprint.sectionIdentities[index]
            let hash = fingerprint.sectionHashes[index]
            if let previous, previous.count == spec.sections.count, previous[index] == SectionIdentity(identity: identity, hash: hash) {
                continue
            }
            let body = bodies?[index] ?? JSONWriter.canonical(section.jsonValue)
            try await storage.writeSection(specID: specID, index: index, identity: identity, contentHash: hash, body: body)
            rewritten.append(index)
        }
        // A section written anew holds its appended items in its body.
        if !isNew, !bodiesDeleted, !rewritten.isEmpty { try await storage.deleteItemRuns(specID: specID, sections: rewritten) }
        return specID
    }
}
