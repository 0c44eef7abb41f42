/// What a backend that stores rows does: fetch them by key or by range of
/// an index, inside a snapshot, and change them inside a transaction. The
/// store, above it, encodes its records as rows, verifies their checksums
/// and resolves names; the backend knows none of that.
package protocol RowReader: AnyObject {
    /// Calls `body` with each row of `table` in `range`, in the order of the
    /// range's index, until `body` returns false.
    func scan(_ table: RowTable, _ range: RowRange, _ body: (Row) throws -> Bool) throws

    /// The tag under which what this snapshot resolves may be kept, and
    /// whether it may reuse what others kept under it; nil to keep nothing.
    var resolutionScope: ResolutionScope? { get throws }
}

/// A write transaction's rows. Changes are seen by the transaction's own
/// scans at once, and by others when the transaction commits.
package protocol RowWriter: RowReader {
    /// A number for the table's counted column that no row of it ever had
    /// (numbers are not reused: readers cache layouts by id).
    func nextNumber(_ table: RowTable) throws -> Int64

    /// Inserts `row`; a row with its primary key must not exist.
    func insert(_ table: RowTable, _ row: Row) throws

    /// Replaces the row whose primary key `row` has; false when there is none.
    @discardableResult
    func update(_ table: RowTable, _ row: Row) throws -> Bool

    /// Deletes the rows of `table` in `range` and returns how many.
    @discardableResult
    func delete(_ table: RowTable, _ range: RowRange) throws -> Int

    /// Runs `body`; when it throws, undoes the changes it made and rethrows.
    func savepoint<T>(_ body: () async throws -> T) async throws -> T
}
