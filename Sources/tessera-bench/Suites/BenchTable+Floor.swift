import Foundation

extension BenchTable {
    /// The floor suite: each figure, its baseline of the same run, the ratio and the target.
    static func floor(_ report: FloorBenchmark.Report, runs: Int) -> String {
        func micro(_ p50: Double, _ p99: Double) -> String { String(format: "%.2f / %.2f µs", p50, p99) }
        func milliseconds(_ value: Double) -> String { String(format: "%.1f ms", value * 1000) }
        func ratio(_ value: Double, _ base: Double) -> String { String(format: "%.2f×", value / base) }
        let layouts = report.feeds * report.widths
        let appends = report.appends
        let rows = [
            ["measure", "result", "baseline (same run)", "ratio", "target"],
            ["warm viewport, one layout, p50 / p99", micro(report.oneLayoutP50Microseconds, report.oneLayoutP99Microseconds),
             "in-memory LayoutResult: " + micro(report.inMemoryP50Microseconds, report.inMemoryP99Microseconds),
             ratio(report.oneLayoutP50Microseconds, report.inMemoryP50Microseconds), "≤ 1.25×"],
            ["\(layouts) layouts in rotation, p50 / p99", micro(report.rotationP50Microseconds, report.rotationP99Microseconds),
             "one layout: " + micro(report.oneLayoutP50Microseconds, report.oneLayoutP99Microseconds),
             ratio(report.rotationP50Microseconds, report.oneLayoutP50Microseconds), "≤ 1.5×"],
            ["first query of a feed among \(report.smallFeeds), p50 / p99", micro(report.firstQueryP50Microseconds, report.firstQueryP99Microseconds),
             "the same queries warm: " + micro(report.smallWarmP50Microseconds, report.smallWarmP99Microseconds),
             ratio(report.firstQueryP50Microseconds, report.smallWarmP50Microseconds), "≤ 10 / 40 µs"],
            ["`tessera append` of \(FloorBenchmark.appendedItems) items to a \(appends.feedItems)-item feed, whole process (\(appends.linkage))",
             milliseconds(appends.processSeconds),
             "in process: " + milliseconds(appends.inProcessSeconds) + "; `tessera --version`: " + milliseconds(appends.startOnlySeconds)
                + "; full compute: " + milliseconds(appends.fullComputeSeconds),
             ratio(appends.processSeconds, appends.inProcessSeconds), "≤ 20 ms"],
            ["\(FloorBenchmark.repeatedAppends) appends of \(FloorBenchmark.appendedItems) items to a count/cycle section, last five (median)",
             milliseconds(appends.lastFiveSeconds), "first five: " + milliseconds(appends.firstFiveSeconds),
             ratio(appends.lastFiveSeconds, appends.firstFiveSeconds), "flat (≈ 1×)"],
            ["peak RSS of this benchmark process", report.peakResidentBytes.map { String(format: "%.0f MB", Double($0) / 1e6) } ?? "-", "", "", ""],
        ]
        return "Floor: \(report.feeds) feeds × \(report.widths) widths of \(report.elementsPerLayout) elements, \(report.queries) viewports "
            + "(844 points) per figure and run, \(runs) runs; appends to a feed of \(appends.repeatedFeedItems) items\n" + format(rows)
    }
}
