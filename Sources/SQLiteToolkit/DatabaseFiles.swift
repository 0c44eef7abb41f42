#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files of a SQLite database at a path: the database itself, and the
/// rollback journal, write-ahead log and shared-memory index SQLite may
/// keep beside it. A database is removed or replaced with all of them: a
/// journal or log left beside a new file of the same name would be read
/// as that file's.
package enum DatabaseFiles {
    /// The suffixes of the files beside the database (`path + suffix`).
    package static let sideSuffixes = ["-journal", "-wal", "-shm"]

    /// The database's own path, then those of the files beside it.
    package static func paths(of path: String) -> [String] {
        [path] + sideSuffixes.map { path + $0 }
    }

    /// Removes the database at `path` and the files beside it, those there are.
    package static func remove(_ path: String) {
        for file in paths(of: path) { unlink(file) }
    }
}
