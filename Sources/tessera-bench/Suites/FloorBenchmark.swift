import Foundation
import TesseraCommandSupport
import TesseraLayout
import TesseraSQLite
import TesseraStore
import TesseraPrecompute

/// The store against its physical floor, each figure beside the baseline
/// of the same run: warm viewports of one layout beside the engine's
/// in-memory ``LayoutResult`` of that layout, 64 layouts in rotation beside
/// one, the first query of feeds a store never read among 20,000 small
/// ones beside the same queries warm, and appends (see
/// `FloorBenchmark+Appends.swift`). `LayoutStore(path:)` defaults throughout.
struct FloorBenchmark {
    struct Report: Codable {
        var feeds: Int
        var widths: Int
        var elementsPerLayout: Int
        var queries: Int
        var inMemoryP50Microseconds: Double
        var inMemoryP99Microseconds: Double
        var oneLayoutP50Microseconds: Double
        var oneLayoutP99Microseconds: Double
        /// Nil for a figure not selected (`--figures`).
        var rotationP50Microseconds: Double?
        var rotationP99Microseconds: Double?
        /// The same rotation over the engine's in-memory layouts of the 64:
        /// what memory alone costs when each query meets a layout the
        /// processor's caches no longer hold (the rotation's floor).
        var memoryRotationP50Microseconds: Double?
        var memoryRotationP99Microseconds: Double?
        /// Elements a viewport of one layout, and of the layouts in rotation,
        /// on average: the widths in rotation hold more items a viewport.
        var oneLayoutElementsPerViewport: Double?
        var rotationElementsPerViewport: Double?
        var smallFeeds: Int
        var firstQueryP50Microseconds: Double?
        var firstQueryP99Microseconds: Double?
        /// The first queries of the process's first run alone, and of the
        /// runs after it (nil with one run): the first grows the process's
        /// heap, the others reuse what the store closed before them freed.
        var firstRunFirstQueryP50Microseconds: Double?
        var laterRunsFirstQueryP50Microseconds: Double?
        var smallWarmP50Microseconds: Double?
        var smallWarmP99Microseconds: Double?
        var appends: Appends?
        var afterAppend: AfterAppend?
        var peakResidentBytes: Int?
    }

    /// The figures a run measures (`--figures`): `warm` (one layout beside
    /// the in-memory layout), `rotation` (64 layouts beside one, which it
    /// measures too), `first` (the first query among small feeds),
    /// `appends` and `afterappend` (the first pass of viewports after an append).
    enum Figure: String, CaseIterable, Sendable {
        case warm, rotation, first, appends
        case afterAppend = "afterappend"

        /// The figures named in `list` (comma-separated); all for nil.
        static func parse(_ list: String?) throws -> Set<Figure> {
            guard let list else { return Set(allCases) }
            var figures: Set<Figure> = []
            for name in list.split(separator: ",", omittingEmptySubsequences: false) {
                guard let figure = Figure(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                    throw CommandError("unknown figure \"\(name)\" in --figures (known: \(allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                figures.insert(figure)
            }
            return figures
        }
    }

    /// Items per layout of the warm figures (`--size`).
    let count: Int
    let runs: Int
    let directory: String
    /// The `tessera` executable the whole-process append runs (`--tessera`).
    let tessera: URL
    /// Viewports timed per figure.
    var queries = 20_000
    /// Small feeds of the first-query figure (`--feeds`).
    var smallFeeds = defaultSmallFeeds
    static let defaultSmallFeeds = 20_000
    /// Items of the feed the whole-process append writes to.
    var appendFeedItems = 3_000_000
    /// The figures measured.
    var figures = Set(Figure.allCases)

    func run() async throws -> Report {
        let warm = figures.contains(.warm) || figures.contains(.rotation) ? try await warmFigures() : nil
        let first = figures.contains(.first) ? try await firstQueries() : nil
        let everyFirst = first.map { $0.firstRun + $0.laterRuns }
        let appends = figures.contains(.appends) ? try await appendFigures() : nil
        let afterAppend = figures.contains(.afterAppend) ? try await afterAppendFigures() : nil
        func micro(_ samples: Samples?, _ percentile: Double) -> Double? { samples.map { $0.percentile(percentile) * 1e6 } }
        return Report(
            feeds: ServingBenchmark.feeds, widths: ServingBenchmark.widths.count, elementsPerLayout: warm?.elements ?? 0, queries: queries,
            inMemoryP50Microseconds: micro(warm?.memory, 0.5) ?? 0, inMemoryP99Microseconds: micro(warm?.memory, 0.99) ?? 0,
            oneLayoutP50Microseconds: micro(warm?.one, 0.5) ?? 0, oneLayoutP99Microseconds: micro(warm?.one, 0.99) ?? 0,
            rotationP50Microseconds: micro(warm?.rotation, 0.5), rotationP99Microseconds: micro(warm?.rotation, 0.99),
            memoryRotationP50Microseconds: micro(warm?.memoryRotation, 0.5), memoryRotationP99Microseconds: micro(warm?.memoryRotation, 0.99),
            oneLayoutElementsPerViewport: warm?.oneElements, rotationElementsPerViewport: warm?.rotationElements,
            smallFeeds: smallFeeds,
            firstQueryP50Microseconds: micro(everyFirst, 0.5), firstQueryP99Microseconds: micro(everyFirst, 0.99),
            firstRunFirstQueryP50Microseconds: micro(first?.firstRun, 0.5),
            laterRunsFirstQueryP50Microseconds: runs > 1 ? micro(first?.laterRuns, 0.5) : nil,
            smallWarmP50Microseconds: micro(first?.warm, 0.5), smallWarmP99Microseconds: micro(first?.warm, 0.99),
            appends: appends, afterAppend: afterAppend, peakResidentBytes: ProcessMemory.peakResidentBytes
        )
    }

    /// 8 feeds × 8 widths of `count` items. The in-memory layout of the
    /// first, the store's answers for it, and the same number of viewports
    /// over all 64 layouts, from the store and from 64 in-memory layouts,
    /// each timed as a block, the blocks in turn.
    /// Every viewport is queried once untimed first, as a server meets the
    /// same regions again and again.
    private func warmFigures() async throws -> (
        elements: Int, memory: Samples, one: Samples, rotation: Samples?, memoryRotation: Samples?, oneElements: Double, rotationElements: Double?
    ) {
        let path = directory + "/tessera-bench-floor.sqlite"
        StoreBenchmark.remove(path)
        defer { StoreBenchmark.remove(path) }
        let spec = try StoreBenchmark.spec(count: count)
        let store = try LayoutStore(path: path)
        for feed in 0..<ServingBenchmark.feeds { try await store.save(spec, as: "feed\(feed)", crossExtents: ServingBenchmark.widths) }
        await store.finishBackgroundWork()
        let layouts = try await store.layouts()
        guard let one = layouts.first(where: { $0.specName == "feed0" && $0.crossExtent == BenchSpecs.width }) else {
            throw CommandError("the floor suite's store lacks feed0 at \(BenchSpecs.width)")
        }
        let memory = try LayoutEngine().layout(spec, crossExtent: one.crossExtent)

        var random = BenchRandom(seed: 27)
        func viewport(_ layout: StoredLayout) -> Rect {
            Rect(x: 0, y: random.unit() * max(0, layout.contentLength - 844), width: layout.crossExtent, height: 844)
        }
        let oneViewports = (0..<queries).map { _ in viewport(one) }
        // Each viewport with its layout's position among `layouts`, which
        // the in-memory layouts below share.
        let rotation = (0..<queries).map { index in
            let position = index % layouts.count
            return (position: position, layout: layouts[position], rect: viewport(layouts[position]))
        }
        let rotating = figures.contains(.rotation)
        // Each its own result, as a process holding 64 layouts would hold them.
        let memoryLayouts = rotating ? try layouts.map { try LayoutEngine().layout(spec, crossExtent: $0.crossExtent) } : []
        var found = 0
        var oneElements = 0
        var rotationElements = 0
        var memorySamples = Samples()
        var oneSamples = Samples()
        var rotationSamples = Samples()
        var memoryRotationSamples = Samples()
        for rect in oneViewports {
            found &+= memory.visibleElements(viewport: rect).count
            oneElements &+= try await store.visibleElements(name: one.specName, crossExtent: one.crossExtent, viewport: rect).count
        }
        for (_, layout, rect) in rotation where rotating {
            rotationElements &+= try await store.visibleElements(name: layout.specName, crossExtent: layout.crossExtent, viewport: rect).count
        }
        for _ in 0..<runs {
            // Each figure a block of its own (interleaved, each source would
            // evict the other's data from the processor's caches); the blocks
            // in turn, run after run, so that a drift touches all alike.
            for rect in oneViewports {
                let start = now()
                found &+= memory.visibleElements(viewport: rect).count
                memorySamples.add(now() - start)
            }
            for rect in oneViewports {
                let start = now()
                found &+= try await store.visibleElements(name: one.specName, crossExtent: one.crossExtent, viewport: rect).count
                oneSamples.add(now() - start)
            }
            for (_, layout, rect) in rotation where rotating {
                let start = now()
                found &+= try await store.visibleElements(name: layout.specName, crossExtent: layout.crossExtent, viewport: rect).count
                rotationSamples.add(now() - start)
            }
            for (position, _, rect) in rotation where rotating {
                let start = now()
                found &+= memoryLayouts[position].visibleElements(viewport: rect).count
                memoryRotationSamples.add(now() - start)
            }
        }
        if found == -1 { print(found) }
        let perViewport = { (total: Int) in Double(total) / Double(max(1, queries)) }
        return (
            one.elementCount, memorySamples, oneSamples, rotating ? rotationSamples : nil, rotating ? memoryRotationSamples : nil,
            perViewport(oneElements), rotating ? perViewport(rotationElements) : nil
        )
    }

    /// `smallFeeds` feeds of 150–300 items at two widths (the feeds suite's),
    /// saved in a batch; each run opens the store anew (a process that read
    /// none of them) and queries `queries` different layouts of random
    /// feeds once, in the first run and in the runs after it; the baseline
    /// is the same queries again, warm.
    private func firstQueries() async throws -> (firstRun: Samples, laterRuns: Samples, warm: Samples) {
        let path = directory + "/tessera-bench-floor-feeds.sqlite"
        StoreBenchmark.remove(path)
        defer { StoreBenchmark.remove(path) }
        let writer = try LayoutStore(path: path)
        let saved = try await writer.saveBatch((0..<smallFeeds).lazy.map(FeedsBenchmark.feed), crossExtents: FeedsBenchmark.widths)
        guard saved.saved == smallFeeds else { throw CommandError("the batch saved \(saved.saved) of \(smallFeeds) feeds") }
        await writer.finishBackgroundWork()
        let lengths = try await FeedsBenchmark.contentLengths(of: writer)
        writer.close()

        var random = BenchRandom(seed: 31)
        var warm = Samples()
        var firstRun = Samples()
        var laterRuns = Samples()
        for run in 0..<runs {
            // Distinct layouts, in random order: each is read for the first time.
            let layouts = smallFeeds * FeedsBenchmark.widths.count
            let picks = FeedsBenchmark.scatteredViewports(feeds: smallFeeds, count: min(queries, layouts - 1) + 1, lengths: lengths, random: &random)
            let store = try LayoutStore(path: path)
            defer { store.close() }
            // The connection's own first use is not a feed's: untimed.
            _ = try await store.visibleElements(name: picks[0].0, crossExtent: picks[0].1, viewport: picks[0].2, computeIfMissing: false)
            for pass in 0..<2 {
                for (name, width, rect) in picks.dropFirst() {
                    let start = now()
                    _ = try await store.visibleElements(name: name, crossExtent: width, viewport: rect, computeIfMissing: false)
                    let elapsed = now() - start
                    if pass == 1 {
                        warm.add(elapsed)
                    } else if run == 0 {
                        firstRun.add(elapsed)
                    } else {
                        laterRuns.add(elapsed)
                    }
                }
            }
        }
        return (firstRun, laterRuns, warm)
    }
}
