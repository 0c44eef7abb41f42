import Locking
import Metrics
import TesseraStore

/// The store's cache (`LayoutStore.cacheStatistics`) as metrics, recorded
/// at each scrape: what it holds, by kind, and its lookups, by kind and result.
struct CacheMetrics: Sendable {
    private let gauges: [(Gauge, KeyPath<CacheStatistics, Int> & Sendable)]
    private let counters: [(Counter, KeyPath<CacheStatistics, Int> & Sendable)]
    /// Each counter's count at the last scrape: a counter only grows by what was added since.
    private let last: Locked<[Int]>

    init(factory: any MetricsFactory) {
        let entries = { (kind: String) in Gauge(label: "tessera_cache_entries", dimensions: [("kind", kind)], factory: factory) }
        gauges = [
            (Gauge(label: "tessera_cache_bytes", factory: factory), \.bytes),
            (Gauge(label: "tessera_cache_budget_bytes", factory: factory), \.budget),
            (entries("name"), \.names), (entries("directory"), \.layouts), (entries("frames"), \.frameGroups),
        ]
        let lookups = { (kind: String, result: String) in
            Counter(label: "tessera_cache_lookups_total", dimensions: [("kind", kind), ("result", result)], factory: factory)
        }
        counters = [
            (lookups("name", "hit"), \.nameHits), (lookups("name", "miss"), \.nameMisses),
            (lookups("directory", "hit"), \.hits), (lookups("directory", "miss"), \.misses),
            (lookups("frames", "hit"), \.frameHits), (lookups("frames", "miss"), \.frameMisses),
        ]
        last = Locked([Int](repeating: 0, count: counters.count))
    }

    func record(_ statistics: CacheStatistics) {
        for (gauge, value) in gauges { gauge.record(statistics[keyPath: value]) }
        let now = counters.map { statistics[keyPath: $0.1] }
        let added = last.withLock { last in
            defer { last = now }
            return zip(now, last).map { max(0, $0 - $1) }
        }
        for ((counter, _), count) in zip(counters, added) where count > 0 { counter.increment(by: count) }
    }
}
