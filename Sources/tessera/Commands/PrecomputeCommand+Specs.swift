import ArgumentParser
import TesseraCommandSupport
import TesseraLayout
import TesseraSQLite
import TesseraStore
import TesseraPrecompute

/// `tessera precompute --specs FEEDS.ndjson --db FILE --width W ...`: many
/// specs, many per transaction (`LayoutStore.saveBatch(_:crossExtents:onFailure:jobs:progress:)`).
extension PrecomputeCommand {
    func runBatch(file: String) async throws {
        guard width.isEmpty != height.isEmpty else {
            throw CommandError("give one or more --width (vertical specs) or --height (horizontal specs), not both: a file of specs takes one axis")
        }
        let axis: Axis = width.isEmpty ? .horizontal : .vertical
        // Opened before the store, which may create its file.
        let lines = try SpecLines(path: file, axis: axis, keepGoing: keepGoing, shard: shard)
        let bar = ProgressBar(enabled: !quiet, lineInterval: progress.seconds)
        bar.start()
        let started = ProgressBar.now()
        let jobs = jobs ?? LayoutStore.defaultBatchJobs
        let report = try await StoreFile.withStore(creatingIfMissing: db, executor: Self.threads(jobs: jobs)) { store in
            let report = try await reportingErrors {
                try await store.saveBatch(
                    lines, crossExtents: axis == .vertical ? width : height, onFailure: keepGoing ? .skip : .stop, jobs: jobs
                ) { progress in
                    bar.update(progress, fraction: lines.totalBytes.map { Double(lines.bytesRead) / Double(max($0, 1)) })
                }
            }
            for failure in report.failures {
                let line = lines.line(ofSpec: failure.index)
                if failure.error.code == .invalidSpec, let cause = failure.error.cause as? SpecError {
                    lines.fail(line: line, cause.description)
                } else {
                    lines.fail(line: line, failure.error.message)
                }
            }
            if report.saved + report.unchanged == 0, !lines.failures.isEmpty {
                // Nothing stored: a store this run created is removed again.
                tell(report, lines: lines, seconds: ProgressBar.now() - started, bar: bar)
                throw ExitCode.failure
            }
            return report
        }
        tell(report, lines: lines, seconds: ProgressBar.now() - started, bar: bar)
        if !lines.failures.isEmpty { throw ExitCode.failure }
    }

    /// Prints one error line per failed line, in line order, and the summary unless quiet.
    private func tell(_ report: BatchReport, lines: SpecLines, seconds: Double, bar: ProgressBar) {
        bar.finish()
        for failure in lines.failures.sorted(by: { $0.line < $1.line }) {
            printError("error: " + lines.located(line: failure.line, failure.message))
        }
        guard !quiet else { return }
        let done = report.saved + report.unchanged + lines.failures.count
        print("\(lines.path): saved \(report.saved), unchanged \(report.unchanged), failed \(lines.failures.count) specs; "
            + "\(report.layoutsComputed) layouts computed in "
            + String(format: "%.2fs (%.0f specs/s); stored in %@", seconds, Double(done) / max(seconds, 1e-9), db))
    }
}
