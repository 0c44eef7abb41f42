import Locking
import TesseraLayout
import TesseraStoreFormat

/// Layout directories in the shared cache: found there, loaded inline when
/// small, or loaded in the background while the query that missed goes
/// through the backend's spatial index.
extension LayoutStore {
    /// The directory of `record`'s layout, cached or loaded as Architecture.md's step 2 says (nil: this query uses the
    /// spatial index while it loads in the background). `hit`: whether it was cached (nil: the cache is off), for the
    /// caller to count once its read is done.
    func cachedDirectory(of record: LayoutRecord, storage: RowSnapshot) throws -> (layout: CachedLayout?, hit: Bool?) {
        guard cache.budget > 0 else { return (nil, nil) }
        let key = record.cacheKey
        if let cached = cache.directory(key) { return (cached, true) }
        // Read with the layout's row, no statement of its own (``DirectorySummary``);
        // one that fails is `damaged`, never passed over.
        if let summary = record.directorySummary {
            do {
                let (sections, groups) = try DirectorySummary.decode(summary, record: record)
                try Self.checkWhole(sections: sections, groups: groups, layout: record.layout, location: location)
                let summarized = CachedLayout(sections: sections, groups: groups)
                cache.insert(summarized, for: key)
                return (summarized, false)
            } catch let damage as SummaryDamage {
                throw Self.damaged(record.layout, location: location, "directory summary \(damage.reason)")
            }
        }
        let rows = record.layout.sectionCount + record.layout.cellCount / FrameBlob.framesPerGroup + record.layout.sectionCount
        // A directory as small as a summary's loads inline: a few rows cost less than a spatial-index query.
        guard rows > DirectorySummary.maximumRows, !loadsDirectoriesInline else {
            return (try loadDirectory(of: record, storage: storage), false)
        }
        loadInBackground(record: record, key: key)
        return (nil, false)
    }

    /// Loads a directory on the executor, in a snapshot of its own; at most
    /// one load per layout revision at a time.
    private func loadInBackground(record: LayoutRecord, key: LayoutCacheKey) {
        guard directoryLoads.withLock({ $0.insert(key).inserted }) else { return }
        // On the executor's threads, so the blocking read needs no second hop; it yields to queries waiting for a
        // connection, and holds the store weakly, so a load keeps no store its users released open.
        Task(executorPreference: executor) { [weak self] in
            guard let self else { return }
            defer { _ = directoryLoads.withLock { $0.remove(key) } }
            guard !cache.containsDirectory(key) else { return }
            // The revision may be gone by now: then the rows read are another
            // revision's, and are cached under that revision's key instead.
            _ = try? await AsyncGate.$yields.withValue(true) { try await readAsync { storage in
                guard let current = try storage.layoutRecord(id: record.layout.id) else { return }
                _ = try self.loadDirectory(of: current, storage: storage)
            } }
        }
    }

    /// A layout's sections and groups, read in the caller's snapshot (every
    /// row verified, none missing: ``directoryRows(of:storage:)``)
    /// and put in the shared cache.
    func loadDirectory(of record: LayoutRecord, storage: RowSnapshot) throws -> CachedLayout {
        let rows = try Self.directoryRows(of: record, storage: storage)
        let loaded = CachedLayout(sections: rows.sections, groups: rows.groups)
        cache.insert(loaded, for: record.cacheKey)
        return loaded
    }

    /// A layout's sections and groups, read in the caller's snapshot, proven whole.
    static func directoryRows(of record: LayoutRecord, storage: RowSnapshot) throws -> (sections: [SectionRecord], groups: LayoutGroups) {
        let (layout, location) = (record.layout, storage.location)
        let sections = try storage.sections(layoutID: layout.id)
        if let problem = numberingProblem(sections, sectionCount: layout.sectionCount) { throw damaged(layout, location: location, problem) }
        var groups: [GroupRow] = []
        try storage.forEachGroup(layoutID: layout.id) { groups.append($0) }
        // Numbered in order: a section's position is its index.
        guard let builder = LayoutGroups(sections: sections, groups: groups) else {
            throw damaged(layout, location: location, "cell groups name a section slot no section has")
        }
        try checkWhole(sections: sections, groups: builder, layout: layout, location: location)
        return (sections, builder)
    }

    private static func checkWhole(sections: [SectionRecord], groups: LayoutGroups, layout: StoredLayout, location: String) throws {
        if let problem = incompleteness(sections: sections, groups: groups, sectionCount: layout.sectionCount) {
            throw damaged(layout, location: location, problem)
        }
    }

    /// What keeps `sections` and their `groups` from being a whole directory (Architecture.md, "Directory summaries"),
    /// nil when nothing: a query answered from a whole directory misses nothing.
    static func incompleteness(sections: [SectionRecord], groups: LayoutGroups, sectionCount: Int) -> String? {
        if let problem = numberingProblem(sections, sectionCount: sectionCount) { return problem }
        guard groups.sectionCount == sections.count else { return "cell groups name a section slot no section has" }
        for index in sections.indices {
            let geometry = sections[index].geometry
            guard groups.hasExpectedFirstItems(section: index, itemCount: geometry.isEmpty ? 0 : max(0, geometry.itemCount)) else {
                return "section \(index) lacks cell groups of its \(geometry.itemCount) items"
            }
        }
        return nil
    }

    private static func numberingProblem(_ sections: [SectionRecord], sectionCount: Int) -> String? {
        guard sections.count == sectionCount, sections.indices.allSatisfy({ sections[$0].geometry.index == $0 }) else {
            return "section rows are missing or misnumbered (\(sections.count) rows for \(sectionCount) sections)"
        }
        return nil
    }

    private static func damaged(_ layout: StoredLayout, location: String, _ what: String) -> StoreError {
        StoreError.damaged(store: location, spec: layout.specName, crossExtent: layout.crossExtent, "the layout's \(what)")
    }
}
