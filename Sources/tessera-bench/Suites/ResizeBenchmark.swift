import Foundation
import TesseraLayout
import TesseraSQLite
import TesseraStore

/// Measures resizes (measured sizes) of a feed of `count` staggered items
/// (`count`/`cycle`) stored at three widths, beside a full precompute of
/// the same feed in the same run: 100 items among the last 1,000, and
/// item 0 (no saved state before it: about a full recompute).
struct ResizeBenchmark {
    static let widths: [Double] = [390, 430, 768]
    var count: Int
    var runs: Int
    var directory: String

    struct Report: Codable {
        var items: Int
        var widths: [Double]
        var fullPrecomputeSeconds: Double
        var resizeNearEndSeconds: Double
        var resizedItems: Int
        var resizeFirstItemSeconds: Double
    }

    static func spec(count: Int) throws -> Spec {
        try Spec(jsonText: """
        {"format": 1, "sections": [{"layout": {"kind": "staggered", "columns": 2, "itemSpacing": 4, "lineSpacing": 4},
          "items": {"count": \(count), "cycle": [{"length": 120}, {"length": 80}, {"length": 200}, {"length": 150}, {"length": 95}]}}]}
        """)
    }

    func run() async throws -> Report {
        let spec = try Self.spec(count: count)
        let path = "\(directory)/resize.sqlite"
        var full = Samples()
        for _ in 0..<runs {
            StoreBenchmark.remove(path)
            let store = try LayoutStore(path: path)
            let start = now()
            try await store.save(spec, as: "bench", crossExtents: Self.widths)
            full.add(now() - start)
            await store.finishBackgroundWork()
            store.close()
        }
        defer { StoreBenchmark.remove(path) }
        let store = try LayoutStore(path: path)
        defer { store.close() }
        var random = BenchRandom(seed: 7)
        let resized = min(100, count)
        var nearEnd = Samples()
        for _ in 0..<runs {
            let window = min(1000, count)
            var picked = Set<Int>()
            while picked.count < resized { picked.insert(count - window + Int(random.unit() * Double(window)) % window) }
            let changes = picked.sorted().map { ItemChange(item: $0, fields: [.length: .number(60 + (random.unit() * 200).rounded())]) }
            let start = now()
            try await store.resize(name: "bench", section: 0, changes: changes)
            nearEnd.add(now() - start)
        }
        var first = Samples()
        for run in 0..<runs {
            let start = now()
            try await store.resize(name: "bench", section: 0, changes: [ItemChange(item: 0, fields: [.length: .number(Double(100 + run))])])
            first.add(now() - start)
        }
        return Report(
            items: count, widths: Self.widths, fullPrecomputeSeconds: full.median,
            resizeNearEndSeconds: nearEnd.median, resizedItems: resized, resizeFirstItemSeconds: first.median
        )
    }
}

extension BenchTable {
    static func resize(_ report: ResizeBenchmark.Report, runs: Int) -> String {
        func milliseconds(_ value: Double) -> String { String(format: "%.1f ms", value * 1000) }
        func share(_ value: Double) -> String { String(format: "%.2f %% of it", 100 * value / report.fullPrecomputeSeconds) }
        let rows = [
            ["measure", "resize", "full precompute (same run)", "ratio"],
            ["\(report.resizedItems) items among the last 1,000", milliseconds(report.resizeNearEndSeconds),
             milliseconds(report.fullPrecomputeSeconds), share(report.resizeNearEndSeconds)],
            ["item 0", milliseconds(report.resizeFirstItemSeconds), milliseconds(report.fullPrecomputeSeconds), share(report.resizeFirstItemSeconds)],
        ]
        let widths = report.widths.map { JSONWriter.format($0) }.joined(separator: ", ")
        return "Resizes: a staggered feed of \(report.items) items at widths \(widths), in process, medians of \(runs) runs\n" + format(rows)
    }
}
