/// A refusal by the Tessera store: the file or the SQLite library is not one the
/// store can safely use. Every refusal at open happens before anything is written,
/// so the file is left exactly as it was found.
///
/// Low-level failures (I/O, constraints, busy) are `SQLiteError`s instead.
public enum StoreError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The file exists but is not a SQLite database (SQLite said `SQLITE_NOTADB`).
    case notSQLite(path: String)
    /// The file is a SQLite database that belongs to something else: it has tables
    /// but not Tessera's `application_id`.
    case notATesseraDatabase(path: String, applicationID: Int32)
    /// The file was written by a newer Tessera whose schema this build does not know.
    case schemaTooNew(path: String, found: Int, supported: Int)
    /// The SQLite library in use was built without the R*Tree module.
    case missingRTree(sqliteVersion: String)
    /// SQLite refused to put the file in WAL mode (e.g. a network file system
    /// without shared memory); pooled readers would then block the writer.
    case walUnavailable(path: String, journalMode: String)
    /// A schema migration failed; its transaction was rolled back, so the file is at
    /// the previous version.
    case migrationFailed(path: String, version: Int, name: String, underlying: SQLiteError)
    /// No spec is stored under that name.
    case noSuchSpec(name: String)
    /// A request the store cannot carry out as asked, with the reason.
    case invalidArgument(String)

    public var description: String {
        switch self {
        case let .notSQLite(path):
            return "'\(path)' is not a SQLite database. Tessera did not open or change it. "
                + "Check the path, or give a new file name to create a Tessera store there."
        case let .notATesseraDatabase(path, applicationID):
            return "'\(path)' is a SQLite database of another application "
                + "(application_id \(Self.hex(applicationID)), not Tessera's). Tessera did not change it. "
                + "Use a separate file for the Tessera store."
        case let .schemaTooNew(path, found, supported):
            return "'\(path)' has Tessera schema version \(found), but this build knows versions "
                + "up to \(supported): it was written by a newer Tessera. Tessera did not change it. "
                + "Upgrade Tessera to open it."
        case let .missingRTree(version):
            return "The SQLite library in use (\(version)) was built without the R*Tree module, "
                + "which the Tessera store needs for its spatial index. Install a SQLite built with "
                + "SQLITE_ENABLE_RTREE (Debian and Ubuntu's libsqlite3-0 and Apple's system SQLite have it)."
        case let .walUnavailable(path, mode):
            return "SQLite could not put '\(path)' in WAL mode (journal mode stayed '\(mode)'). "
                + "Keep Tessera stores on a local file system."
        case let .migrationFailed(path, version, name, underlying):
            return "Migrating '\(path)' to schema version \(version) (\(name)) failed and was rolled "
                + "back; the file is still at version \(version - 1). Cause: \(underlying)"
        case let .noSuchSpec(name):
            return "no spec named \"\(name)\" is stored; save or precompute it first"
        case let .invalidArgument(reason):
            return reason
        }
    }

    private static func hex(_ value: Int32) -> String {
        "0x" + String(UInt32(bitPattern: value), radix: 16, uppercase: true)
    }
}
