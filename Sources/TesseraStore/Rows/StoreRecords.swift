import TesseraLayout
import TesseraStoreFormat

/// A stored section's identity (its `id`, or `#index`) and content hash.
package struct SectionIdentity: Sendable, Hashable {
    package var identity: String
    package var hash: String
}

/// A layout's row with what readers need besides the public description.
package struct LayoutRecord: Sendable {
    package var layout: StoredLayout
    /// How far cells reach outside their section along the scroll axis.
    package var overhang: Double
    /// Changes with every change to the layout's rows, for readers' caches.
    package var revision: Int64
    /// The layout's directory in one blob, as stored (``DirectorySummary``,
    /// not yet verified); nil for a layout without one.
    package var directorySummary: [UInt8]?

    /// The totals the row holds.
    package var totals: LayoutTotals {
        LayoutTotals(
            contentLength: layout.contentLength, sectionCount: layout.sectionCount, cellCount: layout.cellCount,
            elementCount: layout.elementCount, overhang: overhang
        )
    }
}

/// A layout's totals, written once its sections are placed.
package struct LayoutTotals: Sendable {
    package var contentLength: Double
    package var sectionCount: Int
    package var cellCount: Int
    package var elementCount: Int
    package var overhang: Double

    /// A layout row's totals before its sections are placed.
    package static let zero = LayoutTotals(contentLength: 0, sectionCount: 0, cellCount: 0, elementCount: 0, overhang: 0)
}

/// A section row: the geometry a query needs to place its cells, header,
/// footer and background, and the slot that keys its cells (it stays when
/// sections move).
package struct SectionRecord: Sendable {
    package var geometry: SectionGeometry
    package var slot: Int
}

/// A stored row that does not match its checksum: what it is, and the
/// layout or spec it belongs to as far as that can still be read.
package struct DamagedRow: Sendable, Hashable {
    package var what: String
    package var layoutID: Int64?
    package var spec: String?
    package var crossExtent: Double?
}

/// Items appended to a stored section, in a row of their own (``ItemRunRow``) so an append writes only what is new; the
/// section's items are its stored body's, then its runs', in order (`ItemSource.appending(_:)` of them all).
package struct ItemRun: Sendable, Hashable {
    package var section: Int
    /// The section's item count before this run.
    package var firstItem: Int
    package var itemCount: Int
    /// The run's items: canonical JSON, an array.
    package var items: String
    /// The section's content hash as it goes on after this run (see `AppendableHash`).
    package var hashState: [UInt8]

    /// The section's item count after this run.
    package var endItem: Int { firstItem + itemCount }
}
