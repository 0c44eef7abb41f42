import ArgumentParser
import Foundation
import Locking
import Synchronization
import TesseraCommandSupport
import TesseraLayout
import TesseraSQLite
import TesseraStore
import TesseraPrecompute

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Progress on standard error while layouts are computed: cells written,
/// cells per second, percentage and ETA. On a terminal, one line drawn over
/// itself; elsewhere (a cron job's log, a Kubernetes pod's), the same text as
/// a line of its own every `lineInterval` seconds.
///
/// The store counts cells from 0 again for each width, so each width is
/// timed on its own, from the end of the one before it.
final class ProgressBar: Sendable {
    private enum Mode {
        case off, terminal
        case lines(every: Double)
    }

    private let mode: Mode
    /// What a line without a terminal starts with: the command's name.
    private let label: String
    private let clock: @Sendable () -> Double
    /// The store reports from its threads, one report at a time.
    private let timing: Mutex<Timing>

    private struct Timing {
        /// The width being computed and when it started.
        var current: (specName: String, crossExtent: Double, started: Double)?
        /// When the last report came: the previous width ends there.
        var lastReport: Double
        /// When the last line was written, without a terminal.
        var lastLine: Double
    }

    /// - Parameters:
    ///   - lineInterval: without a terminal, the seconds between two lines
    ///     (nil: nothing without a terminal).
    ///   - clock: seconds on a monotonic clock; tests pass their own.
    init(enabled: Bool, lineInterval: Double? = nil, label: String = "precompute", clock: @escaping @Sendable () -> Double = ProgressBar.now) {
        mode = !enabled ? .off : isatty(2) != 0 ? .terminal : lineInterval.map { .lines(every: $0) } ?? .off
        self.label = label
        self.clock = clock
        let now = clock()
        timing = Mutex(Timing(lastReport: now, lastLine: now))
    }

    /// Starts timing again, just before the computing starts.
    func start() {
        let now = clock()
        timing.withLock { $0 = Timing(lastReport: now, lastLine: now) }
    }

    /// Writes `text`: over the line before on a terminal, else as a line of
    /// its own when `lineInterval` has passed since the last one.
    private func show(_ text: @autoclosure () -> String) {
        switch mode {
        case .off: return
        case .terminal: printErrorInline("\r" + text() + "\u{1B}[K")
        case .lines(let interval):
            let now = clock()
            let due = timing.withLock { timing in
                guard now - timing.lastLine >= interval else { return false }
                timing.lastLine = now
                return true
            }
            if due { printError(label + ": " + text()) }
        }
    }

    /// What the store reported.
    struct Report {
        var specName: String
        var crossExtent: Double
        var cellsWritten: Int
        var cellsExpected: Int?
    }

    func update(_ progress: PrecomputeProgress) {
        if case .off = mode { return }
        let report = Report(
            specName: progress.specName, crossExtent: progress.crossExtent,
            cellsWritten: progress.cellsWritten, cellsExpected: progress.cellsExpected
        )
        // Timed on every report, so that a width's time starts where the last one ended.
        let text = line(for: report)
        show(text)
    }

    /// A batch of specs after a commit; `fraction` is the share of the
    /// input read, when known.
    func update(_ progress: BatchProgress, fraction: Double?) {
        if case .off = mode { return }
        // Batches never move lastReport: it stays where start() set it.
        let since = timing.withLock { $0.lastReport }
        show(Self.text(for: progress, fraction: fraction, seconds: clock() - since))
    }

    /// A merge after each spec: specs done of all there are.
    func update(_ progress: MergeProgress) {
        update(BatchProgress(specsDone: progress.specsDone), fraction: Double(progress.specsDone) / Double(max(progress.specsTotal, 1)))
    }

    /// The bar's text for a batch: specs done, specs per second, and with
    /// the share read, a bar and the ETA. `seconds` since `start()`.
    static func text(for progress: BatchProgress, fraction: Double?, seconds: Double) -> String {
        let rate = Double(progress.specsDone) / max(seconds, 1e-9)
        var line = "\(progress.specsDone) specs, \(Self.rate(rate)) specs/s"
        if progress.failed > 0 { line += ", \(progress.failed) failed" }
        if let fraction, fraction > 0 {
            let share = min(1, fraction)
            let filled = Int(share * 24)
            line += " [" + String(repeating: "#", count: filled) + String(repeating: ".", count: 24 - filled) + "]"
            line += String(format: " %3.0f%% ETA %.1fs", share * 100, seconds * (1 - share) / share)
        }
        return line
    }

    func finish() {
        guard case .terminal = mode else { return }
        printErrorInline("\r\u{1B}[K")
    }

    /// The bar's text for a report, timed from the start of its width.
    func line(for progress: Report) -> String {
        let now = clock()
        let started = timing.withLock { timing in
            if timing.current?.specName != progress.specName || timing.current?.crossExtent != progress.crossExtent {
                timing.current = (progress.specName, progress.crossExtent, timing.lastReport)
            }
            timing.lastReport = now
            return timing.current?.started ?? now
        }
        return Self.text(for: progress, seconds: now - started)
    }

    /// The bar's text for `progress` after `seconds` spent on its width.
    static func text(for progress: Report, seconds: Double) -> String {
        let written = progress.cellsWritten
        let rate = Double(written) / max(seconds, 1e-9)
        var line = "\(progress.specName) @ \(JSONWriter.format(progress.crossExtent)): \(written) cells, \(Self.rate(rate)) cells/s"
        if let expected = progress.cellsExpected, expected > 0 {
            let fraction = min(1, Double(written) / Double(expected))
            let filled = Int(fraction * 24)
            let remaining = rate > 0 ? Double(expected - written) / rate : 0
            line += " [" + String(repeating: "#", count: filled) + String(repeating: ".", count: 24 - filled) + "]"
            line += String(format: " %3.0f%% ETA %.1fs", fraction * 100, max(0, remaining))
        }
        return line
    }

    private static func rate(_ value: Double) -> String {
        if value >= 1e6 { return String(format: "%.2fM", value / 1e6) }
        return value >= 1e3 ? String(format: "%.0fk", value / 1e3) : String(format: "%.0f", value)
    }

    static func now() -> Double {
        Clock.monotonic()
    }
}

/// `--progress-every SECONDS`: without a terminal, how often a progress
/// line goes to standard error (`precompute`, `merge`).
struct ProgressEveryOption: ParsableArguments {
    @Option(
        name: .customLong("progress-every"), parsing: .unconditional,
        help: "When standard error is not a terminal (a cron job, a container): seconds between two progress lines on it.",
        transform: ArgumentCheck.number
    )
    var seconds: Double = 5

    func validate() throws {
        guard seconds.isFinite, seconds >= 0 else {
            throw ValidationError("--progress-every must be a finite number of seconds, 0 or more, got \(JSONWriter.format(seconds))")
        }
    }
}
