import Foundation
import TesseraLayout
import SQLiteToolkit
import TesseraSQLite
import TesseraStore

/// Measures the store in this process: precompute + persist, file size,
/// warm viewport queries, invalidation and replacement, each beside a
/// baseline measured in the same run.
struct StoreBenchmark {
    var count: Int
    var runs: Int
    var directory: String

    struct Report: Codable {
        var elements: Int
        var precomputeSeconds: Double
        var precomputeElementsPerSecond: Double
        var computeOnlySeconds: Double
        var bytesPerElement: Double
        var queryP50Microseconds: Double
        var queryP99Microseconds: Double
        var viewportP50Microseconds: Double
        var viewportP99Microseconds: Double
        /// Each viewport's first query in this process: its pages of the file
        /// are in the operating system's cache but not yet in the reader's map.
        var firstTouchP50Microseconds: Double
        var firstTouchP99Microseconds: Double
        var inMemoryQueryP50Microseconds: Double
        var binarySearchP50Microseconds: Double
        var binarySearchP99Microseconds: Double
        var invalidateSeconds: Double
        var deleteLayoutSeconds: Double
        var replaceSeconds: Double
        var perElementRTreeInsertSeconds: Double?
        var perElementRTreeQueryP50Microseconds: Double?
        var perElementRTreeQueryP99Microseconds: Double?
        var perElementRTreeFirstTouchP50Microseconds: Double?
        var peakResidentBytes: Int
    }

    /// A phone feed: a pinned header per section of 1,000 grid items.
    static func spec(count: Int) throws -> Spec {
        let sections = max(1, count / 1000)
        let json = """
        {"format": 1, "name": "bench", "sections": [\(Array(repeating: """
        {"layout": {"kind": "grid", "fraction": 3, "itemSpacing": 2, "lineSpacing": 2}, "header": {"size": 44, "pinned": true},
         "items": {"count": \(count / sections), "cycle": [{}, {}, {"fraction": 2, "aspectRatio": 1.5}, {}]}}
        """, count: sections).joined(separator: ","))]}
        """
        return try Spec(jsonText: json)
    }

    func run(baseline: Bool) async throws -> Report {
        let spec = try Self.spec(count: count)
        let width = BenchSpecs.width
        var precompute = Samples()
        var computeOnly = Samples()
        var path = ""
        for run in 0..<runs {
            path = "\(directory)/store-\(run).sqlite"
            Self.remove(path)
            let store = try LayoutStore(path: path)
            let start = now()
            let layouts = try await store.save(spec, crossExtents: [width]).layouts
            precompute.add(now() - start)
            computeOnly.add(layouts.first?.computeSeconds ?? 0)
            // The checkpoint the save left to the background must not run into the next run's timing.
            await store.finishBackgroundWork()
            if run < runs - 1 { Self.remove(path) }
        }
        let store = try LayoutStore(path: path)
        try await store.prune()
        let layout = try await store.layout(name: "bench", crossExtent: width).layout
        await store.finishBackgroundWork()
        let fileBytes = await store.fileBytes
        let viewports = Self.viewports(contentLength: layout.contentLength)
        let queries = try await queryTimes(store: store, layout: layout, viewports: viewports)
        let memory = try LayoutEngine().layout(spec, crossExtent: width)
        let inMemory = queryTimes(memory: memory, viewports: viewports)
        let binarySearch = BinarySearchBaseline(layout: memory).queryTimes(viewports)

        var invalidate = Samples()
        var delete = Samples()
        var replace = Samples()
        for run in 0..<max(1, runs) {
            let start = now()
            try await store.invalidate(name: "bench", crossExtent: width)
            invalidate.add(now() - start)
            try await store.layout(name: "bench", crossExtent: width)
            let deleteStart = now()
            try await store.deleteLayout(name: "bench", crossExtent: width)
            delete.add(now() - deleteStart)
            try await store.layout(name: "bench", crossExtent: width)
            // A replacement: the spec changes (one more item), every row is rewritten.
            var changed = spec
            if case .cycle(let count, let cycle) = changed.sections[0].items {
                changed.sections[0].items = .cycle(count: count + 1 + run, cycle)
            }
            let replaceStart = now()
            try await store.save(changed)
            replace.add(now() - replaceStart)
        }
        var report = Report(
            elements: layout.elementCount,
            precomputeSeconds: precompute.median,
            precomputeElementsPerSecond: Double(layout.elementCount) / precompute.median,
            computeOnlySeconds: computeOnly.median,
            bytesPerElement: Double(fileBytes) / Double(layout.elementCount),
            queryP50Microseconds: queries.rect.median * 1e6,
            queryP99Microseconds: queries.rect.percentile(0.99) * 1e6,
            viewportP50Microseconds: queries.viewport.median * 1e6,
            viewportP99Microseconds: queries.viewport.percentile(0.99) * 1e6,
            firstTouchP50Microseconds: queries.firstTouch.median * 1e6,
            firstTouchP99Microseconds: queries.firstTouch.percentile(0.99) * 1e6,
            inMemoryQueryP50Microseconds: inMemory.median * 1e6,
            binarySearchP50Microseconds: binarySearch.median * 1e6,
            binarySearchP99Microseconds: binarySearch.percentile(0.99) * 1e6,
            invalidateSeconds: invalidate.median,
            deleteLayoutSeconds: delete.median,
            replaceSeconds: replace.median,
            peakResidentBytes: ProcessMemory.peakResidentBytes ?? 0
        )
        Self.remove(path)
        if baseline {
            let rtree = try PerElementRTreeBaseline(directory: directory).run(memory: memory, viewports: viewports)
            report.perElementRTreeInsertSeconds = rtree.insertSeconds
            report.perElementRTreeQueryP50Microseconds = rtree.warm.median * 1e6
            report.perElementRTreeQueryP99Microseconds = rtree.warm.percentile(0.99) * 1e6
            report.perElementRTreeFirstTouchP50Microseconds = rtree.firstTouch.median * 1e6
        }
        return report
    }

    /// Phone viewports at random offsets along the whole feed, the same in
    /// every run and for every baseline.
    static func viewports(contentLength: Double, count: Int = 3000) -> [Rect] {
        var random = BenchRandom(seed: 7)
        return (0..<count).map { _ in
            Rect(x: 0, y: random.unit() * max(0, contentLength - 844), width: 390, height: 844)
        }
    }

    /// How many times each viewport is queried warm, after its first query:
    /// a server answers the same regions again and again, and on this
    /// machine the tail of a second query still pays for memory the first
    /// one brought near (the p99 of later passes is lower).
    static let warmPasses = 3

    /// Each viewport's first query (pages not yet mapped by the reader), then
    /// `warmPasses` times warm as a rect query and as a viewport query with
    /// pinning.
    private func queryTimes(store: LayoutStore, layout: StoredLayout, viewports: [Rect]) async throws
        -> (firstTouch: Samples, rect: Samples, viewport: Samples)
    {
        let width = layout.crossExtent
        // The first query loads the reader's cache of the layout: not timed.
        var found = try await store.elements(name: "bench", crossExtent: width, in: viewports[0]).count
        var firstTouch = Samples()
        var rect = Samples()
        var viewport = Samples()
        for query in viewports {
            let start = now()
            found &+= try await store.elements(name: "bench", crossExtent: width, in: query).count
            firstTouch.add(now() - start)
        }
        for _ in 0..<Self.warmPasses {
            for query in viewports {
                let start = now()
                found &+= try await store.elements(name: "bench", crossExtent: width, in: query).count
                rect.add(now() - start)
            }
        }
        for _ in 0..<Self.warmPasses {
            for query in viewports {
                let start = now()
                found &+= try await store.visibleElements(name: "bench", crossExtent: width, viewport: query).count
                viewport.add(now() - start)
            }
        }
        if found == -1 { print(found) }
        return (firstTouch, rect, viewport)
    }

    private func queryTimes(memory: LayoutResult, viewports: [Rect]) -> Samples {
        var samples = Samples()
        var found = 0
        for query in viewports {
            let start = now()
            found &+= memory.elements(in: query).count
            samples.add(now() - start)
        }
        if found == -1 { print(found) }
        return samples
    }

    static func remove(_ path: String) {
        DatabaseFiles.remove(path)
    }
}

/// The research notes' in-memory baseline: frames sorted by minY, a binary
/// search for the first that may reach the query (bounded below by the
/// tallest element), then a walk until minY passes the query.
struct BinarySearchBaseline {
    private var minY: [Double] = []
    private var frames: [Rect] = []
    private var tallest = 0.0

    init(layout: LayoutResult) {
        let sorted = layout.elements.map(\.frame).sorted { $0.minY < $1.minY }
        frames = sorted
        minY = sorted.map(\.minY)
        tallest = sorted.map(\.height).max() ?? 0
    }

    func queryTimes(_ viewports: [Rect]) -> Samples {
        var samples = Samples()
        var found = 0
        for query in viewports {
            let start = now()
            var lower = 0
            var upper = minY.count
            let low = query.minY - tallest
            while lower < upper {
                let middle = (lower + upper) / 2
                if minY[middle] < low { lower = middle + 1 } else { upper = middle }
            }
            var hits: [Rect] = []
            var index = lower
            while index < frames.count, minY[index] < query.maxY {
                if frames[index].intersects(query) { hits.append(frames[index]) }
                index += 1
            }
            found &+= hits.count
            samples.add(now() - start)
        }
        if found == -1 { print(found) }
        return samples
    }
}

/// The research notes' baseline: one R*Tree row per element, exact frames
/// joined from a table, in one transaction.
struct PerElementRTreeBaseline {
    var directory: String

    /// Insert time, each viewport's first query, and its warm ones.
    func run(memory: LayoutResult, viewports: [Rect]) throws -> (insertSeconds: Double, firstTouch: Samples, warm: Samples) {
        let path = "\(directory)/baseline-rtree.sqlite"
        StoreBenchmark.remove(path)
        defer { StoreBenchmark.remove(path) }
        let connection = try Connection(path: path)
        try connection.execute("""
            CREATE VIRTUAL TABLE boxes USING rtree(id, min_x, max_x, min_y, max_y);
            CREATE TABLE frames (id INTEGER PRIMARY KEY, section INTEGER, item INTEGER, x REAL, y REAL, w REAL, h REAL);
            """)
        let elements = memory.elements
        let start = now()
        try connection.transaction {
            let box = try connection.cachedStatement("INSERT INTO boxes VALUES (?, ?, ?, ?, ?)")
            let frame = try connection.cachedStatement("INSERT INTO frames VALUES (?, ?, ?, ?, ?, ?, ?)")
            for (id, element) in elements.enumerated() {
                let rect = element.frame
                try box.bind(id, rect.minX, rect.maxX, rect.minY, rect.maxY)
                try box.execute()
                try frame.bind(id, element.section, element.item ?? -1, rect.x, rect.y)
                try frame.bind(rect.width, at: 6)
                try frame.bind(rect.height, at: 7)
                try frame.execute()
            }
        }
        let insertSeconds = now() - start
        let query = try connection.cachedStatement("""
            SELECT f.section, f.item, f.x, f.y, f.w, f.h FROM boxes AS b JOIN frames AS f ON f.id = b.id
            WHERE b.max_x > ?1 AND b.min_x < ?2 AND b.max_y > ?3 AND b.min_y < ?4
            """)
        var found = 0
        // The same passes as the store's: each viewport's first query, then warm ones.
        var firstTouch = Samples()
        var warm = Samples()
        for pass in 0...StoreBenchmark.warmPasses {
            for viewport in viewports {
                let begin = now()
                try query.bind(viewport.minX, viewport.maxX, viewport.minY, viewport.maxY)
                while try query.step() {
                    // The exact test, as the store does, on the joined frames.
                    let x = query.double(at: 2), y = query.double(at: 3), w = query.double(at: 4), h = query.double(at: 5)
                    if Rect(x: x, y: y, width: w, height: h).intersects(viewport) { found &+= 1 }
                }
                if pass == 0 { firstTouch.add(now() - begin) } else { warm.add(now() - begin) }
            }
        }
        if found == -1 { print(found) }
        return (insertSeconds, firstTouch, warm)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
