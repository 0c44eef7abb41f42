import TesseraCommandSupport
import TesseraLayout

/// `x,y,w,h` on the command line (the syntax the HTTP service's `rect=`
/// shares, ``Rect/init(parsing:)``).
struct RectArgument {
    var rect: Rect

    /// The transform of `--rect` and `--viewport`: its error says what is wrong.
    init(parsing argument: String) throws {
        do {
            rect = try Rect(parsing: argument)
        } catch {
            throw CommandError(error.description)
        }
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
        let values: [Double]
        do {
            values = try CommaNumbers.parse(argument, count: 2, shape: "a,b")
        } catch {
            throw CommandError(error.description)
        }
        guard values[0] < values[1] else { throw CommandError("the start must be below the end") }
        self.init(lower: values[0], upper: values[1])
    }
}
