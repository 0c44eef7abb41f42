import TesseraLayout

/// Listing, invalidating, deleting and pruning layouts.
extension LayoutStore {
    /// The stored layouts of one spec, by extent; `notFound` for an unknown spec.
    static func layouts(name: String, storage: any ReadSnapshot) throws -> [StoredLayout] {
        guard let specID = try storage.specs.specID(name: name) else { throw StoreError.noSuchSpec(name: name) }
        return try storage.layouts.layoutRecords(specID: specID, engineVersion: LayoutEngine.version).map(\.layout)
    }

    /// Marks layouts stale: the spec's layout at `crossExtent`, or all of its
    /// layouts. A stale layout is never served; the next query recomputes it.
    ///
    /// - Returns: the number of layouts marked.
    @discardableResult
    func invalidate(name: String, crossExtent: Double? = nil) throws -> Int {
        try write { storage in
            guard let specID = try storage.specs.specID(name: name) else { throw StoreError.noSuchSpec(name: name) }
            return try storage.layoutChanges.invalidate(specID: specID, crossExtent: crossExtent, updatedAt: Clock.wall())
        }
    }

    /// Deletes the spec's layout at one extent, all of its rows, at once.
    /// Returns whether there was one.
    @discardableResult
    func deleteLayout(name: String, crossExtent: Double) throws -> Bool {
        try write { storage in
            guard let specID = try storage.specs.specID(name: name) else { throw StoreError.noSuchSpec(name: name) }
            guard let id = try storage.layouts.layoutID(specID: specID, crossExtent: crossExtent) else { return false }
            try storage.layoutChanges.deleteLayout(id: id)
            return true
        }
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
    func prune() throws -> PruneReport {
        let before = fileBytes
        let deleted = try write { storage in
            var count = 0
            for record in try storage.layouts.layoutRecords(specID: nil, engineVersion: LayoutEngine.version) where record.layout.state == .stale {
                try storage.layoutChanges.deleteLayout(id: record.layout.id)
                count += 1
            }
            return count
        }
        try backend.compact()
        return PruneReport(layoutsDeleted: deleted, bytesBefore: before, bytesAfter: fileBytes)
    }
}
