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
    package static func parse(_ text: String, count: Int, shape: String) throws(Failure) -> [Double] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == count else { throw Failure(description: "expected \(count) numbers \(shape), got \(parts.count)") }
        var values: [Double] = []
        values.reserveCapacity(count)
        for part in parts {
            var number = part.drop(while: isBlank)
            while let last = number.last, isBlank(last) { number = number.dropLast() }
            guard let value = Double(number), value.isFinite else {
                throw Failure(description: "\(String(number).quotedForMessage) is not a finite number")
            }
            values.append(value)
        }
        return values
    }

    private static func isBlank(_ character: Character) -> Bool {
        character == " " || character == "\t"
    }
}

extension Rect {
    /// `x,y,w,h`: x and y may be negative (a rect above the content is a
    /// valid query); the width and height may not.
    package init(parsing text: String) throws(CommaNumbers.Failure) {
        let values = try CommaNumbers.parse(text, count: 4, shape: "x,y,w,h")
        guard values[2] >= 0, values[3] >= 0 else { throw CommaNumbers.Failure(description: "the width and height must not be negative") }
        self.init(x: values[0], y: values[1], width: values[2], height: values[3])
    }
}
