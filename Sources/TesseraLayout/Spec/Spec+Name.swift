/// The rule for spec names, the keys a store files specs under: not empty,
/// at most ``Spec/maximumNameBytes`` bytes of UTF-8, no control characters
/// or line breaks. Names are compared by canonical equivalence, as Swift
/// compares strings: every entry point files and looks a name up in
/// Unicode Normalization Form C (``Spec/normalizedName(_:)``).
/// (Valid UTF-8 comes with every Swift string; the JSON parser refuses
/// invalid bytes and lone surrogate escapes before a name is read.)
extension Spec {
    /// The longest name, in bytes of UTF-8: 256.
    public static let maximumNameBytes = 256

    /// `name` in Unicode Normalization Form C: the one spelling of all the
    /// names canonically equivalent to it (`café` with a precomposed é, for
    /// `cafe` followed by U+0301), which a store files and looks up by bytes.
    public static func normalizedName(_ name: String) -> String {
        // ASCII is its own NFC. The bytes in place where the string has them
        // (every native string): a byte-by-byte iterator costs a warm query 3%.
        let isASCII = name.utf8.withContiguousStorageIfAvailable { bytes in !bytes.contains { $0 >= 0x80 } }
            ?? !name.utf8.contains { $0 >= 0x80 }
        guard !isASCII else { return name }
        let normalized = name._nfcCodeUnits
        return normalized.elementsEqual(name.utf8) ? name : String(decoding: normalized, as: UTF8.self)
    }

    /// The rule `name` breaks, in words, or nil when it is a valid name.
    public static func nameProblem(_ name: String) -> String? {
        if name.isEmpty { return "a spec name must not be empty" }
        let bytes = name.utf8.count
        if bytes > maximumNameBytes {
            return "a spec name must be at most \(maximumNameBytes) bytes of UTF-8, got \(bytes) bytes"
        }
        for (offset, scalar) in name.unicodeScalars.enumerated() where scalar.breaksLines {
            return "a spec name must not contain control characters or line breaks, got U+\(scalar.hexDigits) at character \(offset)"
        }
        return nil
    }

    /// Checks `name` against the rule.
    /// - Throws: ``SpecError`` at `path` naming the rule broken.
    package static func checkName(_ name: String, at path: JSONPath) throws {
        if let problem = nameProblem(name) { throw path.error(problem) }
    }
}

extension Unicode.Scalar {
    /// A C0 or C1 control, DEL, or U+2028/U+2029, which end a line as a
    /// newline does: never in a name, which one-line messages and tables print.
    package var breaksLines: Bool {
        switch properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    /// The code point in hex, at least four digits (`000A`, `2028`, `1F600`).
    package var hexDigits: String {
        let hex = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
