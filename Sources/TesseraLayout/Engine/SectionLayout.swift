/// A layout kind, configured for one section: `flow`, `grid`, `mozaik`, … or
/// one of your own. Register your own kinds with ``LayoutRegistry`` to read
/// them from JSON, or put them in a ``Section`` directly from Swift.
///
/// Kinds work in ``LocalFrame`` coordinates (cross, scroll) relative to the
/// section's items origin, so that every kind works on both axes and a stored
/// section can be moved without touching its frames.
public protocol SectionLayout: Sendable {
    /// The kind's name as written in specs, such as `"flow"`.
    var kind: String { get }

    /// The parameters as written in the spec's layout object, without `kind`;
    /// used to store the spec and to tell whether a section changed.
    var parameters: JSONObject { get }

    /// Creates the placer that lays out one section's items.
    ///
    /// - Throws: ``SpecError`` when the parameters cannot work for this
    ///   section (for instance, an available extent too small for them).
    func makePlacer(in context: SectionContext) throws -> any ItemPlacer

    /// The layout with the parameters that apply at `crossExtent`: itself,
    /// unless its parameters depend on the extent (``BreakpointLayout``).
    /// Stores compare sections at an extent by it, so that a change that
    /// does not reach an extent leaves that extent's layout as it is.
    func resolved(crossExtent: Double) -> any SectionLayout
}

extension SectionLayout {
    /// Itself: a kind's parameters do not depend on the extent.
    public func resolved(crossExtent: Double) -> any SectionLayout { self }
}

/// Places a section's items one at a time.
///
/// A placer is a value: copying it copies the layout state, which is how a
/// stored layout can go on with appended items later.
public protocol ItemPlacer: Sendable {
    /// Places the item with the given index; items arrive in index order.
    ///
    /// Frames that are final are written to `sink` now or later; a kind that
    /// must see later items first (flow's line alignment) keeps them pending.
    /// - Throws: ``SpecError`` naming the item (use `location`) and the rule.
    mutating func place(_ item: Item, index: Int, location: ItemLocation, into sink: inout FrameSink) throws

    /// Writes the frames still pending as if no more items came, and returns
    /// the extent of the items region along the scroll axis. Does not change
    /// the placer, so more items can be placed afterwards.
    func finish(into sink: inout FrameSink) -> Double
}

/// A placer whose state can be saved with a stored layout and restored to go
/// on with appended items, instead of laying out the section again.
public protocol ResumableItemPlacer: ItemPlacer, Codable {
    /// The items whose frames may still change when more items are placed
    /// (an open flow line), as a range of item indices.
    var openItems: Range<Int> { get }

    /// The version of this placer's stored state (1 by default). Bump it
    /// whenever the placer's `Codable` form changes: states stored by
    /// another version are not decoded, and their sections are laid out
    /// again instead of going on from them.
    static var stateVersion: Int { get }
}

extension ResumableItemPlacer {
    /// Version 1.
    public static var stateVersion: Int { 1 }

    /// The first item whose frame a section resumed from this placer,
    /// saved after its first `itemCount` items, writes: the first open
    /// item (written again, its frame may change), else the next one.
    package func firstWrittenItem(after itemCount: Int) -> Int {
        openItems.isEmpty ? itemCount : openItems.lowerBound
    }
}

/// Collects the frames a placer writes.
public struct FrameSink: Sendable {
    /// Frames written since the last drain, in the order written.
    public var frames: [PlacedFrame] { storage }
    @usableFromInline var storage: [PlacedFrame] = []

    /// An empty sink.
    public init() {
        storage.reserveCapacity(1024)
    }

    /// Records the frame of item `index`, relative to the items origin.
    @inlinable @inline(__always)
    public mutating func emit(item index: Int, frame: LocalFrame) {
        storage.append(PlacedFrame(item: index, frame: frame))
    }

    /// Hands the frames written so far to `body` and forgets them.
    public mutating func drain(_ body: ([PlacedFrame]) throws -> Void) rethrows {
        guard !storage.isEmpty else { return }
        try body(storage)
        storage.removeAll(keepingCapacity: true)
    }
}

/// The frame of one item, relative to its section's items origin.
public struct PlacedFrame: Sendable, Hashable {
    /// The item's index in its section.
    public var item: Int
    /// The item's frame, relative to the items origin.
    public var frame: LocalFrame

    /// The frame of item `item`.
    @inlinable
    public init(item: Int, frame: LocalFrame) {
        self.item = item
        self.frame = frame
    }
}
