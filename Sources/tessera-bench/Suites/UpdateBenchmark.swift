import Foundation
import TesseraLayout
import TesseraSQLite
import TesseraStore

/// Measures incremental updates on the store benchmark's feed (sections of
/// 1,000 grid items), beside a full recompute of the same feed in the same run.
struct UpdateBenchmark {
    var count: Int
    var runs: Int
    var directory: String

    struct Report: Codable {
        var elements: Int
        var sections: Int
        var fullRecomputeSeconds: Double
        var appendSeconds: Double
        var appendedItems: Int
        var editSeconds: Double
    }

    func run() async throws -> Report {
        var spec = try StoreBenchmark.spec(count: count)
        let path = "\(directory)/updates.sqlite"
        let width = BenchSpecs.width
        var full = Samples()
        for _ in 0..<runs {
            StoreBenchmark.remove(path)
            let store = try LayoutStore(path: path)
            let start = now()
            try await store.save(spec, crossExtents: [width])
            full.add(now() - start)
            await store.finishBackgroundWork()
        }
        defer { StoreBenchmark.remove(path) }
        let store = try LayoutStore(path: path)
        let last = spec.sections.count - 1
        let appended = (0..<1000).map { _ in Item() }
        var append = Samples()
        for _ in 0..<runs {
            let start = now()
            try await store.append(name: "bench", section: last, items: appended)
            append.add(now() - start)
        }
        // The feed as stored now: the appends went into its last section.
        spec = try await store.spec(named: "bench") ?? spec
        var edit = Samples()
        let middle = spec.sections.count / 2
        for run in 0..<runs {
            spec.sections[middle].layout = GridLayout(fraction: 2 + run % 2, itemSpacing: 2, lineSpacing: 2)
            let start = now()
            try await store.update(name: "bench", with: spec)
            edit.add(now() - start)
        }
        let layout = try await store.layout(name: "bench", crossExtent: width).layout
        return Report(
            elements: layout.elementCount,
            sections: layout.sectionCount,
            fullRecomputeSeconds: full.median,
            appendSeconds: append.median,
            appendedItems: appended.count,
            editSeconds: edit.median
        )
    }
}
