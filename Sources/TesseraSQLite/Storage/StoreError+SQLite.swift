import CSQLite
import SQLiteToolkit
import TesseraStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The store's errors that only a SQLite file has, each with its code and
/// sentence in one place, and the translation of the toolkit's errors.
extension StoreError {
    /// A failure of the SQLite toolkit on the store at `path`, in a
    /// sentence; SQLite's code, message and statement stay in ``cause``.
    /// The one place where the toolkit's errors become the store's.
    init(sqlite error: SQLiteError, path: String) {
        switch error.operation {
        case .useAfterClose:
            self = .closed(store: path)
        case .switchToWAL(let journalMode):
            self = .walUnavailable(path: path, journalMode: journalMode)
        case .open where error.code == SQLITE_NOTADB:
            self = .notSQLite(path: path)
        case .open, .statement:
            self = Self.reported(error, path: path)
        }
        cause = error
    }

    /// A failure of SQLite itself on the store at `path`, by its code.
    private static func reported(_ error: SQLiteError, path: String) -> StoreError {
        if let failure = fileSystemFailure(error, path: path) { return failure }
        let (code, sentence): (Code, String) = switch error.code {
        case SQLITE_BUSY, SQLITE_LOCKED:
            (.busy, "another writer kept the store \(path.quotedPathForMessage) busy for longer than the busy timeout; try again")
        case SQLITE_FULL:
            (.diskFull, "the store \(path.quotedPathForMessage) is full; nothing was written")
        case SQLITE_READONLY:
            (.readOnly, "the store \(path.quotedPathForMessage) cannot be written (a read-only file, folder or file system)")
        case SQLITE_CORRUPT:
            (.damaged, "the store \(path.quotedPathForMessage) is damaged (SQLite found a malformed page)")
        case SQLITE_NOTADB:
            (.notAStore, "\(path.quotedPathForMessage) is not a SQLite database")
        case SQLITE_CANTOPEN:
            (.io, "the store \(path.quotedPathForMessage) cannot be opened (a missing folder, or no permission)")
        case SQLITE_IOERR, SQLITE_PERM, SQLITE_NOLFS, SQLITE_AUTH:
            (.io, "reading or writing the store \(path.quotedPathForMessage) failed: \(error.message)")
        case SQLITE_INTERRUPT, SQLITE_ABORT:
            (.cancelled, "the request on the store \(path.quotedPathForMessage) was cancelled; nothing was written")
        default:
            (.internal, "the store \(path.quotedPathForMessage) failed unexpectedly: \(error)")
        }
        return StoreError(code, sentence, store: path)
    }

    /// A failure whose cause is the file system, named: a full one (by
    /// the operating system's `errno`, not SQLite's code alone: a full
    /// `-shm` is an I/O error to SQLite), a read-only one, or a refused
    /// permission; nil for any other failure.
    private static func fileSystemFailure(_ error: SQLiteError, path: String) -> StoreError? {
        let folder = FileSystem.folder(of: path)
        var systemErrno = error.systemErrno
        if !FileSystem.isFull(systemErrno), [SQLITE_CANTOPEN, SQLITE_READONLY].contains(error.code), let refusal = FileSystem.writeRefusal(path) {
            systemErrno = refusal
        }
        switch systemErrno {
        case _ where FileSystem.isFull(systemErrno):
            return StoreError(.diskFull, "the file system holding the store \(path.quotedPathForMessage) is full; nothing was written "
                + "(\(free(folder)) in \(folder.quotedPathForMessage))", store: path)
        case EROFS:
            return StoreError(.readOnly, "the store \(path.quotedPathForMessage) is on a read-only file system (EROFS): "
                + "nothing can be written there; commands that only read open it read-only", store: path)
        case EACCES, EPERM:
            return StoreError(error.code == SQLITE_CANTOPEN ? .io : .readOnly, "no permission to write the store "
                + "\(path.quotedPathForMessage) or the -wal and -shm files SQLite keeps beside it in \(folder.quotedPathForMessage) "
                + "(\(systemErrno == EACCES ? "EACCES" : "EPERM"))", store: path)
        default:
            return nil
        }
    }
}

extension StoreError {
    /// The file exists but is not a SQLite database; it was not changed.
    package static func notSQLite(path: String) -> StoreError {
        StoreError(.notAStore, "\(path.quotedPathForMessage) is not a Tessera store (not a SQLite database). Tessera did not open or change it. "
            + "Check the path, or give a new file name to create a Tessera store there.", store: path)
    }

    /// The file is another application's SQLite database; it was not changed.
    package static func notATesseraDatabase(path: String, applicationID: Int32) -> StoreError {
        StoreError(.notAStore, "\(path.quotedPathForMessage) is not a Tessera store: it is a SQLite database of another application "
            + "(application_id 0x\(String(UInt32(bitPattern: applicationID), radix: 16, uppercase: true)), not Tessera's). "
            + "Tessera did not change it. Use a separate file for the Tessera store.", store: path)
    }

    /// The SQLite library in use lacks the R*Tree module.
    package static func missingRTree(sqliteVersion: String) -> StoreError {
        StoreError(.unsupported, "The SQLite library in use (\(sqliteVersion)) was built without the R*Tree module, "
            + "which the Tessera store needs for its spatial index. Install a SQLite built with "
            + "SQLITE_ENABLE_RTREE (Debian and Ubuntu's libsqlite3-0 and Apple's system SQLite have it).")
    }

    /// SQLite would not put the file in WAL mode.
    package static func walUnavailable(path: String, journalMode: String) -> StoreError {
        StoreError(.unsupported, "SQLite could not put \(path.quotedPathForMessage) in WAL mode (journal mode stayed '\(journalMode)'). "
            + "Keep Tessera stores on a local file system.", store: path)
    }

    /// A schema migration failed and was rolled back.
    package static func migrationFailed(path: String, version: Int, name: String, cause: any Error & Sendable) -> StoreError {
        StoreError(.io, "Migrating \(path.quotedPathForMessage) to schema version \(version) (\(name)) failed and was rolled "
            + "back; the file is still at version \(version - 1). Cause: \(cause)", store: path, cause: cause)
    }
}
