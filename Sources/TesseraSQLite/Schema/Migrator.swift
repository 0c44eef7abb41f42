import SQLiteToolkit
import TesseraStore
import CSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Brings a database file to the current Tessera schema, and refuses files it must
/// not touch.
///
/// The schema version is `PRAGMA user_version`; a Tessera file is recognised by
/// `PRAGMA application_id` (`Migrator.applicationID`), set in the same transaction
/// as migration 1. Both live in the file header and follow transactions, so a
/// failed migration leaves both at the previous version.
package struct Migrator: Sendable {
    /// Tessera's `application_id`: "TSSR" in ASCII.
    package static let applicationID: Int32 = 0x5453_5352

    /// What `inspect(_:)` found in a file.
    package enum DatabaseState: Sendable, Equatable {
        /// A new or empty file: no schema, no application id, version 0.
        case empty
        /// A Tessera file at `version`, at most `latestVersion`.
        case tessera(version: Int)

        /// The schema version (0 for an empty file).
        package var version: Int {
            switch self {
            case .empty: 0
            case let .tessera(version): version
            }
        }
    }

    /// The migrations, versions 1...n in order.
    package let migrations: [Migration]

    /// A migrator for `migrations`, which must have versions 1, 2, 3, ... in order.
    package init(migrations: [Migration] = EmbeddedMigrations.all) {
        for (offset, migration) in migrations.enumerated() {
            precondition(migration.version == offset + 1,
                         "migrations must have versions 1, 2, 3, ... in order; found \(migration.version) at \(offset + 1)")
        }
        self.migrations = migrations
    }

    /// The version a fully migrated file has.
    package var latestVersion: Int { migrations.count }

    /// Opens the database at `path` for writing, creating it if needed, and migrates
    /// it to `latestVersion`. Refusals happen before anything is written to the file.
    ///
    /// An existing file is first examined through a read-only connection, so that
    /// even closing the connection (which may checkpoint a WAL) cannot modify a file
    /// that is then refused. A file whose header alone vouches for it (see
    /// `headerVouches(for:)`) is opened for writing at once: its writer finds
    /// nothing to refuse and leaves nothing to checkpoint.
    ///
    /// - Throws: `StoreError.notAStore` for a directory, FIFO or device,
    ///   `.notSQLite`, `.notATesseraDatabase`, `.schemaTooNew`,
    ///   `.missingRTree`, `.migrationFailed`, or another `StoreError` for
    ///   what SQLite reports (see `StoreError(sqlite:path:)`).
    package func openDatabase(at path: String, options: Connection.Options = Connection.Options()) throws -> Connection {
        try Self.refuseIfNotRegularFile(path)
        return try Self.opening(path) {
            if !headerVouches(for: path), let probe = try openExistingReadOnly(path, options: options) {
                _ = try inspect(probe)
                probe.close()
            }
            var writerOptions = options.forStore
            writerOptions.walMode = true
            let connection = try Connection(path: path, mode: .readWriteCreate, options: writerOptions)
            try migrate(connection)
            return connection
        }
    }

    /// Runs a step of opening the store at `path`, SQLite's failures
    /// reported as failures of the open (a file that is not a database is
    /// then `notSQLite`).
    static func opening<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch var error as SQLiteError {
            if error.operation == .statement { error.operation = .open }
            throw StoreError(sqlite: error, path: path)
        }
    }

    /// Reads what kind of file `connection` is on, without writing.
    ///
    /// - Throws: `StoreError.notSQLite`, `.notATesseraDatabase` or `.schemaTooNew`.
    package func inspect(_ connection: Connection) throws -> DatabaseState {
        do {
            let applicationID = Int32(truncatingIfNeeded: try connection.scalarInt64("PRAGMA application_id") ?? 0)
            let version = Int(try connection.scalarInt64("PRAGMA user_version") ?? 0)
            if applicationID == Self.applicationID {
                guard version <= latestVersion else {
                    throw StoreError.schemaTooNew(path: connection.path, found: version, supported: latestVersion)
                }
                return .tessera(version: version)
            }
            let objectCount = try connection.scalarInt64("SELECT count(*) FROM sqlite_schema") ?? 0
            // Only a file with nothing in it may become a Tessera file: another
            // application may use user_version or application_id without tables.
            if applicationID == 0 && version == 0 && objectCount == 0 {
                return .empty
            }
            throw StoreError.notATesseraDatabase(path: connection.path, applicationID: applicationID)
        } catch var error as SQLiteError where error.code == SQLITE_NOTADB {
            error.operation = .open
            throw StoreError(sqlite: error, path: connection.path)
        }
    }

    /// Applies the pending migrations in order, each in its own IMMEDIATE transaction,
    /// and returns those it applied (empty when the file was up to date).
    ///
    /// The version is re-read inside each transaction, under the write lock, so two
    /// processes opening a new file at once apply each migration once.
    ///
    /// A migration runs with foreign keys ON (they cannot be switched inside a
    /// transaction): one that rebuilds a table must keep references valid.
    @discardableResult
    package func migrate(_ connection: Connection) throws -> [Migration] {
        var applied: [Migration] = []
        let start = try inspect(connection).version
        for migration in migrations where migration.version > start {
            do {
                let didApply = try connection.transaction(.immediate) { () throws -> Bool in
                    let current = try inspect(connection).version
                    guard current < migration.version else { return false }
                    if current == 0 {
                        try connection.execute("PRAGMA application_id = \(Self.applicationID)")
                    }
                    try connection.execute(migration.sql)
                    try connection.execute("PRAGMA user_version = \(migration.version)")
                    return true
                }
                if didApply { applied.append(migration) }
            } catch let error as SQLiteError {
                throw StoreError.migrationFailed(
                    path: connection.path, version: migration.version, name: migration.name, cause: error)
            }
        }
        return applied
    }

    /// Whether the file at `path` is, from its header's bytes alone, a
    /// Tessera store in WAL mode of a schema version this build writes, with
    /// no `-wal` file beside it (so the header is its committed state): the
    /// writer's own `inspect(_:)` then refuses nothing the read-only probe
    /// would, and its open changes nothing in the file (WAL is already on).
    /// A short process opening a store (`tessera append`) is spared a
    /// second connection and a second reading of the schema.
    func headerVouches(for path: String) -> Bool {
        guard let (header, _) = FileHeader.read(path), header.isSQLite, header.isWAL else { return false }
        return header.applicationID == Self.applicationID && header.userVersion <= latestVersion && access(path + "-wal", F_OK) != 0
    }

    /// A read-only connection to `path`, or nil when there is no file yet.
    private func openExistingReadOnly(_ path: String, options: Connection.Options) throws -> Connection? {
        if path.isEmpty || path == ":memory:" { return nil }
        do {
            return try Connection(path: path, mode: .readOnly, options: options.forStore)
        } catch let error as SQLiteError where error.code == SQLITE_CANTOPEN {
            // Missing file (or unreadable: the read-write open reports that).
            return nil
        }
    }
}
