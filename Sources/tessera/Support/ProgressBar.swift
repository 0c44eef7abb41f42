import Foundation
import TesseraLayout
import TesseraStore

#if canImport(Glibc)
import Glibc
#endif

/// A one-line progress bar on standard error: elements/s, percentage, ETA.
/// Drawn only when standard error is a terminal.
final class ProgressBar: @unchecked Sendable {
    private let enabled: Bool
    private var started = 0.0

    init(enabled: Bool) {
        self.enabled = enabled && isatty(2) != 0
    }

    func start() {
        started = Self.now()
    }

    func update(_ progress: PrecomputeProgress) {
        guard enabled else { return }
        let elapsed = max(Self.now() - started, 1e-9)
        let rate = Double(progress.cellsWritten) / elapsed
        var line = "\r\(progress.specName) @ \(JSONWriter.format(progress.crossExtent)): \(progress.cellsWritten) cells, \(Self.rate(rate))/s"
        if let expected = progress.cellsExpected, expected > 0 {
            let fraction = min(1, Double(progress.cellsWritten) / Double(expected))
            let filled = Int(fraction * 24)
            let remaining = rate > 0 ? Double(expected - progress.cellsWritten) / rate : 0
            line += " [" + String(repeating: "#", count: filled) + String(repeating: ".", count: 24 - filled) + "]"
            line += String(format: " %3.0f%% ETA %.1fs", fraction * 100, max(0, remaining))
        }
        printErrorInline(line + "\u{1B}[K")
    }

    func finish() {
        guard enabled else { return }
        printErrorInline("\r\u{1B}[K")
    }

    private static func rate(_ value: Double) -> String {
        value >= 1e6 ? String(format: "%.2fM", value / 1e6) : String(format: "%.0fk", value / 1e3)
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

