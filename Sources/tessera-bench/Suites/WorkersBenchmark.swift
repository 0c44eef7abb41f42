import Foundation
import Locking
import TesseraCommandSupport
import TesseraLayout
import TesseraSQLite
import TesseraStore
import TesseraPrecompute

/// A batch precompute of `feeds` small feeds (the feeds suite's) at two
/// widths, on each number of workers in `jobs`, in the same run and in
/// alternating order: feeds/s of each, the ratio to the first, and the CPU
/// a feed costs the workers and the rest (the one writer, checkpoints),
/// from which the rate on a larger machine, and the number of workers past
/// which the writer bounds it, follow.
struct WorkersBenchmark {
    var feeds: Int
    var jobs: [Int]
    var runs: Int
    var directory: String
    /// Items of the one large spec saved at ``widths`` on each number of workers (0: none).
    var items = 0

    static let widths: [Double] = [390, 430, 820, 1024]

    struct Report: Codable {
        struct Row: Codable {
            var jobs: Int
            /// Medians of the runs.
            var seconds: Double
            var feedsPerSecond: Double
            var writingSeconds: Double
            /// `writingSeconds / seconds`.
            var writerShare: Double
            /// The process's CPU seconds over `seconds` (both medians): the cores it kept busy.
            var coresBusy: Double
            /// CPU seconds per feed (medians): the workers' (``BatchReport/workersCPUSeconds``),
            /// and the rest of the process's (the writer, checkpoints).
            var workersCPUPerFeed: Double
            var restCPUPerFeed: Double
        }

        var feeds: Int
        var cores: Int
        var runs: Int
        var rows: [Row]
        /// The large spec's items, and its save's median seconds and cores busy by number of workers.
        var items: Int
        var saveSeconds: [Double]
        var saveCoresBusy: [Double]
    }

    func run() async throws -> Report {
        var seconds: [Int: [Double]] = [:]
        var writing: [Int: [Double]] = [:]
        var cpu: [Int: [Double]] = [:]
        var workersCPU: [Int: [Double]] = [:]
        for run in 0..<runs {
            // Alternating order: neither count always runs on a warmer machine.
            for jobs in run % 2 == 0 ? self.jobs : self.jobs.reversed() {
                let path = "\(directory)/workers-\(jobs).sqlite"
                StoreBenchmark.remove(path)
                defer { StoreBenchmark.remove(path) }
                let store = try LayoutStore(path: path)
                let (start, startCPU) = (now(), Clock.processCPU())
                let report = try await store.saveBatch((0..<feeds).lazy.map(FeedsBenchmark.feed), crossExtents: FeedsBenchmark.widths, jobs: jobs)
                seconds[jobs, default: []].append(now() - start)
                cpu[jobs, default: []].append(Clock.processCPU() - startCPU)
                writing[jobs, default: []].append(report.writingSeconds)
                workersCPU[jobs, default: []].append(report.workersCPUSeconds)
                store.close()
                guard report.saved == feeds else { throw CommandError("the batch on \(jobs) workers saved \(report.saved) of \(feeds) feeds") }
            }
        }
        func median(_ values: [Double]?) -> Double {
            var samples = Samples()
            for value in values ?? [] { samples.add(value) }
            return samples.median
        }
        let rows = jobs.map { jobs in
            let time = median(seconds[jobs])
            let write = median(writing[jobs])
            let (total, workers) = (median(cpu[jobs]), median(workersCPU[jobs]))
            return Report.Row(
                jobs: jobs, seconds: time, feedsPerSecond: Double(feeds) / time, writingSeconds: write, writerShare: write / time,
                coresBusy: total / time, workersCPUPerFeed: workers / Double(feeds), restCPUPerFeed: max(0, total - workers) / Double(feeds)
            )
        }
        var saves: [Int: [Double]] = [:]
        var saveCPU: [Int: [Double]] = [:]
        if items > 0 {
            let spec = try StoreBenchmark.spec(count: items)
            for run in 0..<runs {
                for jobs in run % 2 == 0 ? self.jobs : self.jobs.reversed() {
                    let path = "\(directory)/workers-spec-\(jobs).sqlite"
                    StoreBenchmark.remove(path)
                    defer { StoreBenchmark.remove(path) }
                    let store = try LayoutStore(path: path)
                    let (start, startCPU) = (now(), Clock.processCPU())
                    try await store.save(spec, as: "large", crossExtents: Self.widths, jobs: jobs)
                    saves[jobs, default: []].append(now() - start)
                    saveCPU[jobs, default: []].append(Clock.processCPU() - startCPU)
                    store.close()
                }
            }
        }
        return Report(
            feeds: feeds, cores: LayoutStore.machineCores, runs: runs, rows: rows, items: items,
            saveSeconds: items > 0 ? jobs.map { median(saves[$0]) } : [],
            saveCoresBusy: items > 0 ? jobs.map { median(saveCPU[$0]) / median(saves[$0]) } : []
        )
    }
}

extension BenchTable {
    static func workers(_ report: WorkersBenchmark.Report) -> String {
        guard let first = report.rows.first else { return "" }
        let against = "against \(first.jobs) worker\(first.jobs == 1 ? "" : "s")"
        var rows = [["workers", "seconds", "feeds/s", against, "cores busy", "writer busy", "CPU a feed: workers / rest"]]
        for row in report.rows {
            rows.append([
                "\(row.jobs)", String(format: "%.2f", row.seconds), String(format: "%.0f", row.feedsPerSecond),
                String(format: "%.2f×", row.feedsPerSecond / first.feedsPerSecond), String(format: "%.2f", row.coresBusy),
                String(format: "%.0f%%", row.writerShare * 100),
                String(format: "%.0f / %.0f µs", row.workersCPUPerFeed * 1e6, row.restCPUPerFeed * 1e6),
            ])
        }
        // Workers share a feed's cost c, the writer and the rest w do not: with
        // cores to spare the rate grows with workers up to 1/w, near c/w of them.
        let (c, w) = (first.workersCPUPerFeed, first.restCPUPerFeed)
        let bound = w > 0 ? String(format: "; a feed costs the workers %.0f µs of CPU and the writer and the rest %.0f µs, so with cores to spare the writer bounds the rate at %.0f feeds/s, past about %.1f workers", c * 1e6, w * 1e6, 1 / w, c / w) : ""
        // The same work on every core gains at most cores / cores busy.
        let ceiling = first.coresBusy > 0 ? String(format: "; one worker keeps %.2f cores busy, so no number of workers runs more than %.2f× as fast on these %d", first.coresBusy, Double(report.cores) / first.coresBusy, report.cores) : ""
        if report.items > 0, let base = report.saveSeconds.first {
            rows.append(["", "", "", "", "", "", ""])
            rows.append(["workers", "seconds", "items/s", against, "cores busy", "", ""])
            for (index, (row, seconds)) in zip(report.rows, report.saveSeconds).enumerated() {
                rows.append([
                    "\(row.jobs)", String(format: "%.2f", seconds), rate(Double(report.items * WorkersBenchmark.widths.count) / seconds),
                    String(format: "%.2f×", base / seconds), String(format: "%.2f", report.saveCoresBusy[index]), "", "",
                ])
            }
        }
        let large = report.items > 0 ? "; below, one spec of \(report.items) items saved at widths 390, 430, 820 and 1024 (items/s counts each width)" : ""
        return "Workers: \(report.feeds) feeds of 150–300 items at widths 390 and 430, batch precompute, medians of \(report.runs) runs in alternating order, \(report.cores) cores\(bound)\(ceiling)\(large)\n" + format(rows)
    }
}
