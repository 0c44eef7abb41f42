/// The text forms of rects and ranges that the CLI's flags and the HTTP
/// service's `rect=` parameter share: comma-separated finite numbers.
package enum CommaNumbers {
    /// What is wrong with a text, as a phrase for people.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// `count` finite numbers separated by commas (spaces around each
    /// allowed); `shape` names them in the error (`x,y,w,h`). Not generic:
    /// the server parses one per request, and a generic call from another
    /// module would run unspecialized.
    package static func parse(_ text: Substring, count: Int, shape: String) throws(Failure) -> [Double] {
        let parts = text.utf8.reduce(1) { $1 == UInt8(ascii: ",") ? $0 + 1 : $0 }
        guard parts == count else { throw Failure(description: "expected \(count) numbers \(shape), got \(parts)") }
        var values: [Double] = []
        values.reserveCapacity(count)
        var rest = text.utf8[...]
        while true {
            let comma = rest.firstIndex(of: UInt8(ascii: ","))
            var number = rest[..<(comma ?? rest.endIndex)]
            while let first = number.first, isBlank(first) { number = number.dropFirst() }
            while let last = number.last, isBlank(last) { number = number.dropLast() }
            // Numbers as JSON writes them, as every number the CLI and the server take.
            guard let value = DecimalText.jsonNumber(Substring(number)), value.isFinite else {
                throw Failure(description: "\(String(Substring(number)).quotedForMessage) is not a finite number")
            }
            values.append(value)
            guard let comma else { return values }
            rest = rest[rest.index(after: comma)...]
        }
    }

    /// ``parse(_:count:shape:)-(Substring,_,_)`` of a whole string.
    package static func parse(_ text: String, count: Int, shape: String) throws(Failure) -> [Double] {
        try parse(text[...], count: count, shape: shape)
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }
}

extension Rect {
    /// `x,y,w,h`: x and y may be negative (a rect above the content is a
    /// valid query); the width and height may not.
    package init(parsing text: Substring) throws(CommaNumbers.Failure) {
        let values = try CommaNumbers.parse(text, count: 4, shape: "x,y,w,h")
        guard values[2] >= 0, values[3] >= 0 else { throw CommaNumbers.Failure(description: "the width and height must not be negative") }
        self.init(x: values[0], y: values[1], width: values[2], height: values[3])
    }

    /// ``init(parsing:)-(Substring)`` of a whole string.
    package init(parsing text: String) throws(CommaNumbers.Failure) {
        try self.init(parsing: text[...])
    }
}
