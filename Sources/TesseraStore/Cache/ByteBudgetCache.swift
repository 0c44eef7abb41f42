import Locking
import Synchronization

/// A cache shared by threads and bounded by bytes: values keyed by
/// `Key`, the least recently used dropped first when the budget is reached.
/// Values never change under their key (a key names one immutable value:
/// a layout's revision, a group's checksum), so a reader that finds one
/// needs no other check than its key.
///
/// Keys are spread over `shards` parts, each with its own lock and an even
/// share of the budget, so that threads looking up different keys rarely
/// wait for each other (least recently used is then per part).
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
        var index: [Key: Int]
        var nodes: [Node] = []
        var free: [Int] = []
        /// The most and least recently used nodes, or -1.
        var newest = -1
        var oldest = -1
        var bytes = 0
        var evictions = 0

        /// Room for `capacity` entries, reserved now (see ``ByteBudgetCache/init(budget:shards:entryBytes:)``).
        init(capacity: Int) {
            index = Dictionary(minimumCapacity: capacity)
            nodes.reserveCapacity(capacity)
        }

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

        /// Marks `node` as the most recently used.
        mutating func markUsed(_ node: Int) {
            guard newest != node else { return }
            unlink(node)
            pushNewest(node)
        }

        mutating func remove(_ node: Int) {
            unlink(node)
            index[nodes[node].key] = nil
            bytes -= nodes[node].bytes
            nodes[node].value = nil
            free.append(node)
        }
    }

    private final class Shard: Sendable {
        let state: Locked<State>

        init(capacity: Int) {
            state = Locked(State(capacity: capacity))
        }
    }

    package let budget: Int
    private let shards: [Shard]
    /// The hash that picks a key's part: a key that carries its hash
    /// saves a second round of `Hasher` on every lookup.
    private let spread: @Sendable (Key) -> Int
    private let shardBudget: Int
    // Counted outside the locks: a hit takes one lock, not two.
    private let hits = Atomic<Int>(0)
    private let misses = Atomic<Int>(0)

    /// A cache of `budget` bytes in `shards` parts. With `entryBytes`, the
    /// fewest bytes an entry is charged, each part reserves room for as
    /// many entries as its budget holds (up to ``maximumReserved``), so
    /// that filling it never grows its tables: a growth rehashes and
    /// copies every entry while a query waits. Untouched, reserved memory
    /// takes address space, not memory.
    /// `spread` picks a key's part (its `hashValue` unless given).
    package init(budget: Int, shards: Int = 1, entryBytes: Int? = nil, spread: (@Sendable (Key) -> Int)? = nil) {
        self.budget = max(0, budget)
        self.spread = spread ?? { $0.hashValue }
        let count = max(1, shards)
        let shardBudget = self.budget / count
        self.shardBudget = shardBudget
        let capacity = entryBytes.map { min(Self.maximumReserved, shardBudget / max(1, $0)) } ?? 0
        self.shards = (0..<count).map { _ in Shard(capacity: capacity) }
    }

    /// The most entries a part reserves room for.
    static var maximumReserved: Int { 1 << 16 }

    private func shard(_ key: Key) -> Shard {
        shards.count == 1 ? shards[0] : shards[Int(UInt(bitPattern: spread(key)) % UInt(shards.count))]
    }

    /// The cached value, marked as just used; nil (a miss) when absent.
    /// `counting` false leaves the hit or miss to ``count(hit:)``, for a
    /// caller whose lookup may be tried again (a read run twice).
    package func value(_ key: Key, counting: Bool = true) -> Value? {
        let found: Value? = shard(key).state.withLock { state in
            guard let node = state.index[key] else { return nil }
            state.markUsed(node)
            return state.nodes[node].value
        }
        if counting { count(hit: found != nil) }
        return found
    }

    /// The cached value of `key` and where it is in its part, marked as
    /// just used and not counted; nil when absent. `slot`, where an earlier
    /// lookup found it, is tried first: while it still holds `key`, no hash.
    package func value(_ key: Key, near slot: Int) -> (value: Value, slot: Int)? {
        shard(key).state.withLock { state in
            let node: Int
            if slot >= 0, slot < state.nodes.count, state.nodes[slot].value != nil, state.nodes[slot].key == key {
                node = slot
            } else if let found = state.index[key] {
                node = found
            } else {
                return nil
            }
            state.markUsed(node)
            return state.nodes[node].value.map { ($0, node) }
        }
    }

    /// Counts one use of the cache found by an uncounted lookup.
    package func count(hit: Bool) {
        if hit { hits.add(1, ordering: .relaxed) } else { misses.add(1, ordering: .relaxed) }
    }

    /// Whether `key` is cached, without counting a use.
    package func contains(_ key: Key) -> Bool {
        shard(key).state.withLock { $0.index[key] != nil }
    }

    /// The cached values whose keys satisfy `matches`, without marking or
    /// counting a use: a pass over every key (for statistics and tests;
    /// never on a query's path).
    package func values(where matches: (Key) -> Bool) -> [(key: Key, value: Value)] {
        var found: [(key: Key, value: Value)] = []
        for shard in shards {
            shard.state.withLock { state in
                for (key, node) in state.index where matches(key) {
                    if let value = state.nodes[node].value { found.append((key, value)) }
                }
            }
        }
        return found
    }

    /// The cached value of `key`, neither marked as used nor counted: for
    /// a look that is no use of it.
    package func peek(_ key: Key) -> Value? {
        shard(key).state.withLock { state in state.index[key].flatMap { state.nodes[$0].value } }
    }

    /// Whether a value of `bytes` would be cached (see ``insert(_:bytes:for:)``).
    package func admits(bytes: Int) -> Bool { bytes <= shardBudget }

    /// Caches `value` as taking `bytes`, dropping the least recently used
    /// values of its part beyond the part's budget. A value larger than the
    /// part's budget is not cached.
    package func insert(_ value: Value, bytes: Int, for key: Key) {
        guard admits(bytes: bytes) else { return }
        shard(key).state.withLock { state in
            if let existing = state.index[key] { state.remove(existing) }
            while state.bytes + bytes > shardBudget, state.oldest >= 0 {
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
        var total = CacheStatistics(
            bytes: 0, budget: budget, layouts: 0,
            hits: hits.load(ordering: .relaxed), misses: misses.load(ordering: .relaxed), evictions: 0
        )
        for shard in shards {
            shard.state.withLock { state in
                total.bytes += state.bytes
                total.layouts += state.index.count
                total.evictions += state.evictions
            }
        }
        return total
    }
}
