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

/// One page of `tessera list`: stored specs with their layouts, by name.
public struct ListingPage: Sendable, Hashable {
    public var specs: [SpecListing]
    /// The name to pass as `after` for the page after this one; nil on the last page.
    public var next: String?

    /// The specs of a page when its size is not given, and the most a page
    /// may hold, for the HTTP route and the CLI alike.
    package static let standardLimit = 1_000
    package static let maximumLimit = 10_000

    public init(specs: [SpecListing], next: String?) {
        self.specs = specs
        self.next = next
    }
}

extension LayoutStore {
    /// At most `limit` stored specs with their layouts, named after
    /// `after` (from the first when nil; `after` need not be stored), read
    /// in one snapshot. Names are in the byte order of their UTF-8 on every
    /// backend, so that pages follow one another whichever store they come from.
    /// - Throws: ``StoreError`` with code `invalidArgument` when `limit` is below 1.
    public func listing(after: String? = nil, limit: Int) async throws -> ListingPage {
        let after = after.map(Spec.normalizedName)
        try Self.checkListing(limit: limit)
        return try await readAsync { storage in try Self.listing(after: after, limit: limit, storage: storage) }
    }

    /// ``listing(after:limit:)`` read and turned into `T` on the store's
    /// executor, never in place: a caller on an event loop keeps serving
    /// other requests while a large page is read and written out.
    package func listing<T: Sendable>(
        after: String?, limit: Int, onExecutor transform: @escaping @Sendable (ListingPage) -> T
    ) async throws -> T {
        // Checked before the gate: a bad limit fails without waiting.
        try Self.checkListing(limit: limit)
        return try await listingGate.pass { try await onExecutor { transform(try await self.listing(after: after, limit: limit)) } }
    }

    private static func checkListing(limit: Int) throws {
        guard limit >= 1 else { throw StoreError(.invalidArgument, "a page of the listing holds 1 spec or more, not \(limit)") }
    }

    /// Every stored spec with its layouts, by name, read in one snapshot.
    public func listing() async throws -> [SpecListing] {
        try await readAsync { storage in try Self.listing(after: nil, limit: .max, storage: storage).specs }
    }

    /// One stored spec with its layouts, or nil when there is no such spec.
    public func listing(name: String) async throws -> SpecListing? {
        let name = try specName(name)
        return try await readAsync { storage in
            guard let spec = try storage.spec(name: name) else { return nil }
            return SpecListing(spec: RowSnapshot.summary(of: spec), layouts: try storage.layoutRecords(of: spec).map(\.layout))
        }
    }

    static func listing(after: String?, limit: Int, storage: RowSnapshot) throws -> ListingPage {
        // One spec past the page tells whether another page follows.
        var specs = try storage.specSummaries(after: after, limit: limit == .max ? limit : limit + 1)
        let more = specs.count > limit
        if more { specs.removeLast() }
        guard let last = specs.last else { return ListingPage(specs: [], next: nil) }
        // By the spec's name as stored, byte for byte: two names Swift calls
        // equal (stored before names were normalized) keep their own layouts.
        let records = try storage.layoutRecords(namesAfter: after, through: last.name)
        let layouts = Dictionary(grouping: records.map(\.layout)) { Array($0.specName.utf8) }
        return ListingPage(specs: specs.map { SpecListing(spec: $0, layouts: layouts[Array($0.name.utf8)] ?? []) }, next: more ? last.name : nil)
    }

    /// The stored layouts of one spec, by extent; `notFound` for an unknown spec.
    static func layouts(name: String, storage: RowSnapshot) throws -> [StoredLayout] {
        guard let spec = try storage.spec(name: name) else { throw StoreError.noSuchSpec(name: name) }
        return try storage.layoutRecords(of: spec).map(\.layout)
    }
}
