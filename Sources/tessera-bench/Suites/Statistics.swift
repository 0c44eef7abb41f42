import TesseraStore
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
