import Foundation

extension BenchTable {
    /// The floor suite: each figure, its baseline of the same run, the ratio
    /// and its target; a figure the run did not measure (`--figures`)
    /// has no row.
    static func floor(_ report: FloorBenchmark.Report, runs: Int) -> String {
        func micro(_ p50: Double, _ p99: Double) -> String { String(format: "%.2f / %.2f µs", p50, p99) }
        func milliseconds(_ value: Double) -> String { String(format: "%.1f ms", value * 1000) }
        func ratio(_ value: Double, _ base: Double) -> String { String(format: "%.2f×", value / base) }
        let layouts = report.feeds * report.widths
        var rows = [["measure", "result", "baseline (same run)", "ratio", "target"]]
        if report.elementsPerLayout > 0 {
            rows.append(["warm viewport, one layout, p50 / p99", micro(report.oneLayoutP50Microseconds, report.oneLayoutP99Microseconds),
                         "in-memory LayoutResult: " + micro(report.inMemoryP50Microseconds, report.inMemoryP99Microseconds),
                         ratio(report.oneLayoutP50Microseconds, report.inMemoryP50Microseconds), "≤ 1.25×"])
        }
        if let p50 = report.rotationP50Microseconds, let p99 = report.rotationP99Microseconds {
            func elements(_ average: Double?) -> String { average.map { String(format: " (%.0f elements a viewport)", $0) } ?? "" }
            rows.append(["\(layouts) layouts in rotation, p50 / p99", micro(p50, p99) + elements(report.rotationElementsPerViewport),
                         "one layout: " + micro(report.oneLayoutP50Microseconds, report.oneLayoutP99Microseconds)
                            + elements(report.oneLayoutElementsPerViewport),
                         ratio(p50, report.oneLayoutP50Microseconds), "≤ 1.5×"])
            if let memoryP50 = report.memoryRotationP50Microseconds, let memoryP99 = report.memoryRotationP99Microseconds {
                rows.append(["the same rotation over \(layouts) in-memory LayoutResults, p50 / p99 (the floor, for comparison)", micro(memoryP50, memoryP99),
                             "one in-memory LayoutResult: " + micro(report.inMemoryP50Microseconds, report.inMemoryP99Microseconds),
                             ratio(memoryP50, report.inMemoryP50Microseconds), "-"])
                rows.append(["\(layouts) layouts in rotation beside the same rotation in memory, p50", String(format: "%.2f µs", p50),
                             "\(layouts) in-memory LayoutResults: " + String(format: "%.2f µs", memoryP50), ratio(p50, memoryP50), "-"])
            }
        }
        if let p50 = report.firstQueryP50Microseconds, let p99 = report.firstQueryP99Microseconds,
           let warmP50 = report.smallWarmP50Microseconds, let warmP99 = report.smallWarmP99Microseconds {
            rows.append(["first query of a feed among \(report.smallFeeds), p50 / p99", micro(p50, p99),
                         "the same queries warm: " + micro(warmP50, warmP99), ratio(p50, warmP50), "≤ 10 / 40 µs"])
            if let firstRun = report.firstRunFirstQueryP50Microseconds, let laterRuns = report.laterRunsFirstQueryP50Microseconds {
                rows.append(["the same first queries in the process's first run (its heap grows), p50", String(format: "%.2f µs", firstRun),
                             "in the runs after it: " + String(format: "%.2f µs", laterRuns), ratio(firstRun, laterRuns), "-"])
            }
        }
        var title = "Floor: \(report.feeds) feeds × \(report.widths) widths of \(report.elementsPerLayout) elements, \(report.queries) viewports "
            + "(844 points) per figure and run, \(runs) runs"
        if let appends = report.appends {
            rows.append(["`tessera append` of \(FloorBenchmark.appendedItems) items to a \(appends.feedItems)-item feed, whole process (\(appends.linkage))",
                         milliseconds(appends.processSeconds),
                         "in process: " + milliseconds(appends.inProcessSeconds) + "; `tessera --version`: " + milliseconds(appends.startOnlySeconds)
                            + "; full compute: " + milliseconds(appends.fullComputeSeconds),
                         ratio(appends.processSeconds, appends.inProcessSeconds), "≤ 20 ms"])
            rows.append(["\(FloorBenchmark.repeatedAppends) appends of \(FloorBenchmark.appendedItems) items to a count/cycle section, last five (median)",
                         milliseconds(appends.lastFiveSeconds), "first five: " + milliseconds(appends.firstFiveSeconds),
                         ratio(appends.lastFiveSeconds, appends.firstFiveSeconds), "flat (≈ 1×)"])
            title += "; appends to a feed of \(appends.repeatedFeedItems) items"
        }
        if let after = report.afterAppend {
            rows.append(["first pass of \(after.viewports) viewports after an append of \(after.appendedItems) items to a \(after.feedItems)-item feed, p50 / p99",
                         micro(after.firstPassP50Microseconds, after.firstPassP99Microseconds),
                         "the same pass warm, before it: " + micro(after.warmP50Microseconds, after.warmP99Microseconds),
                         ratio(after.firstPassP50Microseconds, after.warmP50Microseconds), "≈ 1×"])
        }
        rows.append(["peak RSS of this benchmark process", report.peakResidentBytes.map { String(format: "%.0f MB", Double($0) / 1e6) } ?? "-", "", "", ""])
        return title + "\n" + format(rows)
    }
}
