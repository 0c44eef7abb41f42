/// Values in the order of their last use, each charged some bytes: the
/// bookkeeping of the store's cache (`StoreCache`) and of the server's
/// kept tile bodies, whose owners index the nodes by key. Not thread-safe:
/// its owner keeps it behind a lock.
///
/// Nodes live in one array and link to each other by index, so a node's
/// index is a stable handle until it is removed (a hint a caller may keep).
// Public and inlinable in a module that is no product: a `package` generic
// is not specialized in another module, and the store's cache runs it per query.
public struct LRUList<Value> {
    @usableFromInline
    struct Node {
        /// nil once removed (the node waits in `free` for reuse).
        @usableFromInline var value: Value?
        /// Whether `value` is set: read without copying the value.
        @usableFromInline var live = true
        @usableFromInline var bytes: Int
        @usableFromInline var older = -1
        @usableFromInline var newer = -1

        @inlinable
        init(value: Value, bytes: Int) {
            (self.value, self.bytes) = (value, bytes)
        }
    }

    @usableFromInline var nodes: [Node] = []
    @usableFromInline var free: [Int] = []
    /// The most and least recently used nodes, or -1.
    @usableFromInline var newest = -1
    @usableFromInline var oldest = -1
    @usableFromInline var charged = 0
    @usableFromInline var held = 0
    /// The bytes every value is charged together.
    @inlinable public var bytes: Int { charged }
    /// Values held.
    @inlinable public var count: Int { held }

    /// A list with room for `capacity` values reserved now. Untouched,
    /// reserved memory takes address space, not memory.
    @inlinable
    public init(capacity: Int = 0) {
        nodes.reserveCapacity(capacity)
    }

    /// Whether `node` holds a value: a hint kept by a caller may not.
    @inlinable
    public func holds(_ node: Int) -> Bool {
        node >= 0 && node < nodes.count && nodes[node].live
    }

    /// The value of `node`, a handle from ``add(_:bytes:)`` that ``holds(_:)`` a value.
    /// Read and changed in place: a value is not copied to look at or change one field.
    @inlinable
    public subscript(node: Int) -> Value {
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
    @inlinable
    public func bytes(_ node: Int) -> Int { nodes[node].bytes }

    /// Marks `node` as the most recently used.
    @inlinable
    public mutating func markUsed(_ node: Int) {
        guard newest != node else { return }
        unlink(node)
        pushNewest(node)
    }

    /// Adds `value` as the most recently used, charged `bytes`; its node.
    @inlinable
    public mutating func add(_ value: Value, bytes: Int) -> Int {
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
        charged += bytes
        held += 1
        return slot
    }

    /// Charges `node` `bytes` more (fewer when negative).
    @inlinable
    public mutating func charge(_ node: Int, _ bytes: Int) {
        nodes[node].bytes += bytes
        charged += bytes
    }

    /// Removes `node`, which holds a value; that value.
    @inlinable @discardableResult
    public mutating func remove(_ node: Int) -> Value {
        guard let value = nodes[node].value.take() else { preconditionFailure("node \(node) of an LRU list was removed") }
        nodes[node].live = false
        unlink(node)
        charged -= nodes[node].bytes
        held -= 1
        free.append(node)
        return value
    }

    /// The least recently used node other than `kept`, or nil.
    @inlinable
    public func leastRecentlyUsed(besides kept: Int = -1) -> Int? {
        let node = oldest == kept && kept >= 0 ? nodes[kept].newer : oldest
        return node >= 0 ? node : nil
    }

    /// Every node that holds a value (for statistics and tests; never on a query's path).
    @inlinable
    public var allNodes: [Int] { nodes.indices.filter { nodes[$0].live } }

    @inlinable
    mutating func unlink(_ node: Int) {
        let (older, newer) = (nodes[node].older, nodes[node].newer)
        if older >= 0 { nodes[older].newer = newer } else { oldest = newer }
        if newer >= 0 { nodes[newer].older = older } else { newest = older }
    }

    @inlinable
    mutating func pushNewest(_ node: Int) {
        nodes[node].older = newest
        nodes[node].newer = -1
        if newest >= 0 { nodes[newest].newer = node } else { oldest = node }
        newest = node
    }
}
