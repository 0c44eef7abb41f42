import TesseraLayout
import TesseraStore

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

    /// Why this process cannot write `path` (a file, or a new one in its
    /// folder): `EROFS` for a read-only file system, `EACCES` when the file
    /// or its folder refuses it; nil when neither does. SQLite reports the
    /// `errno` of its last fallback (often ENOENT), not the refusal itself.
    package static func writeRefusal(_ path: String) -> Int32? {
        let folder = folder(of: path)
        if isReadOnly(folder) { return EROFS }
        // A missing folder is ENOENT here, not a refusal.
        let target = access(path, F_OK) == 0 ? path : folder
        return access(target, W_OK) != 0 && (errno == EACCES || errno == EPERM) ? EACCES : nil
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
        let code = FileSystem.isFull(code) ? code : FileSystem.writeRefusal(path) ?? code
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
