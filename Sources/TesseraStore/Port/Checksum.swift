/// The checksum every stored row and frame blob is verified with: XXH64
/// (Yann Collet's 64-bit hash, written here from its published description),
/// seed 0. It reads 32 bytes per round in four independent lanes, so an
/// 8 KB group of frames hashes in about a microsecond.
///
/// It finds damage (random bytes, a torn or misplaced page); it is not a
/// defence against someone forging rows, which a layout cache does not need.
package enum Checksum {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    /// The checksum of `bytes`, as a backend stores it (a signed 64-bit integer).
    package static func of(_ bytes: UnsafeRawBufferPointer) -> Int64 {
        Int64(bitPattern: xxh64(bytes))
    }

    /// The checksum of `bytes`.
    package static func of(_ bytes: [UInt8]) -> Int64 {
        bytes.withUnsafeBytes { of($0) }
    }

    @inline(__always)
    private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
        rotate(accumulator &+ input &* prime2, 31) &* prime1
    }

    @inline(__always)
    private static func merge(_ hash: UInt64, _ lane: UInt64) -> UInt64 {
        (hash ^ round(0, lane)) &* prime1 &+ prime4
    }

    @inline(__always)
    private static func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }

    @inline(__always)
    private static func word(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// XXH64 of `bytes` with seed 0.
    package static func xxh64(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let count = bytes.count
        var offset = 0
        var hash: UInt64
        if count >= 32 {
            var lanes = (prime1 &+ prime2, prime2, UInt64(0), 0 &- prime1)
            while offset + 32 <= count {
                lanes.0 = round(lanes.0, word(bytes, offset))
                lanes.1 = round(lanes.1, word(bytes, offset + 8))
                lanes.2 = round(lanes.2, word(bytes, offset + 16))
                lanes.3 = round(lanes.3, word(bytes, offset + 24))
                offset += 32
            }
            hash = rotate(lanes.0, 1) &+ rotate(lanes.1, 7) &+ rotate(lanes.2, 12) &+ rotate(lanes.3, 18)
            hash = merge(merge(merge(merge(hash, lanes.0), lanes.1), lanes.2), lanes.3)
        } else {
            hash = prime5
        }
        hash &+= UInt64(count)
        while offset + 8 <= count {
            hash = rotate(hash ^ round(0, word(bytes, offset)), 27) &* prime1 &+ prime4
            offset += 8
        }
        if offset + 4 <= count {
            let half = UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            hash = rotate(hash ^ (half &* prime1), 23) &* prime2 &+ prime3
            offset += 4
        }
        while offset < count {
            hash = rotate(hash ^ (UInt64(bytes[offset]) &* prime5), 11) &* prime1
            offset += 1
        }
        hash ^= hash >> 33
        hash &*= prime2
        hash ^= hash >> 29
        hash &*= prime3
        hash ^= hash >> 32
        return hash
    }
}

/// The bytes a row's checksum is computed over: each value tagged with its
/// type (so that 1, 1.0, "1" and NULL differ) and texts and blobs with
/// their length (so that ("ab", "c") and ("a", "bc") differ).
package struct ChecksumRecord {
    package enum Tag: UInt8 {
        case null = 0, integer = 1, real = 2, text = 3, blob = 4
    }

    // Inlinable: a backend adds a row's values column by column.
    @usableFromInline var bytes: [UInt8] = []

    package init() {
        bytes.reserveCapacity(256)
    }

    /// A record of about `capacity` bytes (each value takes its bytes and
    /// 9 more), so that adding them allocates once.
    package init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    @inlinable
    package mutating func addNull() { bytes.append(Tag.null.rawValue) }

    @inlinable
    package mutating func add(_ value: Int64) {
        append(Tag.integer, UInt64(bitPattern: value))
    }

    @inlinable
    package mutating func add(_ value: Double) {
        append(Tag.real, value.bitPattern)
    }

    @inlinable
    package mutating func add(text: UnsafeRawBufferPointer) { add(.text, text) }

    @inlinable
    package mutating func add(blob: UnsafeRawBufferPointer) { add(.blob, blob) }

    @inlinable
    mutating func add(_ tag: Tag, _ value: UnsafeRawBufferPointer) {
        append(tag, UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    /// The tag, then the word's 8 bytes, little-endian.
    @inlinable
    mutating func append(_ tag: Tag, _ word: UInt64) {
        bytes.append(tag.rawValue)
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
    }

    /// The checksum of the values added.
    package var checksum: Int64 { Checksum.of(bytes) }
}
