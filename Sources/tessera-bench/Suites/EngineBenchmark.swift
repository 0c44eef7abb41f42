import TesseraCommandSupport
import TesseraLayout
import TesseraStore

/// Measures one kind in this process: compute speed in memory and streamed,
/// storage per element, peak memory, and rect queries against a linear scan.
struct EngineBenchmark {
    var kind: String
    var count: Int
    var runs: Int

    struct Report: Codable {
        var kind: String
        var cells: Int
        var computeSeconds: Double
        var cellsPerSecond: Double
        var streamedCellsPerSecond: Double
        var baselineCopyCellsPerSecond: Double
        var storageBytesPerElement: Double
        var peakResidentBytes: Int
        var queryP50Microseconds: Double
        var queryP99Microseconds: Double
        var linearScanP50Microseconds: Double
    }

    func run() throws -> Report {
        let spec = try BenchSpecs.spec(kind: kind, count: count)
        let engine = LayoutEngine()
        var result: LayoutResult?
        let compute = try measure(runs: runs) {
            result = nil
            result = try engine.layout(spec, crossExtent: BenchSpecs.width)
        }
        guard let layout = result else { throw CommandError("the \(kind) benchmark produced no layout") }
        var discard = DiscardingConsumer()
        let streamed = try measure(runs: runs) { try engine.run(spec, crossExtent: BenchSpecs.width, into: &discard) }
        // Sampled before the query baseline builds its array of every element.
        let peak = ProcessMemory.peakResidentBytes ?? 0
        let copy = measure(runs: runs) { discard.copyBaseline(count: count) }
        let queries = queryTimes(layout)
        return Report(
            kind: kind,
            cells: layout.summary.cellCount,
            computeSeconds: compute.median,
            cellsPerSecond: Double(count) / compute.median,
            streamedCellsPerSecond: Double(count) / streamed.median,
            baselineCopyCellsPerSecond: Double(count) / copy.median,
            storageBytesPerElement: Double(layout.storageBytes) / Double(layout.elementCount),
            peakResidentBytes: peak,
            queryP50Microseconds: queries.indexed.median * 1e6,
            queryP99Microseconds: queries.indexed.percentile(0.99) * 1e6,
            linearScanP50Microseconds: queries.linear.median * 1e6
        )
    }

    /// Phone-sized viewports at random scroll offsets: the index against a
    /// filter of every element (the seeds' "linear filter" baseline).
    private func queryTimes(_ layout: LayoutResult) -> (indexed: Samples, linear: Samples) {
        var random = BenchRandom(seed: 42)
        let length = layout.contentSize.height
        var indexed = Samples()
        var found = 0
        for _ in 0..<2000 {
            let viewport = Rect(x: 0, y: random.unit() * max(0, length - 844), width: 390, height: 844)
            let start = now()
            found &+= layout.elements(in: viewport).count
            indexed.add(now() - start)
        }
        let all = layout.elements
        var linear = Samples()
        for _ in 0..<9 {
            let viewport = Rect(x: 0, y: random.unit() * max(0, length - 844), width: 390, height: 844)
            let start = now()
            found &+= all.filter { $0.frame.intersects(viewport) }.count
            linear.add(now() - start)
        }
        if found == -1 { print(found) }
        return (indexed, linear)
    }
}

/// A consumer that touches every frame and keeps nothing: the engine's
/// speed when a store persists cells as they come.
struct DiscardingConsumer: LayoutConsumer {
    private(set) var checksum = 0.0
    private var sink: [LocalFrame] = []

    mutating func beginSection(_ index: Int, origin: SectionOrigin) throws {}

    mutating func consumeCells(_ frames: [PlacedFrame], section: Int, origin: SectionOrigin) throws {
        for placed in frames { checksum += placed.frame.scroll }
    }

    mutating func endSection(_ geometry: SectionGeometry, placer: any ItemPlacer) throws {}

    /// The floor any kind is measured against: writing `count` frames.
    mutating func copyBaseline(count: Int) {
        sink.removeAll(keepingCapacity: false)
        var scroll = 0.0
        for _ in 0..<count {
            sink.append(LocalFrame(cross: 0, scroll: scroll, crossLength: 10, scrollLength: 10))
            scroll += 1
        }
        checksum += sink.last?.scroll ?? 0
    }
}

/// A fixed-seed generator, so every run measures the same queries.
struct BenchRandom {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func unit() -> Double {
        Double(next() >> 11) / Double(1 << 53)
    }
}
