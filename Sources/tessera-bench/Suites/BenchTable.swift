import Foundation
import TesseraCommandSupport

/// Plain-text tables of benchmark reports.
enum BenchTable {
    static func render(_ output: BenchOutput, count: Int, runs: Int) -> String {
        var parts: [String] = []
        if !output.engine.isEmpty { parts.append(engine(output.engine, count: count)) }
        if let store = output.store { parts.append(self.store(store, ndjson: output.ndjson, runs: runs)) }
        if let updates = output.updates { parts.append(self.updates(updates, runs: runs)) }
        if let serving = output.serving { parts.append(self.serving(serving, runs: runs)) }
        if let feeds = output.feeds { parts.append(self.feeds(feeds)) }
        return parts.joined(separator: "\n\n")
    }

    static func updates(_ report: UpdateBenchmark.Report, runs: Int) -> String {
        func milliseconds(_ value: Double) -> String { String(format: "%.1f ms", value * 1000) }
        let rows = [
            ["measure", "incremental", "full recompute (same run)", "ratio"],
            ["append \(report.appendedItems) items to the last section", milliseconds(report.appendSeconds),
             milliseconds(report.fullRecomputeSeconds), String(format: "%.0f× faster", report.fullRecomputeSeconds / report.appendSeconds)],
            ["edit one section in the middle", milliseconds(report.editSeconds),
             milliseconds(report.fullRecomputeSeconds), String(format: "%.0f× faster", report.fullRecomputeSeconds / report.editSeconds)],
        ]
        return "Updates: a feed of \(report.elements) elements in \(report.sections) sections at width 390, medians of \(runs) runs\n" + format(rows)
    }

    static func appends(_ report: AppendsBenchmark.Report, runs: Int) -> String {
        func milliseconds(_ value: Double) -> String { String(format: "%.1f ms", value * 1000) }
        let rows = [
            ["measure", "figure", "baseline (same run)", "ratio"],
            ["append \(report.appendedItems) items to a count/cycle section of \(report.cycleItems): appends 96–100 (median)",
             milliseconds(report.lastAppendsSeconds), "appends 1–5: " + milliseconds(report.firstAppendsSeconds),
             String(format: "%.2f×", report.lastAppendsSeconds / report.firstAppendsSeconds)],
            ["the same, append \(report.appends)", milliseconds(report.hundredthAppendSeconds), "", ""],
            ["tessera append of \(report.appendedItems) items to a \(report.feedItems)-item feed, whole process",
             milliseconds(report.processSeconds), "in process: " + milliseconds(report.inProcessSeconds),
             String(format: "%.1f×", report.processSeconds / report.inProcessSeconds)],
            ["tessera --version (start-up alone)", milliseconds(report.startupSeconds), "", ""],
        ]
        return "Appends: \(report.feedSections) sections at width 390, medians of \(runs) runs\n" + format(rows)
    }

    static func feeds(_ report: FeedsBenchmark.Report) -> String {
        let rows = [
            ["measure", "batch", "baseline (same run)", "ratio"],
            ["precompute \(report.feeds) feeds, \(report.elements) elements", String(format: "%.1f s", report.batchSeconds), "", ""],
            ["feeds/s", String(format: "%.0f", report.feedsPerSecond),
             "one by one (\(report.oneByOneFeeds) feeds): " + String(format: "%.0f", report.oneByOneFeedsPerSecond),
             String(format: "%.1f× faster", report.feedsPerSecond / report.oneByOneFeedsPerSecond)],
            ["elements/s", rate(report.elementsPerSecond), "", ""],
            ["write transactions", "\(report.transactions)", "one per feed", ""],
            ["file bytes/element", String(format: "%.1f", report.bytesPerElement), "", ""],
            ["same batch again (all unchanged), feeds/s", String(format: "%.0f", report.rerunFeedsPerSecond), "", ""],
            ["viewport query of a random feed, p50 / p99", String(format: "%.1f µs / %.1f µs", report.queryP50Microseconds, report.queryP99Microseconds), "", ""],
            ["the same queries again (each feed read before), p50 / p99",
             String(format: "%.1f µs / %.1f µs", report.warmQueryP50Microseconds, report.warmQueryP99Microseconds), "", ""],
            ["peak RSS of this benchmark process", String(format: "%.0f MB", Double(report.peakResidentBytes) / 1e6), "", ""],
        ]
        return "Feeds: \(report.feeds) feeds of 150–300 items at widths 390 and 430, batch precompute; "
            + "\(report.queries) viewport queries (844 points) of a random feed, width and offset each\n" + format(rows)
    }

    static func store(_ report: StoreBenchmark.Report, ndjson: NDJSONBenchmark.Report?, runs: Int) -> String {
        func micro(_ value: Double?) -> String { value.map { String(format: "%.1f µs", $0) } ?? "-" }
        // Milliseconds below a tenth of a second: "0.000 s" would hide an invalidation's cost.
        func seconds(_ value: Double?) -> String {
            value.map { $0 < 0.1 ? String(format: "%.2f ms", $0 * 1000) : String(format: "%.3f s", $0) } ?? "-"
        }
        var rows = [["measure", "Tessera store", "baseline (same run)", "ratio"]]
        let rtreeInsert = report.perElementRTreeInsertSeconds
        rows.append(["precompute + persist \(report.elements) elements", seconds(report.precomputeSeconds),
                     rtreeInsert.map { "per-element R*Tree insert only: " + seconds($0) } ?? "-",
                     rtreeInsert.map { String(format: "%.1f× faster", $0 / report.precomputeSeconds) } ?? "-"])
        rows.append(["  of which compute + write inside the transaction", seconds(report.computeOnlySeconds), "", ""])
        rows.append(["elements/s", rate(report.precomputeElementsPerSecond), "", ""])
        rows.append(["file bytes/element", String(format: "%.1f", report.bytesPerElement), "", ""])
        rows.append(["rect query 390×844, p50 (warm)", micro(report.queryP50Microseconds),
                     "per-element R*Tree: " + micro(report.perElementRTreeQueryP50Microseconds),
                     report.perElementRTreeQueryP50Microseconds.map { String(format: "%.2f× faster", $0 / report.queryP50Microseconds) } ?? "-"])
        rows.append(["rect query 390×844, p99 (warm)", micro(report.queryP99Microseconds),
                     "per-element R*Tree: " + micro(report.perElementRTreeQueryP99Microseconds),
                     report.perElementRTreeQueryP99Microseconds.map { String(format: "%.2f× faster", $0 / report.queryP99Microseconds) } ?? "-"])
        rows.append(["viewport query with pinning, p50 / p99 (warm)", micro(report.viewportP50Microseconds) + " / " + micro(report.viewportP99Microseconds),
                     "in-memory binary search p50 / p99: " + micro(report.binarySearchP50Microseconds) + " / " + micro(report.binarySearchP99Microseconds),
                     String(format: "%.1f× slower", report.viewportP50Microseconds / report.binarySearchP50Microseconds)])
        rows.append(["first query of each viewport, p50 / p99", micro(report.firstTouchP50Microseconds) + " / " + micro(report.firstTouchP99Microseconds),
                     "per-element R*Tree p50: " + micro(report.perElementRTreeFirstTouchP50Microseconds),
                     report.perElementRTreeFirstTouchP50Microseconds.map { String(format: "%.2f× faster", $0 / report.firstTouchP50Microseconds) } ?? "-"])
        rows.append(["in-memory (TesseraLayout) rect query p50", micro(report.inMemoryQueryP50Microseconds), "", ""])
        rows.append(["invalidate (mark stale)", seconds(report.invalidateSeconds), "", ""])
        rows.append(["delete a layout (all rows)", seconds(report.deleteLayoutSeconds), "", ""])
        rows.append(["re-save with the first section one item longer", seconds(report.replaceSeconds), "", ""])
        rows.append(["peak RSS of this benchmark process", String(format: "%.0f MB", Double(report.peakResidentBytes) / 1e6), "", ""])
        if let ndjson {
            rows.append(["precompute \(ndjson.elements) items from NDJSON (\(ndjson.fileBytes / 1_000_000) MB)", seconds(ndjson.seconds), "", ""])
            rows.append(["  peak RSS while streaming it", String(format: "%.0f MB", Double(ndjson.peakResidentBytes) / 1e6), "", ""])
        }
        return "Store: sections of 1,000 grid items at width 390, medians of \(runs) runs\n" + format(rows)
    }

    static func engine(_ reports: [EngineBenchmark.Report], count: Int) -> String {
        var rows = [[
            "kind", "cells/s (median)", "streamed cells/s", "vs copy baseline", "bytes/element", "peak RSS",
            "query p50", "query p99", "linear scan p50", "speed-up",
        ]]
        for report in reports {
            rows.append([
                report.kind,
                rate(report.cellsPerSecond),
                rate(report.streamedCellsPerSecond),
                String(format: "%.2f×", report.streamedCellsPerSecond / report.baselineCopyCellsPerSecond),
                String(format: "%.1f", report.storageBytesPerElement),
                String(format: "%.0f MB", Double(report.peakResidentBytes) / 1e6),
                String(format: "%.1f µs", report.queryP50Microseconds),
                String(format: "%.1f µs", report.queryP99Microseconds),
                String(format: "%.0f µs", report.linearScanP50Microseconds),
                String(format: "%.0f×", report.linearScanP50Microseconds / report.queryP50Microseconds),
            ])
        }
        return "Engine: one section of \(count) items at width 390 (viewport queries 390×844)\n" + format(rows)
    }

    static func rate(_ value: Double) -> String {
        value >= 1e6 ? String(format: "%.2fM", value / 1e6) : String(format: "%.0fk", value / 1e3)
    }

    static func format(_ rows: [[String]]) -> String {
        TextTable.format(rows)
    }
}
