import SQLiteToolkit
import TesseraLayout
import CSQLite
import TesseraStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opening a store read-only: nothing is created, converted, migrated or
/// left behind. The file's header is read as bytes first, so that a file
/// that is not a Tessera store is refused before SQLite opens it (SQLite's
/// read-only open of another application's WAL database would create its
/// `-shm` and `-wal` files).
extension Migrator {
    /// The first 100 bytes of a SQLite file: its header.
    struct FileHeader {
        static let magic = Array("SQLite format 3\0".utf8)
        let bytes: [UInt8]

        /// A big-endian 32-bit field of the header.
        func field(at offset: Int) -> UInt32 {
            bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }

        var isSQLite: Bool { bytes.count == 100 && Array(bytes.prefix(16)) == Self.magic }
        /// Whether the file is in WAL mode (read and write versions 2).
        var isWAL: Bool { bytes[18] == 2 && bytes[19] == 2 }
        var applicationID: Int32 { Int32(bitPattern: field(at: 68)) }
        var userVersion: Int { Int(field(at: 60)) }

        /// The header of the file at `path`; nil when the file cannot be read.
        static func read(_ path: String) -> (header: FileHeader, size: Int)? {
            let descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { return nil }
            var bytes = [UInt8](repeating: 0, count: 100)
            let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, 100) }
            return (FileHeader(bytes: Array(bytes.prefix(max(0, count)))), Int(info.st_size))
        }
    }

    /// Refuses a path that names a directory, a FIFO, a device or a socket,
    /// before anything opens it (the open of a FIFO waits for a writer, and
    /// a device's bytes never end). A missing path passes.
    static func refuseIfNotRegularFile(_ path: String) throws {
        if let kind = FileBytes.kind(at: path) {
            throw StoreError(.notAStore, "\(path.quotedPathForMessage) is \(kind), not a store file", store: path)
        }
    }

    /// The header of the existing file at `path`, and whether a `-wal` file
    /// sits beside it, when the file may be a Tessera store: a missing,
    /// empty, non-SQLite or foreign file is refused from its bytes alone,
    /// before SQLite opens (and could change) it. Without a WAL file the
    /// header is the file's committed state, so another application's id
    /// is final; a store whose WAL holds its first commit is checked by the
    /// open that follows.
    static func existingStoreHeader(at path: String) throws -> (FileHeader, hasWAL: Bool) {
        try refuseIfNotRegularFile(path)
        guard let (header, size) = FileHeader.read(path) else {
            throw StoreError(.notFound, "no store at \(path.quotedPathForMessage): the file cannot be read", store: path)
        }
        let hasWAL = access(path + "-wal", F_OK) == 0
        guard size > 0 else { throw StoreError.notATesseraStore(path: path, "an empty file") }
        guard header.isSQLite else { throw StoreError.notSQLite(path: path) }
        if !hasWAL && header.applicationID != Self.applicationID {
            throw header.applicationID == 0 && header.userVersion == 0
                ? StoreError.notATesseraStore(path: path, "a SQLite database without Tessera's application id")
                : StoreError.notATesseraDatabase(path: path, applicationID: header.applicationID)
        }
        return (header, hasWAL)
    }

    /// Opens the existing store at `path` read-only, at the latest schema
    /// version: its writes fail with `readOnly`.
    ///
    /// The open sees other processes' commits (SQLite's locking) wherever
    /// the file can be written by anyone; see `readOnlyOpen(for:header:hasWAL:)`.
    ///
    /// - Throws: `notAStore` for a missing, empty or foreign file,
    ///   `schemaTooNew`, or `readOnly` for a store of an older schema version
    ///   (a read-only open cannot upgrade it: open it once for writing).
    package func openReadOnly(at path: String, options: Connection.Options) throws -> Connection {
        let (header, hasWAL) = try Self.existingStoreHeader(at: path)
        var readOptions = options.forStore
        readOptions.readOnlyOpen = Self.readOnlyOpen(for: path, header: header, hasWAL: hasWAL)
        let (connection, state): (Connection, DatabaseState)
        do {
            (connection, state) = try openAndInspect(path, options: readOptions)
        } catch let error as StoreError where readOptions.readOnlyOpen != .immutable && Self.isSharedMemoryFailure(error) {
            // A -shm this read cannot size (a write that failed on a full disk
            // left it short, and the disk is still full): read it, never size it.
            readOptions.readOnlyOpen = .readOnlyShm
            (connection, state) = try openAndInspect(path, options: readOptions)
        }
        switch state {
        case .empty:
            connection.close()
            throw StoreError.notATesseraStore(path: path, "a SQLite database without Tessera's schema")
        case let .tessera(version) where version < latestVersion:
            connection.close()
            throw StoreError(.readOnly, "\(path.quotedPathForMessage) is a Tessera store of schema version \(version); this build reads version "
                + "\(latestVersion), and a read-only open does not upgrade it: open it once with a command that writes "
                + "(e.g. tessera check --repair)", store: path)
        case .tessera:
            return connection
        }
    }

    /// A read-only connection to `path` and what kind of file it is on.
    private func openAndInspect(_ path: String, options: Connection.Options) throws -> (Connection, DatabaseState) {
        let connection = try Self.opening(path) { try Connection(path: path, mode: .readOnly, options: options) }
        do {
            return (connection, try Self.opening(path) { try inspect(connection) })
        } catch {
            connection.close()
            throw error
        }
    }

    /// Whether `error` is SQLite failing to create, size or map the `-shm`
    /// (its I/O error, or a full disk under it).
    static func isSharedMemoryFailure(_ error: StoreError) -> Bool {
        guard let cause = error.cause as? SQLiteError else { return false }
        // SQLITE_IOERR_SHMOPEN, _SHMSIZE, _SHMLOCK and _SHMMAP: 18...21 above
        // the primary code (macros Swift does not import).
        return (cause.code == SQLITE_IOERR && (18...21).contains(cause.extendedCode >> 8)) || error.code == .diskFull
    }

    /// How a read-only open of the store at `path` opens it.
    ///
    /// `immutable` (no locks, no side files, blind to other writers) only
    /// where nothing can write the file while it is read: a read-only file
    /// system, or a WAL file open nowhere (no `-wal`, no `-shm`) that this
    /// process may not write and beside which it cannot create the `-shm`
    /// SQLite needs (its owner's writes then go unseen: a documented limit).
    /// A file open nowhere that this process may write opens `queryOnly`,
    /// so that the last connection to close removes the `-wal` and `-shm`
    /// its read created; any other file uses SQLite's read-only open and
    /// the side files already there (a read-only close never checkpoints
    /// them into the file, nor removes them).
    static func readOnlyOpen(for path: String, header: FileHeader, hasWAL: Bool) -> Connection.ReadOnlyOpen {
        let openNowhere = header.isWAL && !hasWAL && access(path + "-shm", F_OK) != 0
        if FileSystem.isReadOnly(path) { return openNowhere ? .immutable : .shared }
        if access(path, W_OK) == 0 { return openNowhere || !header.isWAL ? .queryOnly : .shared }
        return openNowhere && access(FileSystem.folder(of: path), W_OK) != 0 ? .immutable : .shared
    }
}
