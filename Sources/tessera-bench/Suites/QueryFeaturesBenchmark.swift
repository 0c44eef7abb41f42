import TesseraLayout
import TesseraSQLite
import TesseraStore

/// What breakpoints and right-to-left add to a warm viewport query of a
/// stored layout: the same staggered feed stored plain and with
/// breakpoints that resolve to the same parameters at this width, queried
/// left to right and right to left, each source over the same random
/// viewports, in turn within each run; medians of `queries` per run, the
/// median over `runs` runs. Both are meant to cost nothing measurable.
struct QueryFeaturesBenchmark {
    var count: Int
    var queries: Int
    var runs: Int
    var directory: String

    static let width = 390.0

    struct Report: Codable {
        var items: Int
        var queries: Int
        /// Warm viewport p50 (µs) of the plain layout, left to right.
        var plainP50Microseconds: Double
        /// The layout whose spec has breakpoints (3 columns from 300 points, 2 below), left to right.
        var breakpointsP50Microseconds: Double
        /// The plain layout, right to left.
        var rightToLeftP50Microseconds: Double
        var breakpointsRatio: Double
        var rightToLeftRatio: Double
    }

    static func spec(_ layout: String, count: Int) throws -> Spec {
        try Spec(jsonText: """
            {"format": 1, "sections": [{"header": {"size": 44, "pinned": true}, "layout": \(layout),
              "items": {"count": \(count), "cycle": [{"aspectRatio": 0.75}, {"aspectRatio": 1.5}, {"aspectRatio": 1}]}}]}
            """)
    }

    func run() async throws -> Report {
        let plain = try Self.spec(#"{"kind": "staggered", "columns": 3, "itemSpacing": 4}"#, count: count)
        let stepped = try Self.spec(
            #"{"kind": "staggered", "columns": 2, "itemSpacing": 4, "breakpoints": [{"minExtent": 300, "columns": 3}]}"#, count: count
        )
        let path = "\(directory)/query-features.sqlite"
        StoreBenchmark.remove(path)
        defer { StoreBenchmark.remove(path) }
        let store = try LayoutStore(path: path)
        defer { store.close() }
        try await store.save(plain, as: "plain", crossExtents: [Self.width])
        try await store.save(stepped, as: "stepped", crossExtents: [Self.width])
        let contentLength = try LayoutEngine().layout(plain, crossExtent: Self.width).summary.contentLength

        let timed: [(Rect) async throws -> Int] = [
            { try await store.visibleElements(name: "plain", crossExtent: Self.width, viewport: $0).count },
            { try await store.visibleElements(name: "stepped", crossExtent: Self.width, viewport: $0).count },
            { try await store.visibleElements(name: "plain", crossExtent: Self.width, viewport: $0, direction: .rightToLeft).count },
        ]
        // Warm: every source's directory cached first.
        for query in timed { _ = try await query(Rect(x: 0, y: 0, width: Self.width, height: 844)) }
        var perRun: [[Double]] = []
        for run in 0..<runs {
            var random = BenchRandom(seed: UInt64(run) &+ 1)
            let viewports = (0..<queries).map { _ in
                Rect(x: 0, y: random.unit() * max(0, contentLength - 844), width: Self.width, height: 844)
            }
            perRun.append(try await medianMicroseconds(of: timed, over: viewports))
        }
        let p50 = medianOfRuns(perRun)
        return Report(
            items: count, queries: queries,
            plainP50Microseconds: p50[0], breakpointsP50Microseconds: p50[1], rightToLeftP50Microseconds: p50[2],
            breakpointsRatio: p50[1] / p50[0], rightToLeftRatio: p50[2] / p50[0]
        )
    }
}
