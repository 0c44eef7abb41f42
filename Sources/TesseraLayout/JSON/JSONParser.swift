/// A strict JSON parser over UTF-8 bytes (RFC 8259, no extensions).
///
/// Specs need exact paths in errors and NDJSON feeds need millions of small
/// objects parsed quickly; Foundation's decoder gives neither.
package struct JSONParser {
    /// A syntax error with its position in the text.
    package struct SyntaxError: Error, Sendable, CustomStringConvertible {
        package var line: Int
        package var column: Int
        package var reason: String
        package var description: String { "line \(line), column \(column): \(reason)" }
    }

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    private static let maximumDepth = 512

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses one complete JSON document.
    package static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index < bytes.count {
            throw parser.error("unexpected text after the JSON value")
        }
        return value
    }

    /// Parses one complete JSON document from a string.
    package static func parse(_ text: String) throws(SyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    private func error(_ reason: String) -> SyntaxError {
        var line = 1
        var column = 1
        for byte in bytes[..<min(index, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return SyntaxError(line: line, column: column, reason: reason)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(SyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        case 0xEF where bytes[index...].starts(with: [0xEF, 0xBB, 0xBF]):
            throw error("a UTF-8 byte order mark (bytes EF BB BF), which JSON text must not carry: save it as UTF-8 without a BOM")
        default: throw error("unexpected \(Self.describe(bytes[index]))")
        }
    }

    private mutating func expectLiteral(_ literal: String) throws(SyntaxError) {
        for expected in literal.utf8 {
            guard index < bytes.count, bytes[index] == expected else { throw error("invalid literal") }
            index += 1
        }
    }

    private mutating func enterContainer() throws(SyntaxError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func parseObject() throws(SyntaxError) -> JSONValue {
        try enterContainer()
        defer { depth -= 1 }
        index += 1
        var object = JSONObject()
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key in quotes") }
            let key = try parseString()
            if object[key] != nil { throw error("duplicate key \(key.quotedForMessage)") }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
            index += 1
            skipWhitespace()
            object.appendUnchecked(key, try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input in an object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(object)
            } else {
                throw error("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func parseArray() throws(SyntaxError) -> JSONValue {
        try enterContainer()
        defer { depth -= 1 }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input in an array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            } else {
                throw error("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func parseString() throws(SyntaxError) -> String {
        index += 1
        let start = index
        var ascii = true
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                // ASCII is valid UTF-8 as it is: only other text is checked.
                let text = ascii ? String(decoding: bytes[start..<index], as: UTF8.self) : try validUTF8(bytes[start..<index], at: start)
                index += 1
                return text
            }
            ascii = ascii && byte < 0x80
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character in a string") }
            index += 1
        }
        var scalars = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                // Escapes only add valid UTF-8: an invalid byte is one of the input's.
                guard let text = String(validating: scalars, as: UTF8.self) else { return try validUTF8(bytes[start..<index], at: start) }
                index += 1
                return text
            }
            if byte < 0x20 { throw error("control character in a string") }
            if byte != UInt8(ascii: "\\") {
                scalars.append(byte)
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { break }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append(0x22)
            case UInt8(ascii: "\\"): scalars.append(0x5C)
            case UInt8(ascii: "/"): scalars.append(0x2F)
            case UInt8(ascii: "b"): scalars.append(0x08)
            case UInt8(ascii: "f"): scalars.append(0x0C)
            case UInt8(ascii: "n"): scalars.append(0x0A)
            case UInt8(ascii: "r"): scalars.append(0x0D)
            case UInt8(ascii: "t"): scalars.append(0x09)
            case UInt8(ascii: "u"):
                var code = try parseHex4()
                if (0xD800..<0xDC00).contains(code) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw error("unpaired surrogate in a string")
                    }
                    index += 2
                    let low = try parseHex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate in a string") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(code) {
                    throw error("unpaired surrogate in a string")
                }
                guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                throw error("invalid escape in a string")
            }
        }
        throw error("unterminated string")
    }

    /// The text of a string's raw bytes; invalid UTF-8 (a stray byte, an
    /// overlong form, an encoded surrogate) is an error at its first byte,
    /// never replaced, so that two different byte strings never read as the
    /// same text.
    private mutating func validUTF8(_ slice: ArraySlice<UInt8>, at start: Int) throws(SyntaxError) -> String {
        if let text = String(validating: slice, as: UTF8.self) { return text }
        var position = slice.startIndex
        while position < slice.endIndex {
            let lead = slice[position]
            let length = lead < 0x80 ? 1 : lead >= 0xC2 && lead < 0xE0 ? 2 : lead >= 0xE0 && lead < 0xF0 ? 3 : lead >= 0xF0 && lead < 0xF5 ? 4 : 0
            let end = position + length
            guard length > 0, end <= slice.endIndex,
                  String(validating: slice[position..<end], as: UTF8.self) != nil else {
                index = position
                throw error("invalid UTF-8 in a string")
            }
            position = end
        }
        index = start
        throw error("invalid UTF-8 in a string")
    }

    private mutating func parseHex4() throws(SyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("invalid \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(SyntaxError) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("leading zero in a number") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: digits expected after '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: digits expected in the exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        // Up to 15 significant digits without an exponent are converted
        // exactly here; the rest goes through the standard library's
        // correctly rounded conversion.
        if let value = DecimalText.exactValue(bytes[start..<index]) { return value }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text) else { throw error("invalid number") }
        return value
    }

    /// A byte for a message: a printable ASCII character in quotes, any
    /// other byte (a control character, a byte of UTF-8 text) in hex, so
    /// that the message stays one line of text.
    static func describe(_ byte: UInt8) -> String {
        guard (0x21...0x7E).contains(byte) else {
            let hex = String(byte, radix: 16, uppercase: true)
            return "byte 0x" + (hex.count < 2 ? "0" + hex : hex)
        }
        return "character '\(Character(Unicode.Scalar(byte)))'"
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
