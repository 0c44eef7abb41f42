#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Buffered writes to standard output; layouts of millions of elements are
/// printed line by line without building one huge string.
package struct StandardOutput {
    private var buffer: [UInt8] = []

    /// An empty buffer.
    package init() {
        buffer.reserveCapacity(1 << 16)
    }

    /// Appends `text`, writing the buffer out once it holds 64 KiB.
    package mutating func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Appends `text` and a newline.
    package mutating func writeLine(_ text: String) {
        write(text)
        write("\n")
    }

    /// Writes out what the buffer holds.
    package mutating func flush() {
        writeAll(buffer, to: 1)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Writes text to standard error without a newline (progress bars).
package func printErrorInline(_ text: String) {
    writeAll(Array(text.utf8), to: 2)
}

/// Writes one line to standard error.
package func printError(_ text: String) {
    writeAll(Array((text + "\n").utf8), to: 2)
}

/// Writes every byte to a file descriptor, retrying short writes.
private func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
    bytes.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
            guard let base = raw.baseAddress else { return }
            let written = write(descriptor, base + offset, raw.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}
