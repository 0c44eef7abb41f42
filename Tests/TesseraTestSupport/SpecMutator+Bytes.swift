import TesseraLayout

/// Mutations of a file's bytes.
extension SpecMutator {
    /// Byte sequences that are not UTF-8: a stray continuation byte, bytes
    /// that never occur, an overlong form, an encoded surrogate, a code point
    /// above U+10FFFF, sequences cut short.
    static let invalidUTF8: [[UInt8]] = [
        [0x80], [0xFF], [0xFE, 0xFF], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80],
        [0xED, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xC3],
    ]

    /// Escapes a JSON string may not hold: lone or reversed surrogates, bad hex, cut escapes.
    static let badEscapes = [
        #"\uD800"#, #"\uDC00"#, #"\uDBFF\uDBFF"#, #"\uDFFF\uD800"#, #"\uD83D"#, #"\uD83Dx"#, #"\uD83D\u0041"#,
        #"\u12G4"#, #"\u"#, #"\x41"#, #"\"#, #"\U0041"#, #"\u00"#,
    ]

    /// Numbers beyond what a spec can use: overflowing to infinity, huge
    /// integers, beyond 2^53, below the smallest double, many digits.
    static let hugeNumbers = [
        "1e999", "-1e999", "1e308", "-1.7976931348623157e308", "123456789012345678901234567890", "9007199254740993",
        "1e-400", "4.9e-324", "1000000000", "1000000001", "4294967296", "18446744073709551616", "0.0000000000000000000001",
        "1E+2", "-0", "-0.0e0", String(repeating: "9", count: 400), "1" + String(repeating: "0", count: 30) + ".5",
    ]

    /// Applies one byte-level mutation to `bytes`; returns what it did.
    static func mutateBytes(_ bytes: inout [UInt8], random: inout SeededRandom) -> String {
        let position = random.int(0...bytes.count)
        switch random.int(0...9) {
        case 0:
            guard !bytes.isEmpty else { fallthrough }
            let at = min(position, bytes.count - 1)
            let bit = UInt8(1) << UInt8(random.int(0...7))
            bytes[at] ^= bit
            return "flipped bit \(bit) of byte \(at)"
        case 1:
            bytes.removeSubrange(position...)
            return "truncated at byte \(position)"
        case 2:
            let inserted = (0..<random.int(1...8)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            bytes.insert(contentsOf: inserted, at: position)
            return "inserted random bytes \(inserted) at \(position)"
        case 3:
            let inserted = invalidUTF8[random.int(0...invalidUTF8.count - 1)]
            let at = insideString(bytes, random: &random) ?? position
            bytes.insert(contentsOf: inserted, at: at)
            return "inserted invalid UTF-8 \(inserted) at \(at)"
        case 4:
            let escape = badEscapes[random.int(0...badEscapes.count - 1)]
            let at = insideString(bytes, random: &random) ?? position
            bytes.insert(contentsOf: Array(escape.utf8), at: at)
            return "inserted escape \(escape) at \(at)"
        case 5:
            let number = hugeNumbers[random.int(0...hugeNumbers.count - 1)]
            guard let digits = numberRange(bytes, random: &random) else {
                bytes.insert(contentsOf: Array(number.utf8), at: position)
                return "inserted number \(number) at \(position)"
            }
            bytes.replaceSubrange(digits, with: Array(number.utf8))
            return "replaced the number at \(digits.lowerBound) with \(number)"
        case 6:
            // Deep nesting, around the parser's limit of 512 levels.
            let depth = [100, 511, 512, 513, 600, 5000][random.int(0...5)]
            let object = random.chance(0.5)
            let open = object ? Array(#"{"a":"#.utf8) : [UInt8(ascii: "[")]
            let close = object ? UInt8(ascii: "}") : UInt8(ascii: "]")
            let closed = random.chance(0.7) ? depth : random.int(0...depth)
            let nested = Array(repeating: open, count: depth).flatMap { $0 } + Array("1".utf8) + Array(repeating: close, count: closed)
            let at = valueStart(bytes, random: &random) ?? position
            bytes.insert(contentsOf: nested + Array(",".utf8), at: at)
            return "inserted \(depth) nested \(object ? "objects" : "arrays") (\(closed) closed) at \(at)"
        case 7:
            // A key written again before itself, in the same object.
            guard let (at, key) = keyStart(bytes, random: &random) else { fallthrough }
            bytes.insert(contentsOf: Array("\(key): 1, ".utf8), at: at)
            return "duplicated key \(key) at \(at)"
        case 8:
            let length = random.int(1...min(16, max(1, bytes.count)))
            let start = min(position, max(0, bytes.count - length))
            bytes.removeSubrange(start..<min(bytes.count, start + length))
            return "removed \(length) bytes at \(start)"
        default:
            let text = [",", "]", "}", "[", "{", ":", "\"", "\n", "\t", "\u{0}", "/*", "NaN", "Infinity", "'", "tru", "nul", "0x1F"][random.int(0...16)]
            bytes.insert(contentsOf: Array(text.utf8), at: position)
            return "inserted \(text.debugDescription) at \(position)"
        }
    }

    /// A position just after the opening quote of a string, or nil.
    private static func insideString(_ bytes: [UInt8], random: inout SeededRandom) -> Int? {
        let quotes = bytes.indices.filter { bytes[$0] == UInt8(ascii: "\"") }
        guard !quotes.isEmpty else { return nil }
        return quotes[random.int(0...quotes.count - 1)] + 1
    }

    /// The range of one number's text, or nil.
    private static func numberRange(_ bytes: [UInt8], random: inout SeededRandom) -> Range<Int>? {
        let numeric: (UInt8) -> Bool = { (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") }
        let starts = bytes.indices.filter { index in
            (0x30...0x39).contains(bytes[index]) && (index == 0 || [UInt8(ascii: ":"), UInt8(ascii: " "), UInt8(ascii: "["), UInt8(ascii: ",")].contains(bytes[index - 1]))
        }
        guard !starts.isEmpty else { return nil }
        let start = starts[random.int(0...starts.count - 1)]
        var end = start
        while end < bytes.count, numeric(bytes[end]) { end += 1 }
        return start..<end
    }

    /// A position just after `[` or `: `, where a value starts, or nil.
    private static func valueStart(_ bytes: [UInt8], random: inout SeededRandom) -> Int? {
        let starts = bytes.indices.filter { bytes[$0] == UInt8(ascii: "[") }.map { $0 + 1 }
        guard !starts.isEmpty else { return nil }
        return starts[random.int(0...starts.count - 1)]
    }

    /// Where a key starts (its opening quote) and the key in quotes, or nil.
    private static func keyStart(_ bytes: [UInt8], random: inout SeededRandom) -> (Int, String)? {
        var keys: [(Int, String)] = []
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "\""), index > 0, [UInt8(ascii: "{"), UInt8(ascii: ","), UInt8(ascii: " ")].contains(bytes[index - 1]) else {
                index += 1
                continue
            }
            var end = index + 1
            while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += 1 }
            if end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: ":") {
                keys.append((index, String(decoding: bytes[index...end], as: UTF8.self)))
            }
            index = end + 1
        }
        guard !keys.isEmpty else { return nil }
        return keys[random.int(0...keys.count - 1)]
    }
}
