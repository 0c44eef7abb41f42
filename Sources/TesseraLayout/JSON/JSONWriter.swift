/// Writes JSON text: compact, with doubles that read back as the same value.
package enum JSONWriter {
    /// The shortest text that parses back to exactly `value`; integral values
    /// print without a fraction (`390`, not `390.0`).
    package static func format(_ value: Double) -> String {
        var bytes: [UInt8] = []
        append(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``format(_:)``'s text of `value` to `bytes`.
    package static func append(_ value: Double, to bytes: inout [UInt8]) {
        ByteCursor.append(to: &bytes, capacity: ByteCursor.maximumNumberLength) { $0.write(value) }
    }

    /// Appends the decimal digits of `value` to `bytes`.
    package static func append(_ value: Int, to bytes: inout [UInt8]) {
        ByteCursor.append(to: &bytes, capacity: 24) { $0.write(value) }
    }

    package static func quote(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 2)
        appendQuoted(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text` as a JSON string: quotes, backslashes and control
    /// characters escaped, everything else as its UTF-8 bytes.
    private static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings (keys, kinds, ids) need no escape: one copy.
        let plain = text.utf8.withContiguousStorageIfAvailable { utf8 in
            !utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
        }
        if plain == true {
            bytes.append(contentsOf: text.utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Canonical text of a value: keys sorted, no white space. Two specs with
    /// the same canonical text describe the same layout.
    package static func canonical(_ value: JSONValue) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        appendCanonical(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The canonical text of `value` and, from the same rendering, the text
    /// of `value` without its top-level member `key` (the same when it has none).
    package static func canonical(_ value: JSONValue, andWithout key: String) -> (full: String, without: String) {
        let (full, without) = canonicalBytes(value, andWithout: key)
        return (String(decoding: full, as: UTF8.self), String(decoding: without, as: UTF8.self))
    }

    /// ``canonical(_:andWithout:)`` as UTF-8 bytes.
    package static func canonicalBytes(_ value: JSONValue, andWithout key: String) -> (full: [UInt8], without: [UInt8]) {
        let (bytes, marked) = canonicalBytes(value, marking: key)
        guard let marked else { return (bytes, bytes) }
        var without = bytes
        without.removeSubrange(marked)
        return (bytes, without)
    }

    /// The canonical text of `value` and where its top-level member `key`
    /// lies in it: the member's bytes and one comma beside it (nil when
    /// `value` has no such member).
    package static func canonicalBytes(_ value: JSONValue, marking key: String) -> (bytes: [UInt8], member: Range<Int>?) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        var marked: Range<Int>?
        appendCanonical(value, to: &bytes, marking: key, range: &marked)
        return (bytes, marked)
    }

    private static func appendCanonical(_ value: JSONValue, to bytes: inout [UInt8]) {
        var unused: Range<Int>?
        appendCanonical(value, to: &bytes, marking: nil, range: &unused)
    }

    // Bytes, not String appends: stores hash and write the canonical text of
    // every section they save, and String appends made it most of the cost
    // of saving a small feed.
    /// With `key`, `range` is set to the bytes of that member of a
    /// top-level object and one comma beside it: without them, the text is
    /// that of the object without the member.
    private static func appendCanonical(_ value: JSONValue, to bytes: inout [UInt8], marking key: String?, range: inout Range<Int>?) {
        switch value {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number): append(number, to: &bytes)
        case .string(let string): appendQuoted(string, to: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                appendCanonical(element, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            var first = true
            // The marked member came first: the comma after it goes with it.
            var markedFirst = false
            func member(_ index: Int) {
                let start = bytes.count
                if !first {
                    bytes.append(UInt8(ascii: ","))
                    if markedFirst, let marked = range {
                        range = marked.lowerBound..<(marked.upperBound + 1)
                        markedFirst = false
                    }
                }
                appendQuoted(object.keys[index], to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                appendCanonical(object.values[index], to: &bytes)
                if let key, object.keys[index] == key {
                    range = start..<bytes.count
                    markedFirst = first
                }
                first = false
            }
            // null counts as absent, so it must not change the canonical text.
            if object.count == 1 {
                if object.values[0] != .null { member(0) }
            } else {
                let order = object.keys.indices
                    .filter { object.values[$0] != .null }
                    .sorted { object.keys[$0] < object.keys[$1] }
                for index in order { member(index) }
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }
}
