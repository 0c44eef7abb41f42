import Synchronization

/// A cache shared by threads and bounded by bytes: values keyed by
/// `Key`, the least recently used dropped first when the budget is reached.
/// Values never change under their key (a key names one immutable value:
/// a layout's revision, a group's checksum), so a reader that finds one
/// needs no other check than its key.
package final class ByteBudgetCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Node {
        var key: Key
        /// nil once removed (the node waits in `free` for reuse).
        var value: Value?
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
            nodes[node].value = nil
            free.append(node)
        }
    }

    package let budget: Int
    private let state = Mutex(State())

    package init(budget: Int) {
        self.budget = max(0, budget)
    }

    /// The cached value, marked as just used; nil (a miss) when absent.
    /// `counting` false leaves the hit or miss to ``count(hit:)``, for a
    /// caller whose lookup may be tried again (a read run twice).
    package func value(_ key: Key, counting: Bool = true) -> Value? {
        state.withLock { state in
            guard let node = state.index[key] else {
                if counting { state.misses += 1 }
                return nil
            }
            if counting { state.hits += 1 }
            if state.newest != node {
                state.unlink(node)
                state.pushNewest(node)
            }
            return state.nodes[node].value
        }
    }

    /// Counts one use of the cache found by an uncounted lookup.
    package func count(hit: Bool) {
        state.withLock { state in
            if hit { state.hits += 1 } else { state.misses += 1 }
        }
    }

    /// Whether `key` is cached, without counting a use.
    package func contains(_ key: Key) -> Bool {
        state.withLock { $0.index[key] != nil }
    }

    /// Caches `value` as taking `bytes`, dropping the least recently used
    /// values beyond the budget. A value larger than the whole budget is
    /// not cached.
    package func insert(_ value: Value, bytes: Int, for key: Key) {
        guard bytes <= budget else { return }
        state.withLock { state in
            if let existing = state.index[key] { state.remove(existing) }
            while state.bytes + bytes > budget, state.oldest >= 0 {
                state.remove(state.oldest)
                state.evictions += 1
            }
            let node = Node(key: key, value: value, bytes: bytes, older: -1, newer: -1)
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

    /// What the cache holds and how it was used.
    package var statistics: CacheStatistics {
        state.withLock { state in
            CacheStatistics(
                bytes: state.bytes, budget: budget, layouts: state.index.count,
                hits: state.hits, misses: state.misses, evictions: state.evictions
            )
        }
    }
}
