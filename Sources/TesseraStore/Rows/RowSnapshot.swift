import TesseraLayout

/// The store's reads, written once over a backend's rows: each decodes the
/// rows it needs and verifies their checksums before it trusts a value.
package class RowSnapshot {
    package let rows: any RowReader
    package let location: String

    package init(_ rows: any RowReader, location: String) {
        self.rows = rows
        self.location = location
    }

    // MARK: Rows

    /// Calls `body` with each row of `range`, decoded, until it returns false.
    func each<T: TableRow>(_: T.Type, _ range: RowRange, _ body: (T) throws -> Bool) throws {
        try each(T.table, range) { try body(T($0)) }
    }

    /// Calls `body` with each row of `table` in `range` until it returns false; a value of the wrong type is damage.
    func each(_ table: RowTable, _ range: RowRange, _ body: (any ScannedRow) throws -> Bool) throws {
        try rows.scan(table, range) { row in
            do {
                return try body(row)
            } catch let error as RowDecodingError {
                throw StoreError.damaged(store: location, "a row of \(table.name) holds a value of the wrong type in \(error.column)")
            }
        }
    }

    package func all<T: TableRow>(_ type: T.Type, _ range: RowRange) throws -> [T] {
        var found: [T] = []
        try each(type, range) { found.append($0); return true }
        return found
    }

    package func first<T: TableRow>(_ type: T.Type, _ range: RowRange) throws -> T? {
        var found: T?
        var first = range
        first.limit = 1
        try each(type, first) { found = $0; return false }
        return found
    }

    package func verify(_ intact: Bool, _ what: @autoclosure () -> String) throws {
        guard intact else { throw StoreError.damaged(store: location, "\(what()) does not match its checksum") }
    }

    // MARK: Specs

    /// `spec`, once its checksum holds.
    package func verified(_ spec: SpecRow) throws -> SpecRow {
        try verify(spec.isIntact, "the row of the spec \(spec.name.quotedForMessage)")
        return spec
    }

    /// The row of the spec named `name`, verified.
    package func spec(name: String) throws -> SpecRow? {
        try first(SpecRow.self, .key(.text(name), index: 1)).map(verified)
    }

    package static func summary(of spec: SpecRow) -> StoredSpec {
        StoredSpec(
            name: spec.name, axis: Axis(rawValue: spec.axis) ?? .vertical, sectionCount: spec.sectionCount,
            contentHash: spec.contentHash, updatedAt: spec.updatedAt
        )
    }

    package func nameConflicts() throws -> [String] {
        var names: [String] = []
        try rows.scan(.specNameConflicts, .all) { row in
            if let name = row[0].text { names.append(name) }
            return true
        }
        return names
    }

    /// At most `limit` stored specs named after `after` (from the first
    /// when nil), by name: the byte order of their UTF-8, as indexes give it.
    package func specSummaries(after: String? = nil, limit: Int = .max) throws -> [StoredSpec] {
        let range = RowRange(index: 1, lower: after.map { .init(.text($0), inclusive: false) }, limit: limit)
        return try all(SpecRow.self, range).map { try Self.summary(of: verified($0)) }
    }

    package func specSummary(name: String) throws -> StoredSpec? {
        try spec(name: name).map(Self.summary(of:))
    }

    /// The stored sections of a spec (section `index` alone, when given), verified.
    package func sections(specID: Int64, index: Int? = nil) throws -> [SpecSectionRow] {
        let range: RowRange = index.map { .key(.integer(specID), .init($0)) } ?? .key(.integer(specID))
        return try all(SpecSectionRow.self, range).map { row in
            try verify(row.isIntact, "the stored section \(row.section) of spec \(specID)")
            return row
        }
    }

    package func specHashPrefix(specID: Int64) throws -> SpecHashPrefix? {
        guard let row = try first(SpecHashPrefixRow.self, .key(.integer(specID))) else { return nil }
        try verify(row.isIntact, "the stored hash prefix of spec \(specID)")
        return row.prefix
    }

    private func verified(_ run: ItemRunRow) throws -> ItemRun {
        try verify(run.isIntact, "the items appended to section \(run.run.section) of spec \(run.specID)")
        return run.run
    }

    package func itemRuns(specID: Int64, section: Int?) throws -> [ItemRun] {
        let range: RowRange = section.map { .key(.integer(specID), .init($0)) } ?? .key(.integer(specID))
        return try all(ItemRunRow.self, range).map(verified)
    }

    package func lastItemRun(specID: Int64, section: Int) throws -> ItemRun? {
        try first(ItemRunRow.self, RowRange([.integer(specID), .init(section)], descending: true)).map(verified)
    }
}
