import ArgumentParser
import TesseraLayout

/// `x,y,w,h` on the command line.
struct RectArgument: ExpressibleByArgument {
    var rect: Rect

    init?(argument: String) {
        let parts = argument.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let width = parts[2], let height = parts[3],
              [x, y, width, height].allSatisfy(\.isFinite), width >= 0, height >= 0
        else { return nil }
        rect = Rect(x: x, y: y, width: width, height: height)
    }

    static var defaultCompletionKind: CompletionKind { .default }
}

/// `a,b` on the command line: a range along the scroll axis.
struct RangeArgument: ExpressibleByArgument {
    var lower: Double
    var upper: Double

    init(lower: Double, upper: Double) {
        self.lower = lower
        self.upper = upper
    }

    init?(argument: String) {
        let parts = argument.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let lower = parts[0], let upper = parts[1], lower.isFinite, upper.isFinite, lower < upper else { return nil }
        self.lower = lower
        self.upper = upper
    }
}

import Foundation
