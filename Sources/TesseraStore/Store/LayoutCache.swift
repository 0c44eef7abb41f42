import Synchronization
import TesseraLayout

/// How much a store's shared cache of layout directories holds and how it is used.
public struct CacheStatistics: Sendable, Hashable {
    /// Bytes the cached directories take (an estimate from their arrays' sizes).
    public var bytes: Int
    /// The budget the cache stays within.
    public var budget: Int
    /// Layouts cached.
    public var layouts: Int
    /// Queries that found their layout's directory cached.
    public var hits: Int
    /// Queries that did not (answered through the backend's index meanwhile).
    public var misses: Int
    /// Directories dropped to stay within the budget.
    public var evictions: Int
}

/// The directories (section rows and cell-group bounds) of recently queried
/// layouts, shared by every reader of a store and bounded by bytes.
///
/// Entries are keyed by layout id and revision and never change: layout ids
/// are never reused and every change in place bumps the revision, so an
/// entry read in any snapshot that saw that revision is right for every
/// other such snapshot. Least recently used entries go first when the
/// budget is reached.
final class LayoutCache: Sendable {
    struct Key: Hashable, Sendable {
        var layoutID: Int64
        var revision: Int64
    }

    private struct Node {
        var key: Key
        var layout: CachedLayout
        var bytes: Int
        var older: Int
        var newer: Int
    }

    private struct State {
        var index: [Key: Int] = [:]
        var nodes: [Node] = []
        var free: [Int] = []
        /// The most and least recently used nodes, or -1.
        var newest = -1
        var oldest = -1
        var bytes = 0
        var hits = 0
        var misses = 0
        var evictions = 0

        mutating func unlink(_ node: Int) {
            let (older, newer) = (nodes[node].older, nodes[node].newer)
            if older >= 0 { nodes[older].newer = newer } else { oldest = newer }
            if newer >= 0 { nodes[newer].older = older } else { newest = older }
        }

        mutating func pushNewest(_ node: Int) {
            nodes[node].older = newest
            nodes[node].newer = -1
            if newest >= 0 { nodes[newest].newer = node } else { oldest = node }
            newest = node
        }

        mutating func remove(_ node: Int) {
            unlink(node)
            index[nodes[node].key] = nil
            bytes -= nodes[node].bytes
            nodes[node].layout = CachedLayout(sections: [], groups: [])
            free.append(node)
        }
    }

    let budget: Int
    private let state = Mutex(State())

    init(budget: Int) {
        self.budget = max(0, budget)
    }

    /// The cached directory, marked as just used; nil (a miss) when absent.
    func layout(_ key: Key) -> CachedLayout? {
        state.withLock { state in
            guard let node = state.index[key] else {
                state.misses += 1
                return nil
            }
            state.hits += 1
            if state.newest != node {
                state.unlink(node)
                state.pushNewest(node)
            }
            return state.nodes[node].layout
        }
    }

    /// Whether `key` is cached, without counting a use.
    func contains(_ key: Key) -> Bool {
        state.withLock { $0.index[key] != nil }
    }

    /// Caches a directory, dropping the least recently used ones beyond the
    /// budget. A directory larger than the whole budget is not cached.
    func insert(_ layout: CachedLayout, for key: Key) {
        let bytes = layout.byteCount
        guard bytes <= budget else { return }
        state.withLock { state in
            if let existing = state.index[key] { state.remove(existing) }
            while state.bytes + bytes > budget, state.oldest >= 0 {
                state.remove(state.oldest)
                state.evictions += 1
            }
            let node = Node(key: key, layout: layout, bytes: bytes, older: -1, newer: -1)
            let slot: Int
            if let reused = state.free.popLast() {
                state.nodes[reused] = node
                slot = reused
            } else {
                state.nodes.append(node)
                slot = state.nodes.count - 1
            }
            state.index[key] = slot
            state.pushNewest(slot)
            state.bytes += bytes
        }
    }

    var statistics: CacheStatistics {
        state.withLock { state in
            CacheStatistics(
                bytes: state.bytes, budget: budget, layouts: state.index.count,
                hits: state.hits, misses: state.misses, evictions: state.evictions
            )
        }
    }
}
