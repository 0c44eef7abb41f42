import TesseraStore
#if PostgreSQL
import TesseraPostgres
#endif

/// Where a store is, as a user writes it for `--db`: a SQLite file's path,
/// or a PostgreSQL URL
/// `postgres://user[:password]@host[:port]/dbname[?schema=name&host=/socket/dir&freshness=notified]`
/// (`postgresql://` alike). Every tool reads `--db` the same way; in a
/// build with the trait PostgreSQL a URL is checked here, so that what is
/// wrong with it is said before anything connects.
package enum StoreLocation: Sendable, Equatable {
    case file(path: String)
    /// A PostgreSQL URL, as written.
    case postgres(url: String)

    /// Reads `text`: a URL when it starts with `postgres://` or
    /// `postgresql://` (in any case), a file path otherwise.
    ///
    /// - Throws: `invalidArgument` for a malformed URL (in a build with
    ///   the trait PostgreSQL; without it every URL is refused at open).
    package init(parsing text: String) throws {
        guard Self.isPostgresURL(text) else {
            self = .file(path: text)
            return
        }
        #if PostgreSQL
        _ = try PostgresURL(parsing: text)
        #endif
        self = .postgres(url: text)
    }

    /// Whether `text` names a PostgreSQL store rather than a file.
    package static func isPostgresURL(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }
}
