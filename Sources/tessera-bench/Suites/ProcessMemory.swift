#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// This process's memory as the kernel reports it.
enum ProcessMemory {
    /// The peak resident set size in bytes (VmHWM), or nil where the system
    /// does not report it.
    static var peakResidentBytes: Int? { statusField("VmHWM:") }

    /// The current resident set size in bytes (VmRSS).
    static var residentBytes: Int? { statusField("VmRSS:") }

    private static func statusField(_ name: String) -> Int? {
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix(name) else { continue }
            let digits = text.dropFirst(name.count).filter(\.isNumber)
            return Int(digits).map { $0 * 1024 }
        }
        return nil
    }
}
