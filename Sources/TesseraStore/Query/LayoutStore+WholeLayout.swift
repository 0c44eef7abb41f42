import TesseraLayout

/// A fresh layout read with its whole directory, for what is built over the
/// store's queries (tiles): its sections and groups, and rect answers from
/// the same snapshot.
package struct WholeLayout {
    fileprivate let reader: LayoutReader
    fileprivate let directory: CachedLayout

    package var layout: StoredLayout { reader.layout }

    /// How far any element reaches past its section's scroll-axis range.
    package var overhang: Double { reader.record.overhang }

    /// Every section, in order.
    package var sections: [SectionRecord] { directory.sections }

    /// The non-empty sections whose scroll-axis range meets [low, high], in order.
    package func sections(from low: Double, through high: Double) -> [SectionRecord] {
        directory.sectionRange(from: low, through: high).compactMap { sections[$0].geometry.isEmpty ? nil : sections[$0] }
    }

    /// Visits the first item and frames checksum of each cell group of the
    /// section at `position` in ``sections``, in item order.
    package func forEachGroup(ofSection position: Int, _ body: (_ firstItem: Int, _ checksum: Int64) -> Void) {
        let ordinals = directory.ordinals(ofSection: position)
        for ordinal in ordinals {
            body(SectionGroups.firstItem(at: ordinal - ordinals.lowerBound), directory.checksums[ordinal])
        }
    }

    /// What ``LayoutStore/answer(_:name:crossExtent:direction:offsets:computeIfMissing:)``
    /// gives for `rect`; `tooLarge` past `maximumElements`.
    package func answer(_ rect: Rect, direction: LayoutDirection, offsets: OrthogonalOffsets, maximumElements: Int?) throws -> LayoutAnswer {
        try LayoutStore.answer(.rect(rect), reader: reader, direction: direction, offsets: offsets, maximumElements: maximumElements)
    }

    /// A hash of the directory that `make` derives, made once per directory
    /// (which never changes) and kept with it.
    package func derivedHash(_ make: (WholeLayout) -> UInt64) -> UInt64 {
        let known = directory.derivedHash.load(ordering: .acquiring)
        if known != 0 { return known }
        let hash = make(self)
        directory.derivedHash.store(hash, ordering: .releasing)
        return hash
    }
}

extension LayoutStore {
    /// `body` on the whole fresh layout of `name` (the canonical name) at `crossExtent` in one read, its directory
    /// loaded now when not cached. Not generic: a generic call from another module would run unspecialized.
    /// `body` may run more than once (see ``StorageBackend``); it keeps its last value.
    package func readWholeLayout(
        name: String, crossExtent: Double, compute policy: ComputePolicy, _ body: @escaping @Sendable (WholeLayout) throws -> Void
    ) async throws -> LayoutRead<Void> {
        try await freshLayout(name: name, crossExtent: crossExtent, compute: policy) { reader in
            let directory = try reader.cache ?? self.loadDirectory(of: reader.record, storage: reader.storage)
            return try body(WholeLayout(reader: reader.with(cached: directory), directory: directory))
        }
    }
}
