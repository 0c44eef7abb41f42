import TesseraLayout

/// A backend's rows in one snapshot, fetched by key or by a range of an index (``RowWriter`` changes them in a
/// transaction). Records, checksums and names are the store's: the backend knows none of them.
package protocol RowReader: AnyObject {
    /// Calls `body` with each row of `table` in `range`, in the order of the
    /// range's index, until `body` returns false.
    func scan(_ table: RowTable, _ range: RowRange, _ body: (any ScannedRow) throws -> Bool) throws

    /// The lowest and highest first item of the groups of a layout's slot
    /// whose bounds may meet `bounds`, as the backend's spatial index has
    /// them: a hint that the store checks against verified rows.
    func indexedGroupRange(layoutID: Int64, slot: Int, bounds: QueryBounds) throws -> ClosedRange<Int>?

    /// The tag under which what this snapshot resolves may be kept, and
    /// whether it may reuse what others kept under it; nil to keep nothing.
    var resolutionScope: ResolutionScope? { get throws }
}

/// A write transaction's rows. Changes are seen by the transaction's own
/// scans at once, and by others when the transaction commits.
package protocol RowWriter: RowReader {
    /// A number for `row`'s counted column that no row of the table ever had (readers cache layouts by id); `row`'s
    /// other values may pick its range (SQLite keeps large frame blobs apart). Nil when the backend numbers rows on
    /// insert, keeping a replaced row's number: the counted column is then NULL, and the backend seals what covers it.
    func nextNumber(_ table: RowTable, for row: Row) throws -> Int64?

    /// Inserts `row`. A row with its primary key must not exist, unless
    /// `replacing` (then `row` takes its place; only for tables whose rows
    /// no other table's rows belong to).
    func insert(_ table: RowTable, _ row: Row, replacing: Bool) throws

    /// Replaces the values in `columns` (nil: every column) of the row whose
    /// primary key `row` has, if there is one, with those of `row`.
    func update(_ table: RowTable, _ row: Row, columns: [Int]?) throws

    /// Deletes the rows of `table` in `range`.
    func delete(_ table: RowTable, _ range: RowRange) throws

    /// Runs `body`, a step of the write, until every row it reads is at hand: a backend behind a network reruns it after
    /// fetching what a run lacked (no thread waits) and sends each of its writes once; one in the process runs it once.
    func answering<T>(_ body: () throws -> T) async throws -> T

    /// Runs `body`; when it throws, undoes the changes it made and rethrows.
    func savepoint<T>(_ body: () async throws -> T) async throws -> T
}
