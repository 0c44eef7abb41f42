import TesseraLayout
import TesseraStoreFormat

/// A stored section's identity (its `id`, or `#index`) and content hash.
package struct SectionIdentity: Sendable, Hashable {
    package var identity: String
    package var hash: String

    package init(identity: String, hash: String) {
        self.identity = identity
        self.hash = hash
    }
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

    package init(layout: StoredLayout, overhang: Double, revision: Int64, directorySummary: [UInt8]? = nil) {
        self.layout = layout
        self.overhang = overhang
        self.revision = revision
        self.directorySummary = directorySummary
    }

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

    package init(contentLength: Double, sectionCount: Int, cellCount: Int, elementCount: Int, overhang: Double) {
        self.contentLength = contentLength
        self.sectionCount = sectionCount
        self.cellCount = cellCount
        self.elementCount = elementCount
        self.overhang = overhang
    }

    /// A layout row's totals before its sections are placed.
    package static let zero = LayoutTotals(contentLength: 0, sectionCount: 0, cellCount: 0, elementCount: 0, overhang: 0)
}

/// A section row: the geometry a query needs to place its cells, header,
/// footer and background, and the slot that keys its cells (it stays when
/// sections move).
package struct SectionRecord: Sendable {
    package var geometry: SectionGeometry
    package var slot: Int

    package init(geometry: SectionGeometry, slot: Int) {
        self.geometry = geometry
        self.slot = slot
    }
}

/// A cell group's directory entry: which items it holds, where its frames
/// are, and their exact union relative to the items origin.
package struct GroupRecord: Sendable {
    package var slot: Int
    package var firstItem: Int
    package var id: Int64
    package var bounds: QueryBounds
    /// The ``Checksum`` of the group's frame blob.
    package var framesChecksum: Int64
    /// How far the section's groups up to this one reach, verified; nil
    /// when the read did not ask for it or the row has none.
    package var reach: GroupReach?
    /// The group's frame blob as stored (not yet checked against
    /// ``framesChecksum``), when the read asked for it.
    package var frames: [UInt8]?

    package init(
        slot: Int, firstItem: Int, id: Int64, bounds: QueryBounds, framesChecksum: Int64, reach: GroupReach? = nil, frames: [UInt8]? = nil
    ) {
        self.slot = slot
        self.firstItem = firstItem
        self.id = id
        self.bounds = bounds
        self.framesChecksum = framesChecksum
        self.reach = reach
        self.frames = frames
    }
}

/// A cell group's frames as one group row names them: its id and the
/// checksum of its frames. Bytes read once under a key are the bytes of
/// every group row with that key (a rewrite of a group changes its checksum
/// unless the frames are the same).
package struct FramesKey: Hashable, Sendable {
    package var id: Int64
    package var checksum: Int64

    package init(id: Int64, checksum: Int64) {
        self.id = id
        self.checksum = checksum
    }
}

/// A stored row that does not match its checksum: what it is, and the
/// layout or spec it belongs to as far as that can still be read.
package struct DamagedRow: Sendable, Hashable {
    package var what: String
    package var layoutID: Int64?
    package var spec: String?
    package var crossExtent: Double?

    package init(what: String, layoutID: Int64?, spec: String?, crossExtent: Double?) {
        self.what = what
        self.layoutID = layoutID
        self.spec = spec
        self.crossExtent = crossExtent
    }
}

/// Items appended to a stored section, kept in a row of their own so that
/// an append writes what is new, not the section (see ``SpecRows``). A
/// section's items are those of its stored body followed by its runs'
/// items, in order (``ItemSource/appending(_:)`` of them all).
package struct ItemRun: Sendable, Hashable {
    package var section: Int
    /// The section's item count before this run.
    package var firstItem: Int
    package var itemCount: Int
    /// The run's items: canonical JSON, an array.
    package var items: String
    /// The section's content hash as it goes on after this run (see `AppendableHash`).
    package var hashState: [UInt8]

    package init(section: Int, firstItem: Int, itemCount: Int, items: String, hashState: [UInt8]) {
        self.section = section
        self.firstItem = firstItem
        self.itemCount = itemCount
        self.items = items
        self.hashState = hashState
    }

    /// The section's item count after this run.
    package var endItem: Int { firstItem + itemCount }
}
