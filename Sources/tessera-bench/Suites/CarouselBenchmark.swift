import TesseraLayout
import TesseraSQLite
import TesseraStore

/// Queries of a feed of 50 carousels with an offset for each, beside the
/// same rect queries without offsets, from the same layout in memory and
/// stored in SQLite: medians of `queries` random viewports per run, the
/// median over `runs` runs. Offsets only move the rect across a carousel
/// and its answers back, so the two should cost about the same.
struct CarouselBenchmark {
    var queries: Int
    var runs: Int
    var directory: String

    static let width = 390.0
    static let carousels = 50

    struct Report: Codable {
        var carousels: Int
        var elements: Int
        var queries: Int
        /// In memory (`LayoutResult`), p50 in microseconds.
        var memoryPlainP50Microseconds: Double
        var memoryOffsetP50Microseconds: Double
        /// From a SQLite store (its directory cached), p50 in microseconds.
        var storePlainP50Microseconds: Double
        var storeOffsetP50Microseconds: Double
        /// Offsets over plain, per source.
        var memoryRatio: Double
        var storeRatio: Double
    }

    /// A vertical feed: 50 carousels of 40 cards (each 180 long, a header
    /// of 36), each after a grid of 20 squares.
    static var spec: Spec {
        var sections: [Section] = []
        for index in 0..<carousels {
            sections.append(Section(
                id: "grid-\(index)", layout: GridLayout(fraction: 2, itemSpacing: 4, lineSpacing: 4),
                insets: Insets(top: 8, left: 8, bottom: 8, right: 8), items: .cycle(count: 20, [Item()])
            ))
            sections.append(Section(
                id: "carousel-\(index)", layout: GridLayout(aspectRatio: 0.75, lineSpacing: 12),
                insets: Insets(top: 8, left: 16, bottom: 8, right: 16), header: Supplementary(size: 36),
                items: .cycle(count: 40, [Item()]), orthogonal: Orthogonal(length: 180)
            ))
        }
        return Spec(name: "carousels", sectionSpacing: 12, sections: sections)
    }

    func run() async throws -> Report {
        let spec = Self.spec
        let memory = try LayoutEngine().layout(spec, crossExtent: Self.width)
        let path = "\(directory)/carousels.sqlite"
        StoreBenchmark.remove(path)
        defer { StoreBenchmark.remove(path) }
        let store = try LayoutStore(path: path)
        defer { store.close() }
        try await store.save(spec, crossExtents: [Self.width])
        let contentLength = memory.summary.contentLength

        var perRun: [[Double]] = []
        for run in 0..<runs {
            // The same viewports and offsets for the four sources of a run.
            var random = BenchRandom(seed: UInt64(run) &+ 1)
            let viewports = (0..<queries).map { _ in
                Rect(x: 0, y: random.unit() * max(0, contentLength - 844), width: Self.width, height: 844)
            }
            let offsets = OrthogonalOffsets(Dictionary(uniqueKeysWithValues: (0..<Self.carousels).map { (2 * $0 + 1, random.unit() * 4000) }))
            perRun.append(try await medianMicroseconds(of: [
                { memory.elements(in: $0).count },
                { memory.elements(in: $0, offsets: offsets).count },
                { try await store.elements(name: "carousels", crossExtent: Self.width, in: $0).count },
                { try await store.elements(name: "carousels", crossExtent: Self.width, in: $0, offsets: offsets).count },
            ], over: viewports))
        }
        let p50 = medianOfRuns(perRun)
        return Report(
            carousels: Self.carousels, elements: memory.elementCount, queries: queries,
            memoryPlainP50Microseconds: p50[0], memoryOffsetP50Microseconds: p50[1],
            storePlainP50Microseconds: p50[2], storeOffsetP50Microseconds: p50[3],
            memoryRatio: p50[1] / p50[0], storeRatio: p50[3] / p50[2]
        )
    }
}
