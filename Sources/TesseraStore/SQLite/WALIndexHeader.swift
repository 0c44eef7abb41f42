import CSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The header of a WAL database's shared-memory index, mapped read-only, so a
/// reader can tell without a lock or a system call whether anything was
/// committed since it last looked.
///
/// Every commit, by any connection of any process, rewrites this header (its
/// change counter and the WAL's last frame; a restarted WAL gets new salts),
/// and SQLite's own readers compare it to decide whether their page cache is
/// still good. Its layout is part of the file format that different SQLite
/// versions share (https://sqlite.org/walformat.html): 48 bytes at offset 0.
///
/// Beginning a read transaction costs more than a whole warm query (two
/// `fcntl` locks and the pager's checks: about 5 µs here), so `DatabasePool`
/// keeps a reader's snapshot open while this header is unchanged.
final class WALIndexHeader: @unchecked Sendable {
    /// The header's bytes at one moment.
    struct Stamp: Equatable, Sendable {
        // A tuple: laid out contiguously, so C can fill it without an allocation.
        fileprivate var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)

        static func == (lhs: Stamp, rhs: Stamp) -> Bool {
            lhs.words == rhs.words
        }
    }

    // Immutable after init: a read-only shared mapping, unmapped at deinit.
    private let base: UnsafeMutableRawPointer
    private let length: Int

    /// Maps the `-shm` file of the database at `databasePath`, or returns nil
    /// when it cannot (no such file, too short, not mappable): callers then
    /// begin a new read transaction for every read.
    ///
    /// Call it while a connection of this process has the database open in
    /// WAL mode: SQLite then has created the file, and does not delete or
    /// truncate it while any connection has it open.
    init?(databasePath: String) {
        let descriptor = open(databasePath + "-shm", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        // An uninitialized index is shorter than its header, and reading a
        // mapping past the end of its file is a SIGBUS.
        guard fstat(descriptor, &status) == 0, status.st_size >= 136 else { return nil }
        let length = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard let mapped = mmap(nil, length, PROT_READ, MAP_SHARED, descriptor, 0), mapped != MAP_FAILED else {
            return nil
        }
        self.base = mapped
        self.length = length
    }

    deinit {
        munmap(base, length)
    }

    /// The header now. Two equal stamps taken at different times mean that
    /// nothing was committed in between.
    func stamp() -> Stamp {
        var stamp = Stamp()
        withUnsafeMutableBytes(of: &stamp.words) { raw in
            tessera_copy_wal_index_header(base, raw.baseAddress?.assumingMemoryBound(to: UInt64.self))
        }
        return stamp
    }
}
