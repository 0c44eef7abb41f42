import PostgresNIO
import TesseraStore

/// Brings a store's schema to the version of this build
/// (``PostgresMigrations``), in one transaction under an advisory lock, so
/// that servers starting together migrate once. It refuses a schema newer
/// than this build and a PostgreSQL schema that holds other tables.
enum PostgresMigrator {
    /// The table that records the versions applied, in the store's schema.
    static let versionsTable = "tessera_migrations"

    /// Migrates the store of `url` (creating it when missing) through `session`.
    static func migrate(_ session: PostgresSession, url: PostgresURL) async throws {
        // A store at this version is left alone, without a write: a
        // hot-standby replica opens it too (its writes then fail, readOnly).
        let found = try? await session.answering { try existingVersion($0, url: url, creating: false) }
        if found == PostgresMigrations.all.count { return }
        try await session.inTransaction {
            let current = try await session.answering { session in
                // One lock for the whole database: stores in other schemas share the extension it creates.
                try session.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", .of("tessera.migrate"))
                try session.query("CREATE SCHEMA IF NOT EXISTS \(url.schema)")
                return try existingVersion(session, url: url, creating: true)
            }
            for migration in PostgresMigrations.all where migration.version > current {
                try await session.execute(script: migration.sql)
                try await session.answering { session in
                    _ = try session.query("INSERT INTO \(versionsTable) (version, name) VALUES ($1, $2)", .of(migration.version, migration.name))
                }
            }
        }
    }

    /// Fails unless the store of `url` exists at this build's version; writes nothing.
    static func requireCurrent(_ session: PostgresSession, url: PostgresURL) async throws {
        let current = try await session.answering { try existingVersion($0, url: url, creating: false) }
        if current < PostgresMigrations.all.count {
            throw StoreError(
                .readOnly,
                "the store \(url.description.quotedForMessage) has schema version \(current) and this build needs \(PostgresMigrations.all.count); open it once for writing to migrate it",
                store: url.description
            )
        }
    }

    /// The version applied to the store's schema (0 for none); throws
    /// `schemaTooNew` past this build's, `notAStore` for a schema with tables
    /// but no versions, `notFound` for a missing store when not `creating`.
    private static func existingVersion(_ session: PostgresSession, url: PostgresURL, creating: Bool) throws -> Int {
        let location = url.description
        let tables = try session.rows("SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename", .of(url.schema))
            .map { try $0.text(0) }
        if !tables.contains(versionsTable) {
            if !tables.isEmpty {
                throw StoreError(
                    .notAStore,
                    "the PostgreSQL schema \(url.schema) of \(location.quotedForMessage) holds tables that are not a Tessera store (\(tables.prefix(3).joined(separator: ", ")))",
                    store: location
                )
            }
            guard creating else { throw StoreError(.notFound, "no store at \(location.quotedForMessage)", store: location) }
            try session.query("""
                CREATE TABLE \(versionsTable) (
                    version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
                """)
            return 0
        }
        let version = Int(try session.scalarInt64("SELECT coalesce(max(version), 0) FROM \(versionsTable)") ?? 0)
        if version > PostgresMigrations.all.count {
            throw StoreError(
                .schemaTooNew,
                "the store \(location.quotedForMessage) has schema version \(version); this build knows up to \(PostgresMigrations.all.count): use a newer Tessera",
                store: location
            )
        }
        return version
    }
}
