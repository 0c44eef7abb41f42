import Foundation
import TesseraLayout

/// `x,y,w,h` on the command line. x and y may be negative (a rect above
/// the content is a valid query); the width and height may not.
struct RectArgument {
    var rect: Rect

    /// The transform of `--rect` and `--viewport`: its error says what is wrong.
    init(parsing argument: String) throws {
        let values = try CommaNumbers.parse(argument, count: 4, shape: "x,y,w,h")
        guard values[2] >= 0, values[3] >= 0 else { throw CommandError("the width and height must not be negative") }
        rect = Rect(x: values[0], y: values[1], width: values[2], height: values[3])
    }
}

/// `a,b` on the command line: a range along the scroll axis.
struct RangeArgument {
    var lower: Double
    var upper: Double

    init(lower: Double, upper: Double) {
        self.lower = lower
        self.upper = upper
    }

    /// The transform of `--range`.
    init(parsing argument: String) throws {
        let values = try CommaNumbers.parse(argument, count: 2, shape: "a,b")
        guard values[0] < values[1] else { throw CommandError("the start must be below the end") }
        self.init(lower: values[0], upper: values[1])
    }
}

/// Comma-separated finite numbers.
enum CommaNumbers {
    static func parse(_ argument: String, count: Int, shape: String) throws -> [Double] {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == count else { throw CommandError("expected \(count) numbers \(shape), got \(parts.count)") }
        return try parts.map { part in
            guard let value = Double(part), value.isFinite else { throw CommandError("'\(part)' is not a finite number") }
            return value
        }
    }
}
