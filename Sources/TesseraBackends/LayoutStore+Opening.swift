import TesseraLayout
import TesseraSQLite
import TesseraStore
#if PostgreSQL
import TesseraPostgres
#endif

extension LayoutStore {
    /// Whether this build opens `postgres://` URLs (the package trait PostgreSQL).
    package static var opensPostgres: Bool {
        #if PostgreSQL
        true
        #else
        false
        #endif
    }

    /// Fails unless the PostgreSQL URL `db` names an existing store
    /// (`notFound` otherwise), or `unsupported` in a build without PostgreSQL.
    package static func requireExistingPostgresStore(db: String) throws {
        guard case .postgres(let url) = try StoreLocation(parsing: db) else { return }
        #if PostgreSQL
        try LayoutStore.requireExistingPostgresStore(url: db)
        #else
        throw noPostgres(url)
        #endif
    }

    private static func noPostgres(_ url: PostgresURL) -> StoreError {
        StoreError(
            .unsupported,
            "\(url.description.quotedForMessage) is a PostgreSQL store, and this build has no PostgreSQL backend: build with `swift build --traits PostgreSQL`",
            store: url.description
        )
    }

    /// Opens the store a user named with `--db`: a SQLite file's path, or a
    /// `postgres://` / `postgresql://` URL.
    ///
    /// - Parameter requireExisting: fail with `notFound` instead of creating
    ///   a store (for the tools that write to a store but never create one).
    package static func open(
        db: String,
        registry: LayoutRegistry = .standard,
        readOnly: Bool = false,
        requireExisting: Bool = false,
        loadsDirectoriesInline: Bool = false
    ) throws -> LayoutStore {
        switch try StoreLocation(parsing: db) {
        case .file(let path):
            if requireExisting { try requireExistingStore(at: path) }
            return try LayoutStore(path: path, registry: registry, readOnly: readOnly, loadsDirectoriesInline: loadsDirectoriesInline)
        case .postgres(let url):
            #if PostgreSQL
            if requireExisting { try LayoutStore.requireExistingPostgresStore(url: db) }
            return try LayoutStore(url: db, registry: registry, readOnly: readOnly, loadsDirectoriesInline: loadsDirectoriesInline)
            #else
            throw noPostgres(url)
            #endif
        }
    }
}
