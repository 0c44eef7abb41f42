import TesseraStoreFormat
/// One stored value, typed as SQLite types it.
package enum ColumnValue: Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// A row: its table's columns, in the table's order.
package typealias Row = [ColumnValue]

/// A row as a scan hands it to its body: read where the backend holds it,
/// and only during the call (a body copies the values it keeps). It has
/// every column of its table (those a scan did not read are NULL).
package protocol ScannedRow {
    subscript(_ column: Int) -> ColumnValue { get }
    /// Adds the values of `columns` to a checksum record, without copying a text or blob.
    func add(_ columns: [Int], to record: inout ChecksumRecord)
    /// A blob's bytes in place (a text's as its UTF-8); nil for any other value.
    func withBytes<R>(_ column: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R?
}

extension Array: ScannedRow where Element == ColumnValue {
    package func add(_ columns: [Int], to record: inout ChecksumRecord) {
        for column in columns { self[column].add(to: &record) }
    }

    package func withBytes<R>(_ column: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
        switch self[column] {
        case .blob(let bytes): try bytes.withUnsafeBytes(body)
        case .text(var text): try text.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
        default: nil
        }
    }
}

// Values compare as SQLite's BINARY collation does: NULL, then numbers,
// then texts by their UTF-8 bytes, then blobs. Swift's own String equality
// would make canonically equivalent names one key.
extension ColumnValue: Comparable, Hashable {
    private var rank: Int {
        switch self {
        case .null: 0
        case .integer, .real: 1
        case .text: 2
        case .blob: 3
        }
    }

    package static func < (left: ColumnValue, right: ColumnValue) -> Bool {
        switch (left, right) {
        case let (.integer(a), .integer(b)): a < b
        case let (.real(a), .real(b)): a < b
        case let (.integer(a), .real(b)): Double(a) < b
        case let (.real(a), .integer(b)): a < Double(b)
        case let (.text(a), .text(b)): a.utf8.lexicographicallyPrecedes(b.utf8)
        case let (.blob(a), .blob(b)): a.lexicographicallyPrecedes(b)
        default: left.rank < right.rank
        }
    }

    package static func == (left: ColumnValue, right: ColumnValue) -> Bool {
        switch (left, right) {
        case (.null, .null): true
        case let (.integer(a), .integer(b)): a == b
        case let (.real(a), .real(b)): a == b
        case let (.integer(a), .real(b)), let (.real(b), .integer(a)): Double(a) == b
        case let (.text(a), .text(b)): a.utf8.elementsEqual(b.utf8)
        case let (.blob(a), .blob(b)): a == b
        default: false
        }
    }

    package func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .integer(let value): hasher.combine(Double(value))
        case .real(let value): hasher.combine(value)
        case .text(let value): for byte in value.utf8 { hasher.combine(byte) }
        case .blob(let value): hasher.combine(value)
        }
    }
}

extension ColumnValue {
    package var integer: Int64? {
        if case .integer(let value) = self { value } else { nil }
    }

    package var real: Double? {
        switch self {
        case .real(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }

    package var text: String? {
        if case .text(let value) = self { value } else { nil }
    }

    package var blob: [UInt8]? {
        if case .blob(let value) = self { value } else { nil }
    }

    package var isNull: Bool {
        if case .null = self { true } else { false }
    }

    /// Adds the value to a checksum record, tagged with its type.
    package func add(to record: inout ChecksumRecord) {
        switch self {
        case .null: record.addNull()
        case .integer(let value): record.add(value)
        case .real(let value): record.add(value)
        case .text(var value): value.withUTF8 { record.add(text: UnsafeRawBufferPointer($0)) }
        case .blob(let value): value.withUnsafeBytes { record.add(blob: $0) }
        }
    }
}

/// Which rows a scan or delete takes: those whose first index columns equal
/// `prefix` and whose next column lies between the bounds.
package struct RowRange: Sendable {
    /// 0 for the table's primary key, 1… for its unique keys in order.
    package var index: Int
    package var prefix: [ColumnValue]
    package var lower: Bound?
    package var upper: Bound?
    package var descending: Bool
    package var limit: Int
    /// The columns the caller needs (nil: all); a backend may leave the
    /// others NULL, and need not read a large value no one asked for.
    package var columns: [Int]?
    /// The values the index's column after `prefix` may take (nil: any),
    /// in the order the rows come in (each value's rows in the range's
    /// order): rows of several keys in one request, for a backend behind a network.
    package var among: [ColumnValue]?

    package struct Bound: Sendable {
        package var value: ColumnValue
        package var inclusive: Bool

        package init(_ value: ColumnValue, inclusive: Bool) {
            self.value = value
            self.inclusive = inclusive
        }
    }

    package init(
        index: Int = 0, _ prefix: [ColumnValue] = [], lower: Bound? = nil, upper: Bound? = nil, descending: Bool = false, limit: Int = .max,
        columns: [Int]? = nil, among: [ColumnValue]? = nil
    ) {
        precondition(among == nil || (lower == nil && upper == nil && limit == .max), "a range among values has no bounds or limit")
        self.among = among
        self.index = index
        self.prefix = prefix
        self.lower = lower
        self.upper = upper
        self.descending = descending
        self.limit = limit
        self.columns = columns
    }

    /// Every row of the table.
    package static let all = RowRange()

    /// The range as one range per value of ``among``, in order (itself when
    /// it has none): for a backend that looks each key up alone.
    package var parts: [RowRange] {
        guard let among else { return [self] }
        return among.map { value in
            var part = self
            part.among = nil
            part.prefix.append(value)
            return part
        }
    }

    /// Whether a row whose index columns are `key` lies in the range.
    package func contains(_ key: [ColumnValue]) -> Bool {
        guard key.count >= prefix.count, zip(prefix, key).allSatisfy(==) else { return false }
        guard key.count > prefix.count else { return lower == nil && upper == nil && among == nil }
        let next = key[prefix.count]
        if let among, !among.contains(next) { return false }
        if let lower, lower.inclusive ? next < lower.value : next <= lower.value { return false }
        if let upper, upper.inclusive ? upper.value < next : upper.value <= next { return false }
        return true
    }

    /// The rows of `rows` (rows of `table` in the order of the range's
    /// index) that the range takes, in its order: for a backend that
    /// answers a scan from rows it fetched ahead.
    package func taken(from rows: [Row], of table: RowTable) -> [Row] {
        guard among == nil else { return parts.flatMap { $0.taken(from: rows, of: table) } }
        let found = rows.filter { contains(table.key(of: $0, index: index)) }
        return Array((descending ? found.reversed() : found).prefix(limit))
    }

    /// The rows whose first index columns equal `key`.
    package static func key(_ key: ColumnValue..., index: Int = 0) -> RowRange {
        RowRange(index: index, key)
    }
}
