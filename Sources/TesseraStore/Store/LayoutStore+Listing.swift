import TesseraLayout

/// A stored spec with its layouts: one entry of `tessera list`.
public struct SpecListing: Sendable, Hashable {
    public var spec: StoredSpec
    /// Its layouts, by extent.
    public var layouts: [StoredLayout]

    public init(spec: StoredSpec, layouts: [StoredLayout]) {
        self.spec = spec
        self.layouts = layouts
    }
}

extension LayoutStore {
    /// Every stored spec with its layouts, by name, read in one snapshot.
    public func listing() async throws -> [SpecListing] {
        try await readAsync { storage in try Self.listing(storage: storage) }
    }

    /// One stored spec with its layouts, or nil when there is no such spec.
    public func listing(name: String) async throws -> SpecListing? {
        let name = try specName(name)
        return try await readAsync { storage in try Self.listing(name: name, storage: storage) }
    }

    static func listing(storage: any ReadSnapshot) throws -> [SpecListing] {
        var layoutsByName: [String: [StoredLayout]] = [:]
        for record in try storage.layouts.layoutRecords(specID: nil, engineVersion: LayoutEngine.version) {
            layoutsByName[record.layout.specName, default: []].append(record.layout)
        }
        return try storage.specs.specSummaries().map { SpecListing(spec: $0, layouts: layoutsByName[$0.name] ?? []) }
    }

    static func listing(name: String, storage: any ReadSnapshot) throws -> SpecListing? {
        guard let spec = try storage.specs.specSummary(name: name), let specID = try storage.specs.specID(name: name) else { return nil }
        return SpecListing(spec: spec, layouts: try storage.layouts.layoutRecords(specID: specID, engineVersion: LayoutEngine.version).map(\.layout))
    }
}
