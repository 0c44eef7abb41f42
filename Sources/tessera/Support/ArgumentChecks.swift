import ArgumentParser
import TesseraCommandSupport
import TesseraLayout

/// Range checks for numbers given on the command line. Numeric options are
/// parsed `.unconditional`ly, so that `--width -5` reaches these checks and
/// their message names the flag, instead of `-5` being taken for a flag.
enum ArgumentCheck {
    /// A container width or height: finite and above 0.
    static func extent(_ value: Double, flag: String) throws {
        guard value.isFinite else { throw ValidationError("\(flag) must be a finite number, got \(JSONWriter.format(value))") }
        guard value > 0 else { throw ValidationError("\(flag) must be positive, got \(JSONWriter.format(value))") }
    }

    /// A number given on the command line, read as the server reads one: in
    /// JSON's grammar (`390`, `390.5`, `1e3`; `0x10`, `+5` and `inf` are not).
    static func number(_ text: String) throws -> Double {
        guard let value = DecimalText.jsonNumber(text[...]) else {
            throw ValidationError("not a number as JSON writes one (390, 390.5, 1e3)")
        }
        return value
    }

    /// A section or item index.
    static func index(_ value: Int, flag: String) throws {
        guard value >= 0 else { throw ValidationError("\(flag) must be 0 or more, got \(value)") }
    }
}

extension ArgumentCheck {
    /// A spec name given with `flag`: valid UTF-8 (checked on the raw
    /// arguments, see ``RawArguments``), and a name by the rule of
    /// `Spec.nameProblem(_:)`. Fails with a ``CommandError`` that names the
    /// rule broken and the name.
    static func specName(_ name: String, flag: String) throws {
        if RawArguments.isRepaired(name) {
            throw CommandError("\(flag) is not valid UTF-8: \(name.quotedForMessage) (U+FFFD marks the bytes that are not)")
        }
        if let problem = Spec.nameProblem(name) { throw CommandError("\(problem): \(name.quotedForMessage)") }
    }
}
