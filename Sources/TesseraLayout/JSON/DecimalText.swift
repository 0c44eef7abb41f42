/// Reading decimal numbers without the C library when the answer is
/// exact by construction.
package enum DecimalText {
    /// `Double(text)`: the same value, read here without the C library
    /// when the text is a plain decimal ``exactValue(_:)`` answers.
    /// A NUL is never part of a number: the C library would stop reading there.
    package static func double(_ text: Substring) -> Double? {
        if let exact = exactValue(text.utf8) { return exact }
        guard !text.utf8.contains(0) else { return nil }
        return Double(text)
    }

    /// The number `text` writes in JSON's grammar (`390`, `-0.5`, `1e3`; not
    /// `0x10`, `+5`, `.5`, `inf` or blanks), as the server and the CLI read
    /// every number they are given; nil for any other text.
    package static func jsonNumber(_ text: Substring) -> Double? {
        isJSONNumber(text.utf8) ? double(text) : nil
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    private static func isJSONNumber(_ utf8: Substring.UTF8View) -> Bool {
        var rest = utf8
        func digits() -> Int {
            let count = rest.prefix(while: { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }).count
            rest = rest.dropFirst(count)
            return count
        }
        if rest.first == UInt8(ascii: "-") { rest = rest.dropFirst() }
        if rest.first == UInt8(ascii: "0") {
            rest = rest.dropFirst()
        } else if digits() == 0 {
            return false
        }
        if rest.first == UInt8(ascii: ".") {
            rest = rest.dropFirst()
            guard digits() > 0 else { return false }
        }
        if rest.first == UInt8(ascii: "e") || rest.first == UInt8(ascii: "E") {
            rest = rest.dropFirst()
            if rest.first == UInt8(ascii: "+") || rest.first == UInt8(ascii: "-") { rest = rest.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return rest.isEmpty
    }

    /// Powers of ten that a Double holds exactly (10^0 through 10^22).
    private static let exactPowersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { value, _ in value * 10 }
    }

    /// The value of `-?[0-9]+(\.[0-9]+)?` when it has at most 15
    /// significant digits, else nil (the caller then asks the standard
    /// library, whose conversion is correctly rounded too).
    ///
    /// With at most 15 digits the digits as an integer are exact in a
    /// Double, and so is 10^k for the k ≤ 22 fraction digits that allows;
    /// one IEEE division of two exact values is correctly rounded, so the
    /// result is the same Double `Double(text)` gives (Clinger's fast path).
    package static func exactValue(_ bytes: some Collection<UInt8>) -> Double? {
        var index = bytes.startIndex
        guard index != bytes.endIndex else { return nil }
        var negative = false
        if bytes[index] == UInt8(ascii: "-") {
            negative = true
            bytes.formIndex(after: &index)
        }
        var mantissa: UInt64 = 0
        var significant = 0
        var integerDigits = 0
        var fractionDigits = 0
        var inFraction = false
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                guard !inFraction, integerDigits > 0 else { return nil }
                inFraction = true
            } else {
                let digit = byte &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                if inFraction { fractionDigits += 1 } else { integerDigits += 1 }
                if mantissa != 0 || digit != 0 { significant += 1 }
                guard significant <= 15 else { return nil }
                mantissa = mantissa * 10 + UInt64(digit)
            }
            bytes.formIndex(after: &index)
        }
        guard integerDigits > 0, !inFraction || fractionDigits > 0, fractionDigits < exactPowersOfTen.count else { return nil }
        let value = fractionDigits == 0 ? Double(mantissa) : Double(mantissa) / exactPowersOfTen[fractionDigits]
        return negative ? -value : value
    }
}
