import Testing
import TesseraLayout
@testable import TesseraStore
import TesseraStoreTesting
import TesseraTestSupport

/// The row port as the in-memory backend keeps it: every scan equals a
/// filter of all rows, keys compare as SQLite compares them, and writes keep
/// the unique keys naming their rows.
@Suite("row port: scans, keys and writes of the in-memory rows")
struct RowPortTests {
    /// A table keyed as cell groups are: (a, b, c) and a unique number.
    static let table = RowTable("t", ["a", "b", "c", "n", "v"], primaryKey: ["a", "b", "c"], uniqueKeys: [["n"]], counted: "n")

    static func value(_ random: inout SeededRandom, _ limit: Int) -> ColumnValue {
        .integer(Int64(random.next() % UInt64(limit)))
    }

    /// Every row of `range` as a filter of all rows in index order finds them.
    static func bruteForce(_ rows: [Row], _ range: RowRange) -> [Row] {
        let sorted = rows.sorted { table.key(of: $0, index: range.index).lexicographicallyPrecedes(table.key(of: $1, index: range.index)) }
        let found = sorted.filter { range.contains(table.key(of: $0, index: range.index)) }
        return Array((range.descending ? found.reversed() : found).prefix(range.limit))
    }

    @Test("1,000 random scans equal a filter of all rows, after random inserts, updates and deletes", arguments: [1, 2, 3] as [UInt64])
    func scans(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        var data = InMemoryTables()[Self.table]
        var rows: [[ColumnValue]: Row] = [:]
        for step in 0..<3_000 {
            let key = [Self.value(&random, 4), Self.value(&random, 6), Self.value(&random, 30)]
            switch random.next() % 5 {
            case 0 where rows[key] != nil:
                var row = try #require(rows[key])
                row[4] = .text("changed \(step)")
                #expect(try data.update(row))
                rows[key] = row
            case 1:
                let range = RowRange(key.prefix(2).map { $0 })
                let expected = Self.bruteForce(Array(rows.values), range)
                #expect(data.delete(range) == expected.count)
                for row in expected { rows[Self.table.key(of: row)] = nil }
            default:
                if let existing = rows[key] {
                    #expect(throws: StoreError.self) { try data.insert(existing) }
                    continue
                }
                let row = key + [.integer(data.nextNumber()), .text("row \(step)")]
                try data.insert(row)
                rows[key] = row
            }
        }
        #expect(data.count == rows.count)
        for _ in 0..<1_000 {
            let index = Int(random.next() % 2)
            let width = index == 0 ? Int(random.next() % 3) : 0
            let prefix = (0..<width).map { Self.value(&random, $0 == 0 ? 4 : 6) }
            func bound() -> RowRange.Bound? {
                random.next() % 3 == 0 ? nil : .init(Self.value(&random, index == 0 ? 30 : 600), inclusive: random.next() % 2 == 0)
            }
            let range = RowRange(
                index: index, prefix, lower: bound(), upper: bound(), descending: random.next() % 2 == 0,
                limit: random.next() % 4 == 0 ? Int(random.next() % 5) : .max
            )
            var scanned: [Row] = []
            try data.scan(range) { scanned.append($0); return true }
            #expect(scanned == Self.bruteForce(Array(rows.values), range), "\(range)")
            // The same prefix among a few values of the next column (repeats too): each value's rows, in the order of the values.
            let next = (0..<Int(random.next() % 4)).map { _ in Self.value(&random, index == 0 ? [4, 6, 30][width] : 600) }
            let among = RowRange(index: index, prefix, descending: random.next() % 2 == 0, among: next)
            scanned = []
            try data.scan(among) { scanned.append($0); return true }
            #expect(scanned == among.parts.flatMap { Self.bruteForce(Array(rows.values), $0) }, "\(among)")
            #expect(among.parts.count == next.count)
        }
    }

    @Test("names that differ only in their bytes are different keys, ordered by their UTF-8 bytes")
    func byteKeys() throws {
        var specs = InMemoryTables()[.specs]
        // "é" composed (U+00E9) and decomposed (e U+0301): equal as Swift strings, not as stored names.
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(composed == decomposed)
        #expect(ColumnValue.text(composed) != ColumnValue.text(decomposed))
        for (id, name) in [(1, composed), (2, decomposed)] as [(Int64, String)] {
            var row = SpecRow(id: id, name: name, body: "{}", contentHash: "h", axis: "vertical", sectionCount: 0, updatedAt: 0)
            row.resum()
            try specs.insert(row.row)
        }
        for (id, name) in [(1, composed), (2, decomposed)] as [(Int64, String)] {
            var found: [Int64] = []
            try specs.scan(.key(.text(name), index: 1)) { found.append($0[0].integer ?? 0); return true }
            #expect(found == [id])
        }
        var order: [String] = []
        try specs.scan(RowRange(index: 1)) { order.append($0[1].text ?? ""); return true }
        #expect(order.map { Array($0.utf8) } == [Array(decomposed.utf8), Array(composed.utf8)])
    }

    @Test("a sealed row verifies; a changed column or checksum does not, and names which checksum broke")
    func checksums() throws {
        var group = GroupRow(
            layoutID: 1, slot: 0, firstItem: 64, id: 9, bounds: QueryBounds(minCross: 0, maxCross: 1, minScroll: 0, maxScroll: 1), reach: .init(start: 0, end: 1, slack: 0),
            frames: [1, 2, 3]
        )
        #expect(!group.isIntact)
        group.resum()
        #expect(group.isIntact && group.brokenChecksums.isEmpty)
        var damaged = group
        damaged.frames = [9, 2, 3]
        #expect(damaged.brokenChecksums == ["frames_checksum"])
        damaged = group
        damaged.reach?.slack = 1
        #expect(damaged.brokenChecksums == ["reach_checksum"])
        damaged = group
        damaged.id = 10
        #expect(damaged.brokenChecksums == ["checksum"])
        #expect(try GroupRow(group.row).row == group.row)
    }

    @Test("each table's number is its place among all tables, which a backend keys its statements by")
    func tableNumbers() {
        #expect(RowTable.all.map(\.number) == Array(RowTable.all.indices))
        #expect(Set(RowTable.all.map(\.name)).count == RowTable.all.count)
    }
}

extension TableRow {
    /// The checksums that do not hold, by their column's name.
    fileprivate var brokenChecksums: [String] {
        let row = row
        return Self.table.checksums.filter { !$0.holds(in: row) }.map { Self.table.columns[$0.column] }
    }
}
