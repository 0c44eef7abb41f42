import Locking
import TesseraLayout

/// Invalidating, deleting, pruning and repairing, each in one write through the write gate.
extension LayoutStore {
    /// Marks layouts stale: the spec's layout at `crossExtent`, or all of its
    /// layouts. A stale layout is never served; the next query recomputes it.
    ///
    /// - Returns: the number of layouts marked.
    @discardableResult
    public func invalidate(name: String, crossExtent: Double? = nil) async throws -> Int {
        let name = try specName(name)
        return try await writeAsync { _ in
            try await self.write { storage in
                guard let specID = try await storage.read({ try $0.spec(name: name)?.id }) else { throw StoreError.noSuchSpec(name: name) }
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
                    guard let specID = try rows.spec(name: name)?.id else { throw StoreError.noSuchSpec(name: name) }
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
        return try await writeAsync { _ in try await self.write { try await self.deleteSpec(spelling: name, storage: $0) } }
    }

    /// What `prune()` removed.
    public struct PruneReport: Sendable, Hashable {
        public var layoutsDeleted: Int
        public var bytesBefore: Int
        public var bytesAfter: Int
    }

    /// Deletes every stale layout and gives the freed space (theirs, and that
    /// of layouts replaced or updated before) back to the file system.
    @discardableResult
    public func prune() async throws -> PruneReport {
        try await writeAsync { _ in
            let before = await self.fileBytes
            let deleted = try await self.write { storage in
                let stale = try await storage.read({ try $0.layoutRecords() }).filter { $0.layout.state == .stale }
                for record in stale { try await storage.deleteLayout(id: record.layout.id) }
                return stale.count
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
