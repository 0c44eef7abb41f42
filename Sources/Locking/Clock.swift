#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The package's one clock, in seconds.
package enum Clock {
    /// Seconds on a monotonic clock, for durations.
    package static func monotonic() -> Double {
        read(CLOCK_MONOTONIC)
    }

    /// Seconds since 1970, for timestamps.
    package static func wall() -> Double {
        read(CLOCK_REALTIME)
    }

    package static func read(_ clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
