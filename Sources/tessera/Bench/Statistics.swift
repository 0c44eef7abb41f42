import TesseraStore
/// Order statistics of measured samples.
struct Samples {
    private(set) var values: [Double] = []

    mutating func add(_ value: Double) {
        values.append(value)
    }

    /// The value below which `fraction` of the samples lie (nearest rank).
    func percentile(_ fraction: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    var median: Double { percentile(0.5) }
}

/// A monotonic clock in seconds.
func now() -> Double {
    Clock.monotonic()
}

/// Measures `body` `runs` times and returns the samples, in seconds.
func measure(runs: Int, _ body: () throws -> Void) rethrows -> Samples {
    var samples = Samples()
    for _ in 0..<runs {
        let start = now()
        try body()
        samples.add(now() - start)
    }
    return samples
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
