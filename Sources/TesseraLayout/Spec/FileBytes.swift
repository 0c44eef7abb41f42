#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads and path arithmetic, without Foundation.
package enum FileBytes {
    static func read(_ path: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try forEachChunk(of: path, errorPath: "", regularFileOnly: false) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// Reads the file at `path` in chunks of 64 KiB, in order. Failures are
    /// ``SpecError``s at `errorPath` that name the file. With
    /// `regularFileOnly`, a FIFO, device or directory is refused before a
    /// byte is read (a FIFO would wait for a writer forever, a device never end).
    package static func forEachChunk(
        of path: String, errorPath: String, regularFileOnly: Bool, _ body: (ArraySlice<UInt8>) throws -> Void
    ) throws {
        // Non-blocking open: opening a FIFO otherwise waits for a writer.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK)
        guard descriptor >= 0 else { throw SpecError(path: errorPath, reason: "cannot read \(path.quotedPathForMessage): \(String(cString: strerror(errno)))") }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            close(descriptor)
            throw SpecError(path: errorPath, reason: "cannot read \(path.quotedPathForMessage): \(String(cString: strerror(errno)))")
        }
        if regularFileOnly, info.st_mode & S_IFMT != S_IFREG {
            close(descriptor)
            let kind = switch info.st_mode & S_IFMT {
            case S_IFDIR: "a directory"
            case S_IFIFO: "a FIFO"
            case S_IFCHR, S_IFBLK: "a device"
            case S_IFSOCK: "a socket"
            default: "not a regular file"
            }
            throw SpecError(path: errorPath, reason: "\(path.quotedPathForMessage) is \(kind); items files must be regular files")
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        guard let file = fdopen(descriptor, "rb") else {
            close(descriptor)
            throw SpecError(path: errorPath, reason: "cannot read \(path.quotedPathForMessage): \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let read = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if read == 0 { break }
            try body(buffer[0..<read])
        }
        if ferror(file) != 0 { throw SpecError(path: errorPath, reason: "error while reading \(path.quotedPathForMessage)") }
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func resolve(_ path: String, relativeTo directory: String?) -> String {
        guard !path.hasPrefix("/"), let directory, directory != "." else { return path }
        return directory.hasSuffix("/") ? directory + path : directory + "/" + path
    }
}
