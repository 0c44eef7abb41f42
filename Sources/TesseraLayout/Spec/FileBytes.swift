#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads and path arithmetic, without Foundation.
package enum FileBytes {
    /// The file at `path`, whole, read under `rules` (see ``FileReader``).
    package static func read(_ path: String, rules: FileRules = .unrestricted, errorPath: String = "") throws -> [UInt8] {
        let file = try FileReader(path: path, rules: rules, errorPath: errorPath)
        var bytes: [UInt8] = []
        if let size = file.size { bytes.reserveCapacity(size) }
        while let chunk = try file.nextChunk() { bytes.append(contentsOf: chunk) }
        return bytes
    }

    /// Reads the file at `path` in chunks of 64 KiB, in order. Failures are
    /// ``SpecError``s at `errorPath` that name the file. With
    /// `regularFileOnly`, the rules of items files apply (``FileRules/itemsFile``).
    package static func forEachChunk(
        of path: String, errorPath: String, regularFileOnly: Bool, _ body: (ArraySlice<UInt8>) throws -> Void
    ) throws {
        let file = try FileReader(path: path, rules: regularFileOnly ? .itemsFile : .unrestricted, errorPath: errorPath)
        while let chunk = try file.nextChunk() { try body(chunk) }
    }

    /// What a file of `mode` is, in words ("a FIFO"), or nil for a regular file.
    package static func kind(ofMode mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }

    /// What the file at `path` is when it exists and is not a regular file
    /// ("a FIFO"), without opening it; nil for a regular or missing file.
    package static func kind(at path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return kind(ofMode: info.st_mode)
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
