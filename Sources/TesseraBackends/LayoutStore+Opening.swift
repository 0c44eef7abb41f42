import TesseraLayout
import TesseraSQLite
import TesseraStore
#if PostgreSQL
import TesseraPostgres
#endif

extension LayoutStore {
    /// Fails unless `db` names an existing store, without creating or
    /// changing anything: `notFound` for a missing file or schema,
    /// `notAStore` for something else, `unsupported` for a URL in a build
    /// without PostgreSQL.
    package static func requireExisting(db: String) async throws {
        switch try StoreLocation(parsing: db) {
        case .file(let path):
            try requireExistingStore(at: path)
        #if PostgreSQL
        case .postgres:
            try await requireExistingPostgresStore(url: db)
        #else
        case .postgres(let url):
            throw noPostgres(url)
        #endif
        }
    }

    #if !PostgreSQL
    /// The refusal of a PostgreSQL URL by a build without the PostgreSQL backend.
    private static func noPostgres(_ url: String) -> StoreError {
        let shown = url.withPasswordRedacted
        return StoreError(
            .unsupported,
            "\(shown.quotedForMessage) is a PostgreSQL store, and this build has no PostgreSQL backend: build with `swift build --traits PostgreSQL`",
            store: shown
        )
    }
    #endif

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
        loadsDirectoriesInline: Bool = false,
        executor: (any BlockingExecutor)? = nil
    ) async throws -> LayoutStore {
        if requireExisting { try await self.requireExisting(db: db) }
        switch try StoreLocation(parsing: db) {
        case .file(let path):
            return try LayoutStore(
                path: path, registry: registry, readOnly: readOnly, loadsDirectoriesInline: loadsDirectoriesInline, executor: executor
            )
        #if PostgreSQL
        case .postgres:
            return try await LayoutStore(
                url: db, registry: registry, readOnly: readOnly, loadsDirectoriesInline: loadsDirectoriesInline, executor: executor
            )
        #else
        case .postgres(let url):
            throw noPostgres(url)
        #endif
        }
    }
}
