import TesseraStore
/// A monotonic clock in seconds.
func now() -> Double {
    Clock.monotonic()
}

/// Runs `body` on the calling thread: from async code, the store's
/// synchronous hot reads (`elements`, `visibleElements`, `element`,
/// `answer`) are called inside it, so that a timed loop measures the read
/// and not a hop to the store's threads (an async context picks the
/// `async` forms otherwise).
func synchronously<T>(_ body: () throws -> T) rethrows -> T {
    try body()
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
