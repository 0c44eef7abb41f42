#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How many workers a write may run at once.
extension LayoutStore {
    /// The workers of a save or a batch, at most.
    package static let maximumJobs = 1_024

    /// The machine's cores: the widths a save lays out at once when not told.
    package static var machineCores: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// `jobs` (`fallback` when nil) when it is 1 to ``maximumJobs``.
    package static func checkedJobs(_ jobs: Int?, fallback: Int) throws -> Int {
        let jobs = jobs ?? fallback
        guard (1...maximumJobs).contains(jobs) else {
            throw StoreError(.invalidArgument, "jobs must be 1 to \(maximumJobs) workers, not \(jobs)")
        }
        return jobs
    }
}
