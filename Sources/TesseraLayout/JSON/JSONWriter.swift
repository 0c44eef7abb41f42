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
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// Canonical text of a value: keys sorted, no white space. Two specs with
    /// the same canonical text describe the same layout.
    package static func canonical(_ value: JSONValue) -> String {
        var text = ""
        appendCanonical(value, to: &text)
        return text
    }

    private static func appendCanonical(_ value: JSONValue, to text: inout String) {
        switch value {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .number(let number): text += format(number)
        case .string(let string): text += quote(string)
        case .array(let elements):
            text += "["
            for (offset, element) in elements.enumerated() {
                if offset > 0 { text += "," }
                appendCanonical(element, to: &text)
            }
            text += "]"
        case .object(let object):
            text += "{"
            // null counts as absent, so it must not change the canonical text.
            let order = object.keys.indices
                .filter { object.values[$0] != .null }
                .sorted { object.keys[$0] < object.keys[$1] }
            for (offset, index) in order.enumerated() {
                if offset > 0 { text += "," }
                text += quote(object.keys[index])
                text += ":"
                appendCanonical(object.values[index], to: &text)
            }
            text += "}"
        }
    }
}
