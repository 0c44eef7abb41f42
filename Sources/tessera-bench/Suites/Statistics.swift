import Locking
import TesseraLayout
import TesseraStore
/// A monotonic clock in seconds.
func now() -> Double {
    Clock.monotonic()
}

/// Runs the queries of `sources` over the same `viewports`, in turn for
/// each viewport (so that a drift of the machine's speed touches every
/// source alike), the first in turn rotating (so that none always finds
/// the caches warmed by another's reading of the same viewport), one
/// after the other; each one's median, in microseconds.
func medianMicroseconds(of sources: [(Rect) async throws -> Int], over viewports: [Rect]) async throws -> [Double] {
    var samples = [Samples](repeating: Samples(), count: sources.count)
    for (index, viewport) in viewports.enumerated() {
        for turn in sources.indices {
            let source = (index + turn) % sources.count
            let start = now()
            _ = try await sources[source](viewport)
            samples[source].add(now() - start)
        }
    }
    return samples.map { $0.median * 1e6 }
}

/// The median of each source's medians over the runs (`perRun[run][source]`).
func medianOfRuns(_ perRun: [[Double]]) -> [Double] {
    guard let sources = perRun.first?.count else { return [] }
    return (0..<sources).map { source in
        var samples = Samples()
        perRun.forEach { samples.add($0[source]) }
        return samples.median
    }
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
