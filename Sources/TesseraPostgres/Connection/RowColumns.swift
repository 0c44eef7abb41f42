import NIOCore
import PostgresNIO
import TesseraStore

/// A row's columns by position, decoded from the binary format; a value of
/// an unexpected type throws `damaged` (the schema is ours: it means the
/// database was changed behind the store's back).
struct RowColumns {
    private let row: PostgresRandomAccessRow
    private let location: String

    init(_ row: PostgresRow, location: String) {
        self.row = row.makeRandomAccess()
        self.location = location
    }

    private func decode<T: PostgresDecodable>(_ index: Int, as type: T.Type) throws -> T {
        // Every Bind asks for binary results; a prepared statement's cells
        // still say text (postgres-nio keeps the format its Describe gave).
        var cell = row[index]
        cell.format = .binary
        do {
            return try cell.decode(T.self, context: .default)
        } catch {
            throw StoreError.damaged(store: location, "column \(row[index].columnName) holds \(row[index].bytes == nil ? "NULL" : "a value of another type") where the store expects \(T.self)")
        }
    }

    func isNull(_ index: Int) -> Bool { row[index].bytes == nil }
    func int64(_ index: Int) throws -> Int64 { try decode(index, as: Int64.self) }
    func int(_ index: Int) throws -> Int { try decode(index, as: Int.self) }
    func double(_ index: Int) throws -> Double { try decode(index, as: Double.self) }
    func bool(_ index: Int) throws -> Bool { try decode(index, as: Bool.self) }
    func text(_ index: Int) throws -> String { try decode(index, as: String.self) }
    func optionalDouble(_ index: Int) throws -> Double? { isNull(index) ? nil : try double(index) }
    func optionalInt64(_ index: Int) throws -> Int64? { isNull(index) ? nil : try int64(index) }
    func optionalText(_ index: Int) throws -> String? { isNull(index) ? nil : try text(index) }
    /// A bytea column's bytes, nil for NULL.
    func bytes(_ index: Int) -> ByteBuffer? { row[index].bytes }
    func byteArray(_ index: Int) -> [UInt8]? { row[index].bytes.map { Array($0.readableBytesView) } }

    /// Throws `damaged` unless column `index` (a checksum test) is true.
    func verify(_ index: Int, _ what: @autoclosure () throws -> String) throws {
        guard try !isNull(index) && bool(index) else {
            throw StoreError.damaged(store: location, "\(try what()) does not match its checksum")
        }
    }
}
