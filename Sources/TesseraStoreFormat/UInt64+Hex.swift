extension UInt64 {
    /// The value as 16 lowercase hex digits, zeros in front: written in
    /// place (a tile read names its revision with one).
    package var paddedHex: String {
        String(unsafeUninitializedCapacity: 16) { text in
            for index in 0..<16 {
                let digit = UInt8(truncatingIfNeeded: self >> UInt64(60 - 4 * index)) & 0xF
                text[index] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
            }
            return 16
        }
    }
}
