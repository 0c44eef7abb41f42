/// A 128-bit content fingerprint (two independent FNV-1a 64 lanes), as hex.
///
/// It tells whether a spec or a section changed; it is not a defence against
/// someone crafting collisions, which a layout cache does not need.
package struct ContentHasher {
    private var low: UInt64 = 0xCBF2_9CE4_8422_2325
    private var high: UInt64 = 0x6C62_272E_07BB_0142
    private var length: UInt64 = 0

    mutating func combine(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            low = (low ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            high = (high ^ UInt64(byte)) &* 0x0000_0100_0000_0129
            length &+= 1
        }
    }

    /// The same as `combine(_ text: String)` of the text these UTF-8 bytes spell.
    mutating func combine(text utf8: [UInt8]) {
        utf8.withUnsafeBufferPointer { combine($0) }
        combine(CollectionOfOne(0xFF))
    }

    package mutating func combine(_ text: String) {
        combine(text.utf8)
        // A separator, so that ("ab", "c") and ("a", "bc") differ.
        combine(CollectionOfOne(0xFF))
    }

    /// The hasher's state as 24 bytes, little-endian, for a hash that goes
    /// on later (see `AppendableHash`).
    package var state: [UInt8] {
        [low, high, length].flatMap { lane in (0..<8).map { UInt8(truncatingIfNeeded: lane >> ($0 * 8)) } }
    }

    init() {}

    /// A hasher that goes on from `state`; nil unless it holds 24 bytes.
    package init?(state: ArraySlice<UInt8>) {
        guard state.count == 24 else { return nil }
        func lane(_ index: Int) -> UInt64 {
            (0..<8).reduce(0) { $0 | UInt64(state[state.startIndex + index * 8 + $1]) << ($1 * 8) }
        }
        (low, high, length) = (lane(0), lane(1), lane(2))
    }

    package var hex: String {
        let mixedHigh = high ^ length &* 0x9E37_79B9_7F4A_7C15
        return mixedHigh.paddedHex + low.paddedHex
    }
}
