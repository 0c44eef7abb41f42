import CSQLite

// Unchecked: `base` points at memory that every connection to the file
// rewrites at each commit, which is the point; it is only read, through
// `tessera_copy_wal_index_header` (volatile loads between acquire fences),
// and `owner` is kept only to keep the mapping alive, never used.

/// The header of a WAL database's shared-memory index, as SQLite maps it, so
/// a reader can tell without a lock or a system call whether anything was
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
package final class WALIndexHeader: @unchecked Sendable {
    /// The header's bytes at one moment.
    package struct Stamp: Equatable, Sendable {
        // A tuple: laid out contiguously, so C can fill it without an allocation.
        fileprivate var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)

        package static func == (lhs: Stamp, rhs: Stamp) -> Bool {
            lhs.words == rhs.words
        }

        /// The header's six 64-bit words, in order.
        package var wordArray: [UInt64] {
            [words.0, words.1, words.2, words.3, words.4, words.5]
        }

        /// The same, without an array.
        package var wordTuple: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) { words }
    }

    // SQLite's mapping of the index's first region: it stays at this address
    // while any connection of this process has the database open.
    private let base: UnsafeRawPointer
    // Keeps the mapping alive: SQLite unmaps it when the last connection closes.
    private let owner: Connection

    /// The index that `connection` (kept open by this object) has mapped, or
    /// nil when it has none: not in WAL mode, or no transaction ran yet.
    /// Callers then begin a new read transaction for every read.
    ///
    /// Only the thread that owns `connection` may call this.
    init?(mappedBy connection: Connection) {
        guard let base = tessera_mapped_wal_index(connection.liveHandle) else { return nil }
        self.base = base
        self.owner = connection
    }

    /// WAL frames not yet copied into the database file: the header's last
    /// frame (`mxFrame`, offset 16) minus the checkpoint's progress
    /// (`nBackfill`, the first word after the header's two copies, offset
    /// 96). Read without a lock: a hint for when to checkpoint, no more.
    package var framesNotCheckpointed: Int {
        let last = base.load(fromByteOffset: 16, as: UInt32.self)
        let copied = base.load(fromByteOffset: 96, as: UInt32.self)
        return last > copied ? Int(last - copied) : 0
    }

    /// The header now, when its two copies agree: a commit writes the
    /// second copy, then the first, and SQLite's readers read them in the
    /// other order and trust them only when equal (a stamp read while a
    /// commit writes it is nil, not a mix of two states).
    package func settledStamp() -> Stamp? {
        let first = stamp()
        var second = Stamp()
        withUnsafeMutableBytes(of: &second.words) { raw in
            tessera_copy_wal_index_header(base + Self.headerBytes, raw.baseAddress?.assumingMemoryBound(to: UInt64.self))
        }
        return first == second ? first : nil
    }

    /// The bytes of one copy of the header.
    private static let headerBytes = 48

    /// The header now. Two equal stamps taken at different times mean that
    /// nothing was committed in between.
    package func stamp() -> Stamp {
        var stamp = Stamp()
        withUnsafeMutableBytes(of: &stamp.words) { raw in
            tessera_copy_wal_index_header(base, raw.baseAddress?.assumingMemoryBound(to: UInt64.self))
        }
        return stamp
    }
}
