#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads and path arithmetic, without Foundation.
enum FileBytes {
    static func read(_ path: String) throws -> [UInt8] {
        guard let file = fopen(path, "rb") else {
            throw SpecError(path: "", reason: "cannot read '\(path)': \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let read = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if read == 0 { break }
            bytes.append(contentsOf: buffer[0..<read])
        }
        if ferror(file) != 0 { throw SpecError(path: "", reason: "error while reading '\(path)'") }
        return bytes
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
