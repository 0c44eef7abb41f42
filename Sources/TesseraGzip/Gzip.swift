import CZlib

/// gzip (RFC 1952) over the system's zlib: the tile routes' compressed
/// bodies and `tessera export --tiles`'s `.gz` files, byte for byte the same
/// for the same input (no name, mtime 0).
package enum Gzip {
    /// The gzip member of `bytes`, at zlib's `level` (6, its default,
    /// unless asked); nil when zlib fails (out of memory): send the bytes as
    /// they are then.
    package static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8]? {
        let capacity = tessera_gzip_bound(bytes.count)
        var output = [UInt8](repeating: 0, count: capacity)
        let written = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                tessera_gzip(input.baseAddress, input.count, out.baseAddress, capacity, level)
            }
        }
        guard written > 0, bytes.count < UInt32.max else { return nil }
        output.removeSubrange(written...)
        return output
    }

    /// The bytes of a gzip member, or nil when `bytes` is not one or
    /// holds more than `maximumLength` bytes.
    package static func decompress(_ bytes: [UInt8], maximumLength: Int = 64 << 20) -> [UInt8]? {
        // Deflate expands at most 1032 to 1.
        let capacity = min(maximumLength, bytes.count * 1032 + 64)
        var output = [UInt8](repeating: 0, count: capacity)
        let written = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                tessera_gunzip(input.baseAddress, input.count, out.baseAddress, capacity)
            }
        }
        guard written >= 0 else { return nil }
        output.removeSubrange(written...)
        return output
    }
}
