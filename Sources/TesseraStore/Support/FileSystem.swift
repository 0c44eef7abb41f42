import TesseraLayout

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Facts about the file system holding a path, for choosing how to open a
/// store and for naming why a file operation failed.
package enum FileSystem {
    /// Whether the file system holding `path` is mounted read-only (nothing
    /// on it can be written, by anyone); false when it cannot be asked.
    package static func isReadOnly(_ path: String) -> Bool {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return false }
        return info.f_flag & UInt(ST_RDONLY) != 0
    }

    /// The bytes an unprivileged writer may still put on the file system
    /// holding `path`; nil when it cannot be asked.
    package static func availableBytes(_ path: String) -> Int? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return Int(clamping: UInt64(info.f_bavail) &* UInt64(info.f_frsize))
    }

    /// The folder holding `path` ("." for a bare file name).
    package static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Whether `code` is an `errno` of a full disk (or an exhausted quota).
    package static func isFull(_ code: Int32) -> Bool { code == ENOSPC || code == EDQUOT }
}

extension StoreError {
    /// A file operation on `path` that failed with `errno` `code`, in words
    /// that name the cause and the file: a full file system (`diskFull`),
    /// a read-only one or a refused permission (`readOnly`), else `io`.
    /// `doing` is what failed ("writing the copy"), `outcome` what it
    /// means ("nothing was written").
    package static func fileSystem(
        _ code: Int32, path: String, doing: String, outcome: String, store: String? = nil
    ) -> StoreError {
        let folder = FileSystem.folder(of: path)
        // A failed create's errno can be a later fallback's (ENOENT): the mount says it.
        let code = !FileSystem.isFull(code) && FileSystem.isReadOnly(folder) ? EROFS : code
        let (kind, sentence): (Code, String) = switch code {
        case _ where FileSystem.isFull(code):
            (.diskFull, "\(doing) failed: the file system holding \(path.quotedPathForMessage) is full (\(Self.free(folder))); \(outcome)")
        case EROFS:
            (.readOnly, "\(doing) failed: \(path.quotedPathForMessage) is on a read-only file system (EROFS); \(outcome)")
        case EACCES, EPERM:
            (.readOnly, "\(doing) failed: no permission to write \(path.quotedPathForMessage) or create files in "
                + "\(folder.quotedPathForMessage) (\(code == EACCES ? "EACCES" : "EPERM")); \(outcome)")
        default:
            (.io, "\(doing) failed on \(path.quotedPathForMessage): \(String(cString: strerror(code))); \(outcome)")
        }
        return StoreError(kind, sentence, store: store)
    }

    /// The room left in `folder`'s file system, in words.
    package static func free(_ folder: String) -> String {
        guard let bytes = FileSystem.availableBytes(folder) else { return "its free space unknown" }
        return bytes < 1 << 20 ? "\(bytes) bytes free" : "\(bytes >> 20) MiB free"
    }
}
