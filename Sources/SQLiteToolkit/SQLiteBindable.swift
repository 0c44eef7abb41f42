/// A Swift value that can be bound to a statement parameter: `Int`, `Int64`,
/// `Double`, `Bool` (as 0/1), `String` (UTF-8 text), `[UInt8]` and
/// `UnsafeRawBufferPointer` (blobs), and `Optional` of any of them (nil is NULL).
///
/// Only these are bound; the protocol exists so that
/// `Statement.bind(_:at:)` and `Statement.bind(_:...)` can take any of them,
/// mixed, without boxing.
package protocol SQLiteBindable {
    /// Binds `self` to parameter `index` (1-based) of `statement`.
    func bind(to statement: Statement, at index: Int) throws
}

extension Int: SQLiteBindable {
    package func bind(to statement: Statement, at index: Int) throws {
        try statement.bindInt64(Int64(self), at: index)
    }
}

extension Int64: SQLiteBindable {
    package func bind(to statement: Statement, at index: Int) throws {
        try statement.bindInt64(self, at: index)
    }
}

extension Bool: SQLiteBindable {
    package func bind(to statement: Statement, at index: Int) throws {
        try statement.bindInt64(self ? 1 : 0, at: index)
    }
}

extension Double: SQLiteBindable {
    package func bind(to statement: Statement, at index: Int) throws {
        try statement.bindDouble(self, at: index)
    }
}

extension String: SQLiteBindable {
    package func bind(to statement: Statement, at index: Int) throws {
        try statement.bindText(self, at: index)
    }
}

extension Array: SQLiteBindable where Element == UInt8 {
    /// Binds the bytes as a blob (SQLite copies them once; no Swift-side copy).
    package func bind(to statement: Statement, at index: Int) throws {
        try withUnsafeBytes { try statement.bindBlob($0, at: index) }
    }
}

extension UnsafeRawBufferPointer: SQLiteBindable {
    /// Binds the bytes as a blob (SQLite copies them before returning, so the
    /// buffer may go away right after). See `Statement.withBlobBoundWithoutCopy`.
    package func bind(to statement: Statement, at index: Int) throws {
        try statement.bindBlob(self, at: index)
    }
}

extension Optional: SQLiteBindable where Wrapped: SQLiteBindable {
    package func bind(to statement: Statement, at index: Int) throws {
        switch self {
        case .some(let value): try value.bind(to: statement, at: index)
        case .none: try statement.bindNull(at: index)
        }
    }
}
