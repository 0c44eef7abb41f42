import Foundation

extension BenchTable {
    static func serving(_ report: ServingBenchmark.Report, runs: Int) -> String {
        func micro(_ value: Double) -> String { String(format: "%.1f µs", value) }
        func milliseconds(_ value: Double) -> String { String(format: "%.1f ms", value * 1000) }
        let layouts = report.feeds * report.widths
        let rows = [
            ["measure", "result", "baseline (same run)", "ratio"],
            ["\(layouts) layouts in rotation, warm viewport query p50 / p99",
             micro(report.rotationP50Microseconds) + " / " + micro(report.rotationP99Microseconds),
             "one layout: " + micro(report.oneLayoutP50Microseconds) + " / " + micro(report.oneLayoutP99Microseconds),
             String(format: "%.2f×", report.rotationP50Microseconds / report.oneLayoutP50Microseconds)],
            ["first query of a layout never read, p50 / p99",
             micro(report.firstQueryP50Microseconds) + " / " + micro(report.firstQueryP99Microseconds),
             "warm, one layout p50: " + micro(report.oneLayoutP50Microseconds),
             String(format: "%.1f×", report.firstQueryP50Microseconds / report.oneLayoutP50Microseconds)],
            ["shared directory cache after the rotation",
             String(format: "%.1f MB", Double(report.cacheBytes) / 1e6), String(format: "budget %.0f MB", Double(report.cacheBudget) / 1e6), ""],
            ["peak RSS of this benchmark process", report.peakResidentBytes.map { String(format: "%.0f MB", Double($0) / 1e6) } ?? "-", "", ""],
            ["append 1000 items (one width), another process querying at full load", milliseconds(report.appendUnderLoadSeconds),
             "idle store: " + milliseconds(report.appendIdleSeconds),
             String(format: "%.2f×", report.appendUnderLoadSeconds / report.appendIdleSeconds)],
            ["compute a new width, another process querying at full load", String(format: "%.3f s", report.newWidthUnderLoadSeconds),
             String(format: "idle store: %.3f s", report.newWidthIdleSeconds),
             String(format: "%.2f×", report.newWidthUnderLoadSeconds / report.newWidthIdleSeconds)],
            ["queries the other process served meanwhile", String(report.loadQueries), "", ""],
        ]
        return "Serving: \(report.feeds) feeds × \(report.widths) widths of \(report.elementsPerLayout) elements "
            + String(format: "(precomputed in %.1f s), appends median of \(runs) runs\n", report.precomputeSeconds) + format(rows)
    }
}
