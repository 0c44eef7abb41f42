#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Room kept on a store's disk for deleting specs: a file of ``bytes``
/// bytes, allocated (not sparse), given back when a deletion finds the disk
/// full, so that the deletion can be written and the store's room reused.
/// SQLite writes every change, a deletion too, to its WAL file first, and
/// the store empties that file after each checkpoint: on a full disk even a
/// deletion had no room (507) and nothing could be freed through the API.
/// Allocated again when a later deletion finds room for it.
public struct DiskReserve: Sendable {
    /// The reserve file.
    public let path: String
    /// Its size.
    public let bytes: Int

    public init(path: String, bytes: Int) {
        self.path = path
        self.bytes = bytes
    }

    /// Allocates the file unless it is there whole; false when the disk
    /// has no room for it (nothing is left then).
    @discardableResult
    public func restore() -> Bool {
        let file = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
        guard file >= 0 else { return false }
        defer { close(file) }
        var info = stat()
        if fstat(file, &info) == 0, Int(info.st_size) >= bytes, Int(info.st_blocks) * 512 >= bytes { return true }
        guard allocate(file) else {
            unlink(path)
            return false
        }
        return true
    }

    /// Gives the room back; false when there was none to give.
    public func release() -> Bool {
        unlink(path) == 0
    }

    private func allocate(_ file: Int32) -> Bool {
        #if canImport(Glibc)
        return posix_fallocate(file, 0, off_t(bytes)) == 0
        #else
        return ftruncate(file, off_t(bytes)) == 0
        #endif
    }
}
