import TesseraLayout
import TesseraStore

/// The rows of one committed state, for a read.
class InMemoryReader: RowReader {
    var tables: InMemoryTables
    let version: Int64

    init(_ committed: InMemoryDatabase.Committed) {
        tables = committed.tables
        version = committed.version
    }

    package func scan(_ table: RowTable, _ range: RowRange, _ body: (any ScannedRow) throws -> Bool) throws {
        guard table !== RowTable.layoutsByName else { return try scanLayoutsByName(range, body) }
        try tables[table].scan(range) { try body($0) }
    }

    /// ``RowTable/layoutsByName``: the spec of the name, then its layouts at the extent (at every extent without one).
    private func scanLayoutsByName(_ range: RowRange, _ body: (any ScannedRow) throws -> Bool) throws {
        precondition(
            range.index == 0 && range.lower == nil && range.upper == nil && range.among == nil && (1...2).contains(range.prefix.count),
            "layouts by name are read by name, and extent"
        )
        var left = range.limit
        try tables[.specs].scan(RowRange(index: 1, [range.prefix[0]])) { spec in
            try tables[.layouts].scan(RowRange(index: 1, [spec[0]] + range.prefix.dropFirst())) { layout in
                guard left > 0 else { return false }
                left -= 1
                return try body(layout + [spec[1], spec[3], spec[4]])
            }
            return false
        }
    }

    package var resolutionScope: ResolutionScope? { ResolutionScope(tag: InMemoryDatabase.tag(version)) }

    /// No spatial index: the slot's groups whose bounds meet `bounds`, by a scan of them all.
    package func indexedGroupRange(layoutID: Int64, slot: Int, bounds: QueryBounds) throws -> ClosedRange<Int>? {
        var found: ClosedRange<Int>?
        let range = RowRange([.integer(layoutID), .integer(Int64(slot))], columns: RowTable.directoryColumns)
        try scan(.cellGroups, range) { row in
            guard let group = try? GroupRow(row) else { return true }
            if group.bounds.mayIntersect(bounds) { found = (found?.lowerBound ?? group.firstItem)...group.firstItem }
            return true
        }
        return found
    }
}

/// A write's own copy of the rows, committed whole when the write ends.
final class InMemoryWriter: InMemoryReader, RowWriter {
    // What the write changes is not committed yet: nothing it resolves is kept.
    override package var resolutionScope: ResolutionScope? { nil }

    package func nextNumber(_ table: RowTable, for row: Row) throws -> Int64? {
        tables[table].nextNumber()
    }

    package func insert(_ table: RowTable, _ row: Row, replacing: Bool) throws {
        if replacing, try tables[table].update(row) { return }
        try tables[table].insert(row)
    }

    package func update(_ table: RowTable, _ row: Row, columns: [Int]?) throws {
        _ = try tables[table].update(row, columns: columns)
    }

    package func delete(_ table: RowTable, _ range: RowRange) throws {
        tables[table].delete(range)
    }

    package func answering<T>(_ body: () throws -> T) async throws -> T { try body() }

    package func savepoint<T>(_ body: () async throws -> T) async throws -> T {
        let saved = tables
        do {
            return try await body()
        } catch {
            tables = saved
            throw error
        }
    }
}
