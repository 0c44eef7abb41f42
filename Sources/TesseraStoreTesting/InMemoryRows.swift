import TesseraLayout
import TesseraStore

/// A stored row with the checksum its columns had when it was written: the
/// in-memory tables keep checksums as the SQLite and PostgreSQL tables do,
/// over the same columns in the same order (`ChecksummedColumns` of
/// TesseraSQLite), so that the store's reads verify every row and its
/// check finds a row changed behind its back.
package protocol ChecksummedRow: Sendable {
    /// The checksum stored with the row.
    var checksum: Int64 { get set }
    /// The checksum of the row's columns as they are now.
    var columnsChecksum: Int64 { get }
}

extension ChecksummedRow {
    /// Whether the row matches its stored checksum.
    package var isIntact: Bool { checksum == columnsChecksum }

    /// Stores the checksum of the row's columns, as a write does.
    package mutating func resum() { checksum = columnsChecksum }
}

/// A spec's row (`specs`): everything but its sections' bodies.
package struct SpecRowData: ChecksummedRow {
    package var id: Int64
    package var name: String
    /// The canonical JSON of everything but the sections.
    package var body: String
    package var contentHash: String
    package var axis: String
    package var sectionCount: Int
    package var updatedAt: Double
    package var checksum: Int64 = 0

    package var columnsChecksum: Int64 {
        checksum(of: id, name, body, contentHash, axis, sectionCount)
    }
}

/// Items appended to one section of a spec (`spec_item_runs`).
package struct ItemRunRow: ChecksummedRow {
    package var specID: Int64
    package var run: ItemRun
    package var checksum: Int64 = 0

    package var columnsChecksum: Int64 {
        checksum(of: specID, run.section, run.firstItem, run.itemCount, run.items, run.hashState)
    }
}

/// The stored body of one section of a spec (`spec_sections`).
package struct SpecSectionRow: ChecksummedRow, KeyedRow {
    package var specID: Int64
    package var section: Int
    package var identity: String
    package var contentHash: String
    package var body: String
    package var checksum: Int64 = 0

    package var key: Int { section }

    package var columnsChecksum: Int64 {
        checksum(of: specID, section, identity, contentHash, body)
    }
}

/// A layout's row (`layouts`): its spec, extent, engine version, totals
/// and freshness. Times are not covered by the checksum.
package struct LayoutRow: ChecksummedRow {
    package var id: Int64
    package var specID: Int64
    package var crossExtent: Double
    package var engineVersion: Int
    package var specHash: String
    package var totals: LayoutTotals
    /// `ready`, or `stale` once invalidated.
    package var status: String
    /// Bumped by every change in place, for readers' caches.
    package var revision: Int64
    package var computeSeconds: Double
    package var updatedAt: Double
    package var checksum: Int64 = 0
    /// The directory summary, which carries its own checksum (not covered by the row's).
    package var directorySummary: [UInt8]?

    package var columnsChecksum: Int64 {
        checksum(of: id, specID, crossExtent, engineVersion, specHash, totals.contentLength, totals.sectionCount,
            totals.cellCount, totals.elementCount, totals.overhang, status, revision)
    }
}

/// A section row of a layout (`layout_sections`): its geometry, slot,
/// scroll-axis end (what `forEachSection` searches) and placer state.
package struct SectionRow: ChecksummedRow, KeyedRow {
    package var layoutID: Int64
    package var record: SectionRecord
    package var end: Double
    package var placerState: [UInt8]?
    package var checksum: Int64 = 0

    package var key: Int { record.geometry.index }

    package var columnsChecksum: Int64 {
        let geometry = record.geometry
        return checksum(of: layoutID, geometry.index, record.slot, geometry.start, end, geometry.itemCount,
            geometry.itemsExtent, geometry.cellSpan?.lowerBound, geometry.cellSpan?.upperBound, geometry.header?.size,
            geometry.header?.pinned ?? false, geometry.footer?.size, geometry.footer?.pinned ?? false, geometry.background,
            geometry.scrollStartInset, geometry.scrollEndInset, geometry.crossStartInset, placerState, geometry.orthogonalContentLength)
    }
}

/// A cell group (`cell_group_directory` and `cell_groups` in one row): its
/// place, exact bounds, reach and frames, under three checksums: the
/// directory's columns, the reach's, and the frames' bytes.
package struct GroupRow: ChecksummedRow, KeyedRow {
    package var layoutID: Int64
    package var slot: Int
    package var firstItem: Int
    package var id: Int64
    package var bounds: QueryBounds
    package var framesChecksum: Int64
    package var checksum: Int64 = 0
    package var reach: GroupReach
    package var reachChecksum: Int64 = 0
    package var frames: [UInt8]

    package var key: Int { firstItem }

    /// The directory's columns.
    package var columnsChecksum: Int64 {
        checksum(of: layoutID, slot, firstItem, id, bounds.minCross, bounds.maxCross, bounds.minScroll, bounds.maxScroll)
    }

    /// The reach's columns.
    package var reachColumnsChecksum: Int64 {
        checksum(of: layoutID, slot, firstItem, reach.start, reach.end, reach.slack)
    }

    package var reachIsIntact: Bool { reachChecksum == reachColumnsChecksum }
    package var framesAreIntact: Bool { Checksum.of(frames) == framesChecksum }

    /// Stores all three checksums, as a write does.
    package mutating func resumAll() {
        resum()
        reachChecksum = reachColumnsChecksum
        framesChecksum = Checksum.of(frames)
    }
}

/// A column's value as the other backends' checksums hash it: integers,
/// reals, texts and blobs tagged with their type, NULL for nil.
protocol ChecksumColumn {
    func add(to record: inout ChecksumRecord)
}

extension Int64: ChecksumColumn {
    func add(to record: inout ChecksumRecord) { record.add(self) }
}

extension Int: ChecksumColumn {
    func add(to record: inout ChecksumRecord) { record.add(Int64(self)) }
}

/// Stored as SQLite stores a boolean: the integer 0 or 1.
extension Bool: ChecksumColumn {
    func add(to record: inout ChecksumRecord) { record.add(Int64(self ? 1 : 0)) }
}

extension Double: ChecksumColumn {
    func add(to record: inout ChecksumRecord) { record.add(self) }
}

extension String: ChecksumColumn {
    func add(to record: inout ChecksumRecord) {
        var text = self
        text.withUTF8 { record.add(text: UnsafeRawBufferPointer($0)) }
    }
}

/// A blob.
extension [UInt8]: ChecksumColumn {
    func add(to record: inout ChecksumRecord) {
        withUnsafeBytes { record.add(blob: $0) }
    }
}

extension Optional: ChecksumColumn where Wrapped: ChecksumColumn {
    func add(to record: inout ChecksumRecord) {
        if let self { self.add(to: &record) } else { record.addNull() }
    }
}

extension ChecksummedRow {
    /// The ``ChecksumRecord`` checksum of `columns`, in order.
    func checksum(of columns: any ChecksumColumn...) -> Int64 {
        var record = ChecksumRecord()
        for column in columns { column.add(to: &record) }
        return record.checksum
    }
}
