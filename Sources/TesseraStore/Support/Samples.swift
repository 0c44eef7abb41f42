/// Order statistics of measured samples, for the benchmarks of the
/// package's two programs (`tessera bench`, `tessera-server bench-encoding`).
package struct Samples {
    package private(set) var values: [Double] = []

    package init() {}

    package mutating func add(_ value: Double) {
        values.append(value)
    }

    /// The value below which `fraction` of the samples lie (nearest rank).
    package func percentile(_ fraction: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    package var median: Double { percentile(0.5) }
}
