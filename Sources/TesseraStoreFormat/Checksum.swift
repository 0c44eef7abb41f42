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

    /// XXH64's four lanes before any stripe.
    static let initialLanes: Lanes = (prime1 &+ prime2, prime2, 0, 0 &- prime1)

    typealias Lanes = (UInt64, UInt64, UInt64, UInt64)

    /// Folds every whole 32-byte stripe of `bytes` into `lanes`; the bytes
    /// taken (a multiple of 32).
    @inline(__always)
    static func stripes(_ lanes: inout Lanes, _ bytes: UnsafeRawBufferPointer) -> Int {
        var offset = 0
        while offset + 32 <= bytes.count {
            lanes.0 = round(lanes.0, word(bytes, offset))
            lanes.1 = round(lanes.1, word(bytes, offset + 8))
            lanes.2 = round(lanes.2, word(bytes, offset + 16))
            lanes.3 = round(lanes.3, word(bytes, offset + 24))
            offset += 32
        }
        return offset
    }

    /// The hash of `total` bytes whose stripes went into `lanes` (nil when
    /// there were fewer than 32 bytes) and whose last `tail` (< 32 bytes) did not.
    static func digest(lanes: Lanes?, total: Int, tail: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64
        if let lanes {
            hash = rotate(lanes.0, 1) &+ rotate(lanes.1, 7) &+ rotate(lanes.2, 12) &+ rotate(lanes.3, 18)
            hash = merge(merge(merge(merge(hash, lanes.0), lanes.1), lanes.2), lanes.3)
        } else {
            hash = prime5
        }
        hash &+= UInt64(total)
        var offset = 0
        let count = tail.count
        while offset + 8 <= count {
            hash = rotate(hash ^ round(0, word(tail, offset)), 27) &* prime1 &+ prime4
            offset += 8
        }
        if offset + 4 <= count {
            let half = UInt64(UInt32(littleEndian: tail.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            hash = rotate(hash ^ (half &* prime1), 23) &* prime2 &+ prime3
            offset += 4
        }
        while offset < count {
            hash = rotate(hash ^ (UInt64(tail[offset]) &* prime5), 11) &* prime1
            offset += 1
        }
        hash ^= hash >> 33
        hash &*= prime2
        hash ^= hash >> 29
        hash &*= prime3
        hash ^= hash >> 32
        return hash
    }

    /// XXH64 of `bytes` with seed 0.
    package static func xxh64(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var lanes = initialLanes
        let taken = stripes(&lanes, bytes)
        return digest(lanes: bytes.count >= 32 ? lanes : nil, total: bytes.count, tail: UnsafeRawBufferPointer(rebasing: bytes[taken...]))
    }
}

/// The bytes a row's checksum is computed over: each value tagged with its
/// type (so that 1, 1.0, "1" and NULL differ) and texts and blobs with
/// their length (so that ("ab", "c") and ("a", "bc") differ).
package struct ChecksumRecord {
    package enum Tag: UInt8 {
        case null = 0, integer = 1, real = 2, text = 3, blob = 4
    }

    // Hashed as added (XXH64 streamed): a row's check allocates nothing.
    private var lanes = Checksum.initialLanes
    /// The bytes added since the last whole stripe: fewer than 32 between
    /// calls, and room for a tagged word past them.
    private var pending: (Checksum.Lanes, Checksum.Lanes) = ((0, 0, 0, 0), (0, 0, 0, 0))
    private var pendingCount = 0
    private var total = 0

    package init() {}

    package mutating func addNull() { append(.null) }

    package mutating func add(_ value: Int64) {
        append(Tag.integer, UInt64(bitPattern: value))
    }

    package mutating func add(_ value: Double) {
        append(Tag.real, value.bitPattern)
    }

    package mutating func add(text: UnsafeRawBufferPointer) { add(.text, text) }

    package mutating func add(blob: UnsafeRawBufferPointer) { add(.blob, blob) }

    mutating func add(_ tag: Tag, _ value: UnsafeRawBufferPointer) {
        append(tag, UInt64(value.count))
        feed(value)
    }

    /// The tag, then the word's 8 bytes, little-endian.
    mutating func append(_ tag: Tag, _ word: UInt64) {
        let at = pendingCount
        withUnsafeMutableBytes(of: &pending) { buffer in
            buffer.storeBytes(of: tag.rawValue, toByteOffset: at, as: UInt8.self)
            buffer.storeBytes(of: word.littleEndian, toByteOffset: at + 1, as: UInt64.self)
        }
        pendingCount += 9
        total += 9
        if pendingCount >= 32 { foldPending() }
    }

    private mutating func append(_ tag: Tag) {
        let at = pendingCount
        withUnsafeMutableBytes(of: &pending) { $0.storeBytes(of: tag.rawValue, toByteOffset: at, as: UInt8.self) }
        pendingCount += 1
        total += 1
        if pendingCount == 32 { foldPending() }
    }

    /// Folds the pending stripe into the lanes and keeps what lay past it.
    private mutating func foldPending() {
        _ = withUnsafeBytes(of: pending.0) { Checksum.stripes(&lanes, $0) }
        pending.0.0 = pending.1.0
        pending.0.1 = pending.1.1
        pendingCount -= 32
    }

    /// Adds `bytes`: into the pending stripe, whole stripes straight into
    /// the lanes, the rest pending.
    private mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        total += bytes.count
        let first = min(32 - pendingCount, bytes.count)
        let at = pendingCount
        withUnsafeMutableBytes(of: &pending) { $0.baseAddress?.advanced(by: at).copyMemory(from: base, byteCount: first) }
        pendingCount += first
        guard pendingCount == 32 else { return }
        foldPending()
        let taken = first + Checksum.stripes(&lanes, UnsafeRawBufferPointer(rebasing: bytes[first...]))
        let rest = bytes.count - taken
        withUnsafeMutableBytes(of: &pending) { $0.baseAddress?.copyMemory(from: base + taken, byteCount: rest) }
        pendingCount = rest
    }

    /// The checksum of the values added.
    package var checksum: Int64 {
        withUnsafeBytes(of: pending.0) { stripe in
            let tail = UnsafeRawBufferPointer(rebasing: stripe[..<pendingCount])
            return Int64(bitPattern: Checksum.digest(lanes: total >= 32 ? lanes : nil, total: total, tail: tail))
        }
    }
}
