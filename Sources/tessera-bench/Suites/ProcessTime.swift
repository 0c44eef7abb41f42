#if canImport(Glibc)
import Glibc
private let ofThisProcess = __rusage_who_t(RUSAGE_SELF.rawValue)
#elseif canImport(Darwin)
import Darwin
private let ofThisProcess = RUSAGE_SELF
#endif

/// This process's CPU time as the kernel counts it.
enum ProcessTime {
    /// User and system seconds of every thread of the process so far.
    static var cpuSeconds: Double {
        var usage = rusage()
        guard getrusage(ofThisProcess, &usage) == 0 else { return 0 }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
