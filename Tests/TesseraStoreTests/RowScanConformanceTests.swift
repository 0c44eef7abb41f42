import Testing
import TesseraLayout
@testable import TesseraStore
import TesseraTestSupport

/// The port of rows as every backend implements it: a scan of any range of
/// any index of the store's tables equals a filter of the table's rows
/// (SQLite's SQL, PostgreSQL's, and the in-memory indexes, on the rows of a
/// real store).
@Suite("row port: each backend's scans of the store's tables equal a filter of their rows")
struct RowScanConformanceTests {
    /// A row as the backend hands it, copied.
    static func copy(_ row: any ScannedRow, _ table: RowTable) -> Row {
        table.columns.indices.map { row[$0] }
    }

    static func scan(_ snapshot: RowSnapshot, _ table: RowTable, _ range: RowRange) throws -> [Row] {
        var rows: [Row] = []
        try snapshot.rows.scan(table, range) { rows.append(copy($0, table)); return true }
        return rows
    }

    /// The rows of `range` by the definition: filtered, in index order.
    static func filtered(_ rows: [Row], _ table: RowTable, _ range: RowRange) -> [Row] {
        guard range.among == nil else { return range.parts.flatMap { filtered(rows, table, $0) } }
        let sorted = rows.sorted { table.key(of: $0, index: range.index).lexicographicallyPrecedes(table.key(of: $1, index: range.index)) }
        let found = sorted.filter { range.contains(table.key(of: $0, index: range.index)) }
        return Array((range.descending ? found.reversed() : found).prefix(range.limit))
    }

    /// A random range of an index of `table`, its values taken from `rows`
    /// (so that most ranges find some), or now and then from none.
    static func range(_ table: RowTable, _ rows: [Row], _ random: inout SeededRandom) -> RowRange {
        let index = Int(random.next() % UInt64(table.uniqueKeys.count + 1))
        let key = table.keyColumns(index)
        let width = Int(random.next() % UInt64(key.count))
        func keyOf() -> [ColumnValue] { table.key(of: rows[Int(random.next() % UInt64(rows.count))], index: index) }
        let prefix = Array(keyOf().prefix(width))
        // Now and then the columns before the last alone (a cell group's directory without its frames).
        let columns = random.next() % 4 == 0 ? Array(0..<(table.columns.count - 1)) : nil
        if random.next() % 4 == 0 {
            var among = (0..<Int(random.next() % 4)).map { _ in keyOf()[width] }
            // Now and then consecutive integers from a stored one, some past the last (a backend may scan them as one range).
            if random.next() % 2 == 0, case .integer(let first) = keyOf()[width] {
                among = (0..<Int64(2 + random.next() % 4)).map { .integer(first + $0) }
            }
            return RowRange(index: index, prefix, descending: random.next() % 2 == 0, columns: columns, among: among)
        }
        func bound() -> RowRange.Bound? {
            random.next() % 3 == 0 ? nil : .init(keyOf()[width], inclusive: random.next() % 2 == 0)
        }
        return RowRange(
            index: index, prefix, lower: bound(), upper: bound(), descending: random.next() % 2 == 0,
            limit: random.next() % 4 == 0 ? Int(random.next() % 5) : .max, columns: columns
        )
    }

    @Test("300 random ranges of each table: prefixes, bounds, order, limits and keys among values", arguments: TestBackend.all)
    func scans(backend: TestBackend) async throws {
        let scratch = try await TemporaryStore(backend)
        let store = scratch.store
        for (number, name) in ["b", "a", "café", "z"].enumerated() {
            let spec = try Spec(jsonText: """
                {"format": 1, "sections": [
                  {"layout": {"kind": "grid", "fraction": \(number + 2)}, "items": {"count": \(300 + 100 * number), "cycle": [{"aspectRatio": 1}]}},
                  {"header": {"size": 30}, "layout": {"kind": "grid", "fraction": 3}, "items": {"count": 200, "cycle": [{"aspectRatio": 0.5}]}}]}
                """)
            try await store.save(spec, as: name, crossExtents: [320, 390])
        }
        // Item runs and a second revision's rows.
        _ = try await store.append(name: "a", section: 1, items: (0..<300).map { Item(aspectRatio: [2, 0.5, 1][$0 % 3]) })
        // Each scan a read of its own (nothing writes meanwhile: every read
        // sees the same rows), as an async read of PostgreSQL takes a
        // bounded number of statements.
        func scan(_ table: RowTable, _ range: RowRange) async throws -> [Row] {
            try await store.readAsync { snapshot in try Self.scan(snapshot, table, range) }
        }
        var random = SeededRandom(seed: 46)
        for table in RowTable.all {
            let rows = try await scan(table, .all)
            guard !rows.isEmpty else { continue }
            for _ in 0..<300 {
                let range = Self.range(table, rows, &random)
                // A backend may leave the columns not asked for NULL, or not.
                let asked = range.columns ?? Array(table.columns.indices)
                let scanned = try await scan(table, range).map { row in asked.map { row[$0] } }
                let expected = Self.filtered(rows, table, range).map { row in asked.map { row[$0] } }
                #expect(scanned == expected, "\(table.name) \(range)")
            }
        }
        // A layout by its spec's name and its extent, with the spec's content hash and axis; none at an extent
        // the spec has no layout at, or for a name no spec has. Then its spec's layouts (PostgreSQL brings them along).
        let layouts = try await scan(.layouts, .all)
        #expect(try await scan(.layoutsByName, RowRange([.text("nobody"), .real(320)])).isEmpty)
        for spec in try await scan(.specs, .all) {
            let name = try #require(spec[1].text)
            let extent = layouts.filter { $0[1] == spec[0] }.map { $0[2] }.randomElement(using: &random) ?? .real(0)
            let layout = try #require(layouts.first { $0[1] == spec[0] && $0[2] == extent })
            #expect(try await scan(.layoutsByName, RowRange([.text(name), extent], limit: 1)) == [layout + [spec[1], spec[3], spec[4]]])
            #expect(try await scan(.layoutsByName, RowRange([.text(name), .real(1)], limit: 1)).isEmpty)
            let descending = random.next() % 2 == 0
            let range = switch random.next() % 3 {
            case 0: RowRange(index: 1, [spec[0]], descending: descending, limit: Int(random.next() % 3))
            case 1: RowRange(index: 1, [spec[0], extent])
            default: RowRange(index: 1, [spec[0]], lower: .init(extent, inclusive: descending), descending: descending)
            }
            #expect(try await scan(.layouts, range) == Self.filtered(layouts, .layouts, range), "\(name) \(range)")
        }
    }
}
