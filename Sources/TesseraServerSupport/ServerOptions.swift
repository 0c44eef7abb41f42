import ArgumentParser
import Logging
import TesseraBackends
import TesseraLayout
import TesseraSQLite
import TesseraStore

/// Reading the options that `tessera-server` and its benchmarks
/// (`tessera-bench encoding`, `tessera-bench routes`) share: the store and
/// the log level.
package enum ServerOptions {
    /// The level `--log-level` names (trace … critical).
    package static func logLevel(_ text: String) throws -> Logger.Level {
        guard let level = Logger.Level(rawValue: text) else { throw ValidationError("--log-level: unknown level '\(text)'") }
        return level
    }

    /// Whether `db` is a store file on a read-only file system: it is then
    /// opened read-only (served, every write refused), as nothing can write it.
    package static func isOnReadOnlyFileSystem(_ db: String) -> Bool {
        guard case .file(let path) = try? StoreLocation(parsing: db) else { return false }
        return FileSystem.isReadOnly(path)
    }

    /// The store at `path`, which must exist and be a store: the server
    /// never creates or converts one. Its blocking work runs on `executor`
    /// (the server's thread pools), by default on threads of the store's own.
    ///
    /// A store that cannot be written is still served, read-only, with a
    /// sentence for `notice`: on a read-only file system (writes then
    /// answer 503), or on a full one the writable open fails on (a `-shm`
    /// it cannot size; writes answer 507 until a restart finds room).
    package static func openStore(
        _ path: String, executor: (any BlockingExecutor)? = nil, notice: (String) -> Void = { _ in }
    ) async throws -> LayoutStore {
        // A layout's directory is loaded, verified, before a query answers
        // from it: damage anywhere in the store ends in a 500, never in
        // frames read through an index whose pages were damaged (the cost:
        // the first query of each large layout the process reads).
        func open(readOnly: Bool) async throws -> LayoutStore {
            try await LayoutStore.open(db: path, readOnly: readOnly, requireExisting: true, loadsDirectoriesInline: true, executor: executor)
        }
        do {
            if isOnReadOnlyFileSystem(path) {
                notice("the store \(path.quotedPathForMessage) is on a read-only file system: serving its reads; writes answer 503")
                return try await open(readOnly: true)
            }
            do {
                return try await open(readOnly: false)
            } catch let error as StoreError where error.code == .diskFull {
                notice("\(error.message): serving its reads; writes answer 507 until the server starts again with room")
                return try await open(readOnly: true)
            }
        } catch let error as StoreError where error.code == .notFound {
            throw ValidationError("--db: \(error.message) (tessera precompute creates one; the server never does)")
        } catch let error as StoreError {
            throw ValidationError("--db: \(error.message)")
        }
    }
}
