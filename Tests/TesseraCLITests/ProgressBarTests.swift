import Foundation
import Synchronization
import Testing
import TesseraStore
import TesseraPrecompute
@testable import tessera

@Suite("precompute's progress bar")
struct ProgressBarTests {
    /// A clock the test moves by hand.
    final class ManualClock: Sendable {
        private let value = Mutex(0.0)
        var seconds: Double {
            get { value.withLock { $0 } }
            set { value.withLock { $0 = newValue } }
        }
    }

    private func progress(_ width: Double, _ written: Int, of expected: Int?) -> ProgressBar.Report {
        ProgressBar.Report(specName: "feed", crossExtent: width, cellsWritten: written, cellsExpected: expected)
    }

    @Test("rate and ETA are per width: the second width is timed from the end of the first, not from the start")
    func ratePerWidth() async {
        let clock = ManualClock()
        let bar = ProgressBar(enabled: false) { clock.seconds }
        bar.start()
        clock.seconds = 1
        #expect(bar.line(for: progress(390, 100_000, of: 400_000)) == "feed @ 390: 100000 cells, 100k cells/s [######..................]  25% ETA 3.0s")
        clock.seconds = 4
        #expect(bar.line(for: progress(390, 400_000, of: 400_000)) == "feed @ 390: 400000 cells, 100k cells/s [########################] 100% ETA 0.0s")
        // The next width starts at 0 cells, 4 s after the start: its rate counts from there.
        clock.seconds = 4.5
        #expect(bar.line(for: progress(430, 1_000_000, of: 2_000_000)) == "feed @ 430: 1000000 cells, 2.00M cells/s [############............]  50% ETA 0.5s")
        clock.seconds = 5
        #expect(bar.line(for: progress(430, 1_500_000, of: 2_000_000)).hasSuffix("1.50M cells/s [##################......]  75% ETA 0.3s"))
    }

    @Test("without an expected count there is no bar, only the count and the rate")
    func unknownTotal() async {
        #expect(ProgressBar.text(for: progress(820, 500, of: nil), seconds: 2) == "feed @ 820: 500 cells, 250 cells/s")
    }

    @Test("on a terminal precompute draws the bar on stderr; --quiet prints nothing at all")
    func quietOnTerminal() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let spec = CLIRunner.repository.appendingPathComponent("Examples/home-feed.json").path
            let database = directory.appendingPathComponent("feed.sqlite").path
            let shown = try CLIRunner.runOnTerminal(["precompute", spec, "--db", database, "--width", "390", "--width", "430"], terminal: .stderr)
            #expect(shown.status == 0, "\(shown.stderr)")
            #expect(shown.stderr.contains("home-feed @ 430: ") && shown.stderr.contains(" cells/s"), "\(shown.stderr)")
            #expect(shown.stdout.contains("home-feed @ 430: computed every section"), "\(shown.stdout)")

            let quiet = try CLIRunner.runOnTerminal(["precompute", spec, "--db", database, "--width", "820", "--quiet"], terminal: .stderr)
            #expect(quiet.status == 0)
            #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
            #expect(quiet.stdout.isEmpty, "\(quiet.stdout)")
        }
    }

    @Test("a batch shows specs done, specs per second and, from the share of the file read, a bar and the ETA")
    func batchLine() async {
        let progress = BatchProgress(specsDone: 3_000, saved: 2_990, failed: 10, layoutsComputed: 5_980)
        #expect(ProgressBar.text(for: progress, fraction: 0.25, seconds: 1.5)
            == "3000 specs, 2k specs/s, 10 failed [######..................]  25% ETA 4.5s")
        #expect(ProgressBar.text(for: BatchProgress(specsDone: 500, saved: 500), fraction: nil, seconds: 2) == "500 specs, 250 specs/s")
    }

    @Test("without a terminal (cron, a container) progress is a plain line on stderr every --progress-every seconds; --quiet prints none")
    func linesWithoutTerminal() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let lines = (0..<400).map { PrecomputeSpecsTests.line("feed-\($0)") }.joined(separator: "\n")
            let file = try CLIRunner.file("feeds.ndjson", in: directory, lines)
            let database = directory.appendingPathComponent("feeds.sqlite").path
            let batch = try CLIRunner.run(["precompute", "--specs", file, "--db", database, "--width", "390", "--progress-every", "0"])
            #expect(batch.status == 0, "\(batch.stderr)")
            let progress = batch.stderr.split(separator: "\n")
            #expect(!progress.isEmpty)
            #expect(progress.allSatisfy { $0.hasPrefix("precompute: ") && $0.contains(" specs, ") && $0.contains(" specs/s") }, "\(batch.stderr)")
            #expect(!batch.stderr.contains("\r") && !batch.stderr.contains("\u{1B}"), "no terminal codes in a log")
            #expect(batch.stdout.hasPrefix("\(file): saved 400, "), "\(batch.stdout)")

            let spec = CLIRunner.repository.appendingPathComponent("Examples/home-feed.json").path
            let one = try CLIRunner.run(["precompute", spec, "--db", database, "--width", "430", "--progress-every", "0"])
            #expect(one.status == 0, "\(one.stderr)")
            #expect(one.stderr.split(separator: "\n").contains { $0.hasPrefix("precompute: home-feed @ 430: ") && $0.contains(" cells/s") }, "\(one.stderr)")
            let quiet = try CLIRunner.run(["precompute", spec, "--db", database, "--width", "820", "--progress-every", "0", "--quiet"])
            #expect(quiet.status == 0 && quiet.stderr.isEmpty && quiet.stdout.isEmpty, "\(quiet.stderr)")
            #expect(try CLIRunner.failure(["precompute", spec, "--db", database, "--width", "600", "--progress-every", "-1"])
                == "error: --progress-every must be a finite number of seconds, 0 or more, got -1 (see 'tessera precompute --help')")
        }
    }
}
