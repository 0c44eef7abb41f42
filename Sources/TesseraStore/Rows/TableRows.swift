import TesseraLayout
import TesseraStoreFormat

/// A table's row as a typed value: decoded from the port's ``Row`` (its
/// checksums kept as stored, so a reader can verify them) and encoded back.
package protocol TableRow: Sendable {
    static var table: RowTable { get }
    init(_ decoder: inout RowDecoder) throws(RowDecodingError)
    var row: Row { get }
    /// Which checksums held in the stored row it was decoded from.
    var held: HeldChecksums { get set }
}

/// The checksums of a table that held in a row as stored, checked in place
/// when it was read (a checksum of one blob's bytes is checked on demand).
package struct HeldChecksums: Sendable {
    private var bits: UInt8 = 0

    package init() {}

    init(_ row: any ScannedRow, _ table: RowTable) {
        for (index, checksum) in table.checksums.enumerated() where !checksum.ofBytes && checksum.holds(in: row) {
            bits |= 1 << index
        }
    }

    func contains(_ index: Int) -> Bool { bits & (1 << index) != 0 }
}

/// A stored value of the wrong type for its column.
package struct RowDecodingError: Error {
    package var column: String
}

extension TableRow {
    /// The row `row` holds, with the checksums that held in it.
    package init(_ row: any ScannedRow) throws(RowDecodingError) {
        var decoder = RowDecoder(row, Self.table)
        try self.init(&decoder)
        held = decoder.held
    }

    /// Whether checksum `index` of the table held in the row as read.
    package func holds(_ index: Int) -> Bool {
        let checksum = Self.table.checksums[index]
        return checksum.ofBytes ? checksum.holds(in: row) : held.contains(index)
    }

    /// Whether every checksum of the row held as read.
    package var isIntact: Bool {
        Self.table.checksums.indices.allSatisfy(holds)
    }

    /// The row with the checksums of its columns, as a write stores it.
    package var sealed: Row {
        var row = row
        for checksum in Self.table.checksums { checksum.seal(&row) }
        return row
    }

    /// Stores the checksums of the row's columns, as a write does.
    package mutating func resum() {
        // Every table row decodes what it encodes.
        if let sealed = try? Self(sealed) { self = sealed }
    }
}

/// Reads a row's columns in order, by type.
package struct RowDecoder {
    let row: any ScannedRow
    let table: RowTable
    let held: HeldChecksums
    private let count: Int
    private var next = 0

    init(_ row: any ScannedRow, _ table: RowTable) {
        self.row = row
        self.table = table
        held = HeldChecksums(row, table)
        count = table.columns.count
    }

    /// The next column's value as `read` takes it; an error naming the
    /// column when `read` refuses it.
    private mutating func take<T>(_ read: (ColumnValue) -> T?) throws(RowDecodingError) -> T {
        guard next < count else { throw RowDecodingError(column: "column \(next)") }
        next += 1
        guard let value = read(row[next - 1]) else { throw RowDecodingError(column: "\(table.name).\(table.columns[next - 1])") }
        return value
    }

    /// The next column's value as `read` takes it, nil for NULL.
    private mutating func optional<T>(_ read: (ColumnValue) -> T?) throws(RowDecodingError) -> T? {
        try take { value -> T?? in value.isNull ? .some(nil) : read(value).map { .some($0) } }
    }

    /// A text reads as its bytes, as SQLite reads it (a blob changed in SQL may have become one).
    private static func bytes(_ value: ColumnValue) -> [UInt8]? { value.blob ?? value.text.map { Array($0.utf8) } }

    mutating func int64() throws(RowDecodingError) -> Int64 { try take { $0.integer } }
    mutating func int() throws(RowDecodingError) -> Int { try take { $0.integer.flatMap { Int(exactly: $0) } } }
    mutating func bool() throws(RowDecodingError) -> Bool { try int() != 0 }
    mutating func double() throws(RowDecodingError) -> Double { try take { $0.real } }
    mutating func text() throws(RowDecodingError) -> String { try take { $0.text } }
    mutating func blob() throws(RowDecodingError) -> [UInt8] { try take(Self.bytes) }
    mutating func optionalInt64() throws(RowDecodingError) -> Int64? { try optional { $0.integer } }
    mutating func optionalDouble() throws(RowDecodingError) -> Double? { try optional { $0.real } }
    mutating func optionalBlob() throws(RowDecodingError) -> [UInt8]? { try optional(Self.bytes) }
}

extension ColumnValue {
    package init(_ value: Int) { self = .integer(Int64(value)) }
    init(_ value: Bool) { self = .integer(value ? 1 : 0) }
    init(_ value: Double?) { self = value.map(ColumnValue.real) ?? .null }
    init(_ value: [UInt8]?) { self = value.map(ColumnValue.blob) ?? .null }
}

/// A spec's row (`specs`): everything but its sections' bodies.
package struct SpecRow: TableRow {
    package static var table: RowTable { .specs }
    package var id: Int64
    package var name: String
    /// The canonical JSON of everything but the sections.
    package var body: String
    package var contentHash: String
    package var axis: String
    package var sectionCount: Int
    package var checksum: Int64 = 0
    package var held = HeldChecksums()
    package var updatedAt: Double
}

extension SpecRow {
    package init(_ decoder: inout RowDecoder) throws(RowDecodingError) {
        id = try decoder.int64()
        name = try decoder.text()
        body = try decoder.text()
        contentHash = try decoder.text()
        axis = try decoder.text()
        sectionCount = try decoder.int()
        checksum = try decoder.int64()
        updatedAt = try decoder.double()
    }

    package var row: Row {
        [.integer(id), .text(name), .text(body), .text(contentHash), .text(axis), .init(sectionCount), .integer(checksum), .real(updatedAt)]
    }
}

/// The stored body of one section of a spec (`spec_sections`).
package struct SpecSectionRow: TableRow {
    package static var table: RowTable { .specSections }
    package var specID: Int64
    package var section: Int
    package var identity: String
    package var contentHash: String
    package var body: String
    package var checksum: Int64 = 0
    package var held = HeldChecksums()

    package var sectionIdentity: SectionIdentity { SectionIdentity(identity: identity, hash: contentHash) }
}

extension SpecSectionRow {
    package init(_ decoder: inout RowDecoder) throws(RowDecodingError) {
        specID = try decoder.int64()
        section = try decoder.int()
        identity = try decoder.text()
        contentHash = try decoder.text()
        body = try decoder.text()
        checksum = try decoder.int64()
    }

    package var row: Row {
        [.integer(specID), .init(section), .text(identity), .text(contentHash), .text(body), .integer(checksum)]
    }
}

/// Items appended to one section of a spec (`spec_item_runs`).
package struct ItemRunRow: TableRow {
    package static var table: RowTable { .itemRuns }
    package var specID: Int64
    package var run: ItemRun
    package var checksum: Int64 = 0
    package var held = HeldChecksums()
}

extension ItemRunRow {
    package init(_ decoder: inout RowDecoder) throws(RowDecodingError) {
        specID = try decoder.int64()
        run = try ItemRun(
            section: decoder.int(), firstItem: decoder.int(), itemCount: decoder.int(), items: decoder.text(), hashState: decoder.blob()
        )
        checksum = try decoder.int64()
    }

    package var row: Row {
        [.integer(specID), .init(run.section), .init(run.firstItem), .init(run.itemCount), .text(run.items), .blob(run.hashState), .integer(checksum)]
    }
}

/// What an append needs of the spec's hash without reading its items again
/// (`spec_hash_prefixes`).
package struct SpecHashPrefixRow: TableRow {
    package static var table: RowTable { .specHashPrefixes }
    package var specID: Int64
    package var prefix: SpecHashPrefix
    package var checksum: Int64 = 0
    package var held = HeldChecksums()
}

extension SpecHashPrefixRow {
    package init(_ decoder: inout RowDecoder) throws(RowDecodingError) {
        specID = try decoder.int64()
        prefix = try SpecHashPrefix(specHash: decoder.text(), sectionCount: decoder.int(), state: decoder.blob())
        checksum = try decoder.int64()
    }

    package var row: Row {
        [.integer(specID), .text(prefix.specHash), .init(prefix.sectionCount), .blob(prefix.state), .integer(checksum)]
    }
}

/// A layout's row (`layouts`): its spec, extent, engine version, totals
/// and freshness. Times are not covered by the checksum.
package struct LayoutRow: TableRow {
    package static var table: RowTable { .layouts }
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
    package var checksum: Int64 = 0
    package var held = HeldChecksums()
    package var computeSeconds: Double
    package var updatedAt: Double
    /// The directory summary, which carries its own checksum (not covered by the row's).
    package var directorySummary: [UInt8]?

    /// A new layout's row, ready and not yet numbered (the store numbers it
    /// as it inserts it), with the totals of a layout computed before or none.
    package init(
        specID: Int64, crossExtent: Double, engineVersion: Int, specHash: String, totals: LayoutTotals = .zero, computeSeconds: Double = 0,
        updatedAt: Double
    ) {
        (id, self.specID, self.crossExtent, self.engineVersion, self.specHash) = (0, specID, crossExtent, engineVersion, specHash)
        (self.totals, status, revision, self.computeSeconds, self.updatedAt) = (totals, "ready", 0, computeSeconds, updatedAt)
    }
}

extension LayoutRow {
    package init(_ decoder: inout RowDecoder) throws(RowDecodingError) {
        id = try decoder.int64()
        specID = try decoder.int64()
        crossExtent = try decoder.double()
        engineVersion = try decoder.int()
        specHash = try decoder.text()
        totals = try LayoutTotals(
            contentLength: decoder.double(), sectionCount: decoder.int(), cellCount: decoder.int(), elementCount: decoder.int(),
            overhang: decoder.double()
        )
        status = try decoder.text()
        revision = try decoder.int64()
        checksum = try decoder.int64()
        computeSeconds = try decoder.double()
        updatedAt = try decoder.double()
        directorySummary = try decoder.optionalBlob()
    }

    package var row: Row {
        [
            .integer(id), .integer(specID), .real(crossExtent), .init(engineVersion), .text(specHash), .real(totals.contentLength),
            .init(totals.sectionCount), .init(totals.cellCount), .init(totals.elementCount), .real(totals.overhang), .text(status),
            .integer(revision), .integer(checksum), .real(computeSeconds), .real(updatedAt), .init(directorySummary),
        ]
    }
}

/// A section row of a layout (`layout_sections`): its geometry, slot,
/// scroll-axis end and placer state.
package struct SectionRow: TableRow {
    package static var table: RowTable { .layoutSections }
    package var layoutID: Int64
    package var record: SectionRecord
    package var end: Double
    package var placerState: [UInt8]?
    package var checksum: Int64 = 0
    package var held = HeldChecksums()

    /// The section's index, its key within the layout.
    package var key: Int { record.geometry.index }
}

extension SectionRow {
    package init(_ decoder: inout RowDecoder) throws(RowDecodingError) {
        layoutID = try decoder.int64()
        let index = try decoder.int()
        let slot = try decoder.int()
        let start = try decoder.double()
        end = try decoder.double()
        let itemCount = try decoder.int()
        let itemsExtent = try decoder.double()
        let spanLow = try decoder.optionalDouble()
        let spanHigh = try decoder.optionalDouble()
        let headerSize = try decoder.optionalDouble()
        let headerPinned = try decoder.bool()
        let footerSize = try decoder.optionalDouble()
        let footerPinned = try decoder.bool()
        var geometry = try SectionGeometry(
            index: index, start: start,
            header: headerSize.map { Supplementary(size: $0, pinned: headerPinned) },
            footer: footerSize.map { Supplementary(size: $0, pinned: footerPinned) },
            background: decoder.bool(), scrollStartInset: decoder.double(), scrollEndInset: decoder.double(),
            crossStartInset: decoder.double(), itemCount: itemCount, itemsExtent: itemsExtent,
            cellSpan: spanLow.flatMap { low in spanHigh.flatMap { low <= $0 ? low...$0 : nil } }
        )
        placerState = try decoder.optionalBlob()
        geometry.orthogonalContentLength = try decoder.optionalDouble()
        record = SectionRecord(geometry: geometry, slot: slot)
        checksum = try decoder.int64()
    }

    package var row: Row {
        let geometry = record.geometry
        return [
            .integer(layoutID), .init(geometry.index), .init(record.slot), .real(geometry.start), .real(end), .init(geometry.itemCount),
            .real(geometry.itemsExtent), .init(geometry.cellSpan?.lowerBound), .init(geometry.cellSpan?.upperBound),
            .init(geometry.header?.size), .init(geometry.header?.pinned ?? false), .init(geometry.footer?.size),
            .init(geometry.footer?.pinned ?? false), .init(geometry.background), .real(geometry.scrollStartInset),
            .real(geometry.scrollEndInset), .real(geometry.crossStartInset), .init(placerState),
            .init(geometry.orthogonalContentLength), .integer(checksum),
        ]
    }
}

/// A cell group: its place, exact bounds, reach and frames, under three
/// checksums: the directory's columns, the reach's, and the frames' bytes.
package struct GroupRow: TableRow {
    package static var table: RowTable { .cellGroups }
    package var layoutID: Int64
    package var slot: Int
    package var firstItem: Int
    package var id: Int64
    package var bounds: QueryBounds
    package var checksum: Int64 = 0
    package var held = HeldChecksums()
    /// Nil in a row written before groups kept their reach.
    package var reach: GroupReach?
    package var reachChecksum: Int64?
    package var framesChecksum: Int64 = 0
    /// Nil when not read, or when the backend lost them.
    package var frames: [UInt8]?
}

extension GroupRow {
    package init(_ decoder: inout RowDecoder) throws(RowDecodingError) {
        layoutID = try decoder.int64()
        slot = try decoder.int()
        firstItem = try decoder.int()
        id = try decoder.int64()
        bounds = try QueryBounds(minCross: decoder.double(), maxCross: decoder.double(), minScroll: decoder.double(), maxScroll: decoder.double())
        checksum = try decoder.int64()
        let reachStart = try decoder.optionalDouble()
        let reachEnd = try decoder.optionalDouble()
        let reachSlack = try decoder.optionalDouble()
        reach = reachStart.flatMap { start in reachEnd.flatMap { end in reachSlack.map { GroupReach(start: start, end: end, slack: $0) } } }
        reachChecksum = try decoder.optionalInt64()
        framesChecksum = try decoder.int64()
        frames = try decoder.optionalBlob()
    }

    package var row: Row {
        [
            .integer(layoutID), .init(slot), .init(firstItem), .integer(id), .real(bounds.minCross), .real(bounds.maxCross),
            .real(bounds.minScroll), .real(bounds.maxScroll), .integer(checksum), .init(reach?.start), .init(reach?.end),
            .init(reach?.slack), reachChecksum.map(ColumnValue.integer) ?? .null, .integer(framesChecksum), .init(frames),
        ]
    }

    package var directoryIsIntact: Bool { holds(0) }
    package var reachIsIntact: Bool { holds(1) }
    /// False when the frames were not read or are lost.
    package var framesAreIntact: Bool { frames.map { Checksum.of($0) == framesChecksum } ?? false }
}
