import TesseraLayout

/// What a query does when the layout it asks for is missing (never
/// computed at that extent) or stale (its spec or the engine changed since).
public enum ComputePolicy: Sendable {
    /// Answer from what is stored: a missing or stale layout is
    /// ``LayoutRead/missing(_:)``, and nothing is computed.
    case never
    /// Compute and store the layout first, once for every task asking meanwhile.
    case always
    /// Ask `admit` first, with what the store holds of the spec in the
    /// snapshot that found the layout missing: it throws to refuse (the
    /// query throws its error), or admits the computation and returns what
    /// to call when it ends (a server counts computations under way so).
    case admittedBy(@Sendable (MissingLayout) throws -> @Sendable () -> Void)
}

/// What a read of a layout found: its value, from the fresh layout, or
/// the layout missing or stale as the ``ComputePolicy`` left it.
public enum LayoutRead<Value: Sendable>: Sendable {
    /// The value, from the fresh layout; `computed` when this read computed the layout first.
    case found(Value, computed: Bool)
    /// The layout is missing or stale, and the policy did not compute it.
    case missing(MissingLayout)
}

/// The answer of ``LayoutStore/query(_:name:crossExtent:direction:offsets:maximumElements:compute:)``.
public typealias QueryResult = LayoutRead<LayoutAnswer>

/// A layout a query found missing or stale, with what the store holds of
/// its spec in the same snapshot.
public struct MissingLayout: Sendable, Hashable {
    /// Why there is no fresh layout.
    public enum Reason: Sendable, Hashable {
        /// Never computed at this extent (or deleted).
        case notComputed
        /// Stored, but computed from other content or another engine version.
        case stale
    }

    /// The spec's name.
    public var specName: String
    /// The extent asked for.
    public var crossExtent: Double
    public var reason: Reason
    /// The spec's stored layouts, fresh or not, by extent.
    public var storedLayouts: [StoredLayout]
}

extension LayoutStore {
    /// Answers `query` on the layout of `name` at `crossExtent` in one call,
    /// whatever the layout's state: from the fresh layout when it is
    /// stored; else as `compute` says (compute it first, or tell why it is
    /// missing). All of an answer comes from one snapshot, in `direction`,
    /// carousels scrolled by `offsets`.
    ///
    /// - Throws: ``StoreError`` `notFound` for an unknown spec, or an item
    ///   query of a section or item that does not exist (with
    ///   ``StoreError/section`` and ``StoreError/item``); `invalidArgument`
    ///   for an extent the spec cannot take; what an admission throws;
    ///   `tooLarge` for a rect or viewport of more than `maximumElements`
    ///   elements, found out band by band along the scroll axis for a long
    ///   rect (never all of its elements read at once), with an
    ///   ``AnswerTooLarge`` cause that says how to split it.
    nonisolated(nonsending) public func query(
        _ query: LayoutQuery, name: String, crossExtent: Double, direction: LayoutDirection = .leftToRight,
        offsets: OrthogonalOffsets = .none, maximumElements: Int? = nil, compute policy: ComputePolicy = .always
    ) async throws -> QueryResult {
        let name = try specName(name)
        return try await freshLayout(name: name, crossExtent: crossExtent, compute: policy) {
            try Self.answer(query, reader: $0, direction: direction, offsets: offsets, maximumElements: maximumElements)
        }
    }

    /// What the store holds of a spec whose layout at `crossExtent` is not fresh.
    static func missing(name: String, crossExtent: Double, storage: RowSnapshot) throws -> MissingLayout {
        let stored = try layouts(name: name, storage: storage)
        return MissingLayout(
            specName: name, crossExtent: crossExtent,
            reason: stored.contains { $0.crossExtent == crossExtent } ? .stale : .notComputed, storedLayouts: stored
        )
    }
}
