/// Order statistics of measured samples, for the benchmarks.
struct Samples {
    private(set) var values: [Double] = []

    init() {}

    /// Adds one measurement.
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

    /// The middle value (``percentile(_:)`` at one half).
    var median: Double { percentile(0.5) }

    /// The samples of both, for order statistics over them together.
    static func + (lhs: Samples, rhs: Samples) -> Samples {
        var merged = lhs
        merged.values += rhs.values
        return merged
    }
}
