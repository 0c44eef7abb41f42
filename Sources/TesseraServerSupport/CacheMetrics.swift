import Locking
import Metrics
import TesseraStore

/// The store's cache (`LayoutStore.cacheStatistics`) as metrics, recorded
/// at each scrape: what it holds, by kind, and its lookups, by kind and result.
struct CacheMetrics: Sendable {
    private let bytes: Gauge
    private let budget: Gauge
    private let names: Gauge
    private let directories: Gauge
    private let frameGroups: Gauge
    /// Hit and miss counters by kind: name, directory, frames.
    private let lookups: [(hit: Counter, miss: Counter)]
    /// The counts at the last scrape: a counter only grows by what was added since.
    private let last = Locked<[Int]>([0, 0, 0, 0, 0, 0])

    init(factory: any MetricsFactory) {
        bytes = Gauge(label: "tessera_cache_bytes", factory: factory)
        budget = Gauge(label: "tessera_cache_budget_bytes", factory: factory)
        let entries = { (kind: String) in Gauge(label: "tessera_cache_entries", dimensions: [("kind", kind)], factory: factory) }
        names = entries("name")
        directories = entries("directory")
        frameGroups = entries("frames")
        lookups = ["name", "directory", "frames"].map { kind in
            let counter = { (result: String) in
                Counter(label: "tessera_cache_lookups_total", dimensions: [("kind", kind), ("result", result)], factory: factory)
            }
            return (counter("hit"), counter("miss"))
        }
    }

    func record(_ statistics: CacheStatistics) {
        bytes.record(statistics.bytes)
        budget.record(statistics.budget)
        names.record(statistics.names)
        directories.record(statistics.layouts)
        frameGroups.record(statistics.frameGroups)
        let now = [
            statistics.nameHits, statistics.nameMisses, statistics.hits, statistics.misses, statistics.frameHits, statistics.frameMisses,
        ]
        let added = last.withLock { last in
            defer { last = now }
            return zip(now, last).map { max(0, $0 - $1) }
        }
        for (index, counters) in lookups.enumerated() {
            if added[2 * index] > 0 { counters.hit.increment(by: added[2 * index]) }
            if added[2 * index + 1] > 0 { counters.miss.increment(by: added[2 * index + 1]) }
        }
    }
}
