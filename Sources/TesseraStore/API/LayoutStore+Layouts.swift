import TesseraLayout

/// Listing layouts, and what pruning them reports.
extension LayoutStore {
    /// The stored layouts of one spec, by extent; `notFound` for an unknown spec.
    static func layouts(name: String, storage: RowSnapshot) throws -> [StoredLayout] {
        guard let specID = try storage.spec(name: name)?.id else { throw StoreError.noSuchSpec(name: name) }
        return try storage.layoutRecords(specID: specID, engineVersion: LayoutEngine.version).map(\.layout)
    }

    /// What `prune()` removed.
    public struct PruneReport: Sendable, Hashable {
        public var layoutsDeleted: Int
        public var bytesBefore: Int
        public var bytesAfter: Int
    }
}
