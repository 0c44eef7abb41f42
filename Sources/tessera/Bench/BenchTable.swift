/// Plain-text tables of benchmark reports.
enum BenchTable {
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

import Foundation
