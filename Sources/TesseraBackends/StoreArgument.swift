/// What `--db` takes, in the words of every command's help that opens a
/// store (`tessera`, `tessera-server`, `tessera-bench`).
package enum StoreArgument {
    #if PostgreSQL
    /// A store file's path or a PostgreSQL URL: this build has both backends.
    package static let kinds = "a store file's path, or a postgres://user@host[:port]/dbname URL"
    #else
    /// A store file's path: URLs need the PostgreSQL backend.
    package static let kinds = "a store file's path (a postgres:// URL needs a build with the trait PostgreSQL)"
    #endif
}
