#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file read in chunks of 64 KiB under ``FileRules``. A file of a kind
/// the rules refuse, or larger than they allow by its size, is refused
/// before a byte is read; one that grows past the limit while it is read
/// (standard input, a file being written) is refused as soon as it does,
/// with at most one chunk read beyond the limit. Failures are
/// ``SpecError``s at the error path given, naming the file and the limit.
package final class FileReader {
    /// The file as messages name it: its path quoted, or `standard input`.
    package let name: String
    /// The file's size when it is a regular file: progress is the share read.
    package let size: Int?
    /// The bytes read so far.
    package private(set) var bytesRead = 0
    private let descriptor: Int32
    private let rules: FileRules
    private let errorPath: String
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)

    /// Opens `path` (`-`: standard input, when the rules say so) and checks
    /// its kind and size.
    package init(path: String, rules: FileRules, errorPath: String) throws {
        self.rules = rules
        self.errorPath = errorPath
        let fromStandardInput = rules.readsStandardInput(path)
        name = rules.name(of: path)
        // Non-blocking open: opening a FIFO otherwise waits for a writer.
        let descriptor = fromStandardInput ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_NONBLOCK)
        guard descriptor >= 0 else { throw SpecError(path: errorPath, reason: "cannot read \(name): \(String(cString: strerror(errno)))") }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let reason = "cannot read \(name): \(String(cString: strerror(errno)))"
            close(descriptor)
            throw SpecError(path: errorPath, reason: reason)
        }
        let regular = info.st_mode & S_IFMT == S_IFREG
        if rules.regularFileOnly, !fromStandardInput, let kind = FileBytes.kind(ofMode: info.st_mode) {
            close(descriptor)
            let dash = rules.standardInputDash ? " (- reads standard input)" : ""
            throw SpecError(path: errorPath, reason: "\(name) is \(kind); \(rules.files) must be regular files\(dash)")
        }
        size = regular ? Int(info.st_size) : nil
        if let size, let limit = rules.maximumBytes, size > limit {
            close(descriptor)
            throw SpecError(path: errorPath, reason: Self.tooLarge(name, size: "\(size) bytes", rules: rules, limit: limit))
        }
        if !fromStandardInput { _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK) }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// The next bytes of the file, or nil at its end. The chunk is valid
    /// until the next call.
    package func nextChunk() throws -> ArraySlice<UInt8>? {
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw SpecError(path: errorPath, reason: "error while reading \(name): \(String(cString: strerror(errno)))") }
            if count == 0 { return nil }
            bytesRead += count
            if let limit = rules.maximumBytes, bytesRead > limit {
                throw SpecError(path: errorPath, reason: Self.tooLarge(name, size: "more than \(limit) bytes", rules: rules, limit: limit))
            }
            return buffer[0..<count]
        }
    }

    private static func tooLarge(_ name: String, size: String, rules: FileRules, limit: Int) -> String {
        "\(name) holds \(size); \(rules.files) may hold at most \(limit) bytes (\(limit >> 20) MiB)"
    }
}
