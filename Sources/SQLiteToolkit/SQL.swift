/// A fixed SQL statement with an identity: a connection caches its compiled
/// form by that identity, so a hot query costs no hashing of its text.
///
/// Declare each one once, as a `static let`, and pass it to
/// `Connection.cachedStatement(_:)`.
package final class SQL: Sendable {
    package let text: String

    package init(_ text: String) {
        self.text = text
    }
}

extension Connection {
    /// The compiled statement for `sql`, handed out reset with its bindings
    /// cleared (see `cachedStatement(_:)` for text keys), or left as they
    /// were when `bindsAll`: a caller that binds every parameter each time.
    package func cachedStatement(_ sql: SQL, bindsAll: Bool = false) throws -> Statement {
        let key = ObjectIdentifier(sql)
        if let statement = identityCache[key] {
            statement.reset()
            if !bindsAll { statement.clearBindings() }
            return statement
        }
        let statement = try cachedStatement(sql.text)
        identityCache[key] = statement
        return statement
    }
}
