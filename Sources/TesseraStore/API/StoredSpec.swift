import TesseraLayout

/// A spec as the store holds it.
public struct StoredSpec: Sendable, Hashable {
    public var name: String
    public var axis: Axis
    public var sectionCount: Int
    /// Changes whenever the spec's content (or its item files) changes.
    public var contentHash: String
    public var updatedAt: Double
}

/// What the store knows of one layout: a spec at one cross extent.
public struct StoredLayout: Sendable, Hashable {
    /// Whether a stored layout may be served.
    public enum State: String, Sendable, Hashable {
        /// Computed from the spec's current content by this engine version.
        case fresh
        /// Invalidated, computed from older spec content, or by another
        /// engine version: never served; recomputed on the next query.
        case stale
    }

    /// The backend's key of this layout; never reused for another.
    package var id: Int64
    public var specName: String
    public var axis: Axis
    public var crossExtent: Double
    public var state: State
    public var contentLength: Double
    public var sectionCount: Int
    public var cellCount: Int
    public var elementCount: Int
    public var engineVersion: Int
    public var computeSeconds: Double

    /// Bytes of exact cell frames stored, the bulk of a layout's size.
    public var frameBytes: Int { cellCount * 32 }

    /// The on-screen content size.
    public var contentSize: Size {
        axis.size(crossExtent: crossExtent, contentLength: contentLength)
    }
}

/// Progress of a precompute, reported as cells are written.
public struct PrecomputeProgress: Sendable, Hashable {
    public var specName: String
    public var crossExtent: Double
    public var cellsWritten: Int
    /// The number of cells to write when known (item files are counted as read).
    public var cellsExpected: Int?
}

extension StoredLayout {
    /// The layout's fields as the engine's answers carry them (for the
    /// contract's JSON of an answer, written by the CLI and the server alike).
    package var summary: LayoutSummary {
        LayoutSummary(axis: axis, crossExtent: crossExtent, contentLength: contentLength, sectionCount: sectionCount, cellCount: cellCount, elementCount: elementCount)
    }
}
