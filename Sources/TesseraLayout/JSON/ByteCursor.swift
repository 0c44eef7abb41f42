/// Writes JSON text into memory the caller made large enough: the number
/// rule of ``JSONWriter/format(_:)`` and the pieces of ``LayoutJSON``, with
/// no strings and no growth checks on the way.
struct ByteCursor {
    /// The most bytes ``write(_:)-(Double)`` writes: a sign, 17 significant
    /// digits, a point and an exponent (`-2.2250738585072014e-308`).
    static let maximumNumberLength = 32

    private(set) var next: UnsafeMutablePointer<UInt8>

    init(_ start: UnsafeMutablePointer<UInt8>) {
        next = start
    }

    /// Calls `body` with a cursor over `capacity` bytes of temporary memory,
    /// then appends what it wrote to `bytes`.
    @inline(__always)
    static func append(to bytes: inout [UInt8], capacity: Int, _ body: (inout ByteCursor) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            guard let start = buffer.baseAddress else { return }
            var cursor = ByteCursor(start)
            body(&cursor)
            bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: cursor.next - start))
        }
    }

    @inline(__always)
    mutating func write(_ byte: UInt8) {
        next.initialize(to: byte)
        next += 1
    }

    @inline(__always)
    mutating func write(_ text: StaticString) {
        next.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        next += text.utf8CodeUnitCount
    }

    /// `, `, between the numbers of an array: two stores, where a call to
    /// memmove would cost more.
    @inline(__always)
    mutating func writeSeparator() {
        write(UInt8(ascii: ","))
        write(UInt8(ascii: " "))
    }

    /// The decimal digits of `value`.
    @inline(__always)
    mutating func write(_ value: Int) {
        if value < 0 { write(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        next += digits
        var position = next
        repeat {
            position -= 1
            position.initialize(to: UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
    }

    /// The shortest text that parses back to exactly `value`; integral
    /// values without a fraction (`390`, not `390.0`), negative zero as `-0`.
    @inline(__always)
    mutating func write(_ value: Double) {
        if let integer = Self.integer(value) {
            if integer == 0, value.sign == .minus {
                write("-0")
            } else {
                write(integer)
            }
        } else {
            // Swift's description is the shortest round-trip form; it never
            // prints inf or nan here because specs reject non-finite numbers.
            // The runtime function behind it writes into our memory directly.
            // Some runtimes (Swift 6.2 to 6.3) leave the zeros of the text
            // unwritten, expecting a buffer of "0"s as description passes.
            next.initialize(repeating: UInt8(ascii: "0"), count: Self.maximumNumberLength)
            next += Int(swiftFloat64ToString(next, UInt(Self.maximumNumberLength), value, false))
        }
    }
}

extension ByteCursor {
    /// `value` as an integer when it is one below 2^53 in magnitude
    /// (where every integer is a Double), by two conversions the processor
    /// does inline, instead of a call to the C library's `round`.
    @inline(__always)
    static func integer(_ value: Double) -> Int? {
        guard value.magnitude < 9_007_199_254_740_992 else { return nil }
        let integer = Int(value)
        return Double(integer) == value ? integer : nil
    }
}

/// The Swift runtime's formatter of `Double.description` (debug false), an
/// entry point of its ABI, which writes the text into a buffer and returns
/// its length; called directly so that no string is made per number (a
/// 17-digit description is a heap string). LayoutJSONTests and
/// JSONWriterTests check its text against `description` for many doubles.
@_silgen_name("swift_float64ToString")
private func swiftFloat64ToString(
    _ buffer: UnsafeMutablePointer<UInt8>,
    _ bufferLength: UInt,
    _ value: Double,
    _ debug: Bool
) -> UInt64
