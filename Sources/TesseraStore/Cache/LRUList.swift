/// Values in the order of their last use, each charged some bytes: the
/// bookkeeping of the store's cache (``StoreCache``) and of the server's
/// kept tile bodies, whose owners index the nodes by key. Not thread-safe:
/// its owner keeps it behind a lock.
///
/// Nodes live in one array and link to each other by index, so a node's
/// index is a stable handle until it is removed (a hint a caller may keep).
package struct LRUList<Value> {
    private struct Node {
        /// nil once removed (the node waits in `free` for reuse).
        var value: Value?
        /// Whether `value` is set: read without copying the value.
        var live = true
        var bytes: Int
        var older = -1
        var newer = -1
    }

    private var nodes: [Node] = []
    private var free: [Int] = []
    /// The most and least recently used nodes, or -1.
    private var newest = -1
    private var oldest = -1
    /// The bytes every value is charged together.
    package private(set) var bytes = 0
    /// Values held.
    package private(set) var count = 0

    /// A list with room for `capacity` values reserved now. Untouched,
    /// reserved memory takes address space, not memory.
    package init(capacity: Int = 0) {
        nodes.reserveCapacity(capacity)
    }

    /// Whether `node` holds a value: a hint kept by a caller may not.
    package func holds(_ node: Int) -> Bool {
        node >= 0 && node < nodes.count && nodes[node].live
    }

    /// The value of `node`, a handle from ``add(_:bytes:)`` that ``holds(_:)`` a value.
    /// Read and changed in place: a value is not copied to look at or change one field.
    package subscript(node: Int) -> Value {
        _read {
            guard nodes[node].live, let value = nodes[node].value else { preconditionFailure("node \(node) of an LRU list was removed") }
            yield value
        }
        _modify {
            guard nodes[node].live else { preconditionFailure("node \(node) of an LRU list was removed") }
            yield &nodes[node].value!
        }
    }

    /// The bytes `node` is charged.
    package func bytes(_ node: Int) -> Int { nodes[node].bytes }

    /// Marks `node` as the most recently used.
    package mutating func markUsed(_ node: Int) {
        guard newest != node else { return }
        unlink(node)
        pushNewest(node)
    }

    /// Adds `value` as the most recently used, charged `bytes`; its node.
    package mutating func add(_ value: Value, bytes: Int) -> Int {
        let node = Node(value: value, bytes: bytes)
        let slot: Int
        if let reused = free.popLast() {
            nodes[reused] = node
            slot = reused
        } else {
            nodes.append(node)
            slot = nodes.count - 1
        }
        pushNewest(slot)
        self.bytes += bytes
        count += 1
        return slot
    }

    /// Charges `node` `bytes` more (fewer when negative).
    package mutating func charge(_ node: Int, _ bytes: Int) {
        nodes[node].bytes += bytes
        self.bytes += bytes
    }

    /// Removes `node`, which holds a value; that value.
    @discardableResult
    package mutating func remove(_ node: Int) -> Value {
        guard let value = nodes[node].value.take() else { preconditionFailure("node \(node) of an LRU list was removed") }
        nodes[node].live = false
        unlink(node)
        bytes -= nodes[node].bytes
        count -= 1
        free.append(node)
        return value
    }

    /// The least recently used node other than `kept`, or nil.
    package func leastRecentlyUsed(besides kept: Int = -1) -> Int? {
        let node = oldest == kept && kept >= 0 ? nodes[kept].newer : oldest
        return node >= 0 ? node : nil
    }

    /// Every node that holds a value (for statistics and tests; never on a query's path).
    package var allNodes: [Int] { nodes.indices.filter { nodes[$0].live } }

    private mutating func unlink(_ node: Int) {
        let (older, newer) = (nodes[node].older, nodes[node].newer)
        if older >= 0 { nodes[older].newer = newer } else { oldest = newer }
        if newer >= 0 { nodes[newer].older = older } else { newest = older }
    }

    private mutating func pushNewest(_ node: Int) {
        nodes[node].older = newest
        nodes[node].newer = -1
        if newest >= 0 { nodes[newest].newer = node } else { oldest = node }
        newest = node
    }
}
