/// A two-level bounding index over a section's cells in item order: the
/// union of every 64 consecutive cells, and of every 64 such unions.
///
/// It is correct for any order of frames (staggered and mosaic cells are not
/// sorted along the scroll axis, and a dense mozaik back-fills holes far up),
/// and fast for every kind of ours because consecutive items lie close
/// together. The seeds' binary searches assume sorted frames and miss items.
package struct FrameIndex: Sendable {
    static let fanout = 64

    private let leaves: [QueryBounds]
    private let branches: [QueryBounds]

    /// An index over frames in order.
    package init(frames: [LocalFrame]) {
        self.init(leaves: Self.unions(count: frames.count) { $0.add(frames[$1]) })
    }

    /// An index over closed bounds in order (a store's groups of cells).
    package init(bounds entries: [QueryBounds]) {
        self.init(leaves: Self.unions(count: entries.count) { $0.add(entries[$1]) })
    }

    private init(leaves: [QueryBounds]) {
        self.leaves = leaves
        branches = Self.unions(count: leaves.count) { $0.add(leaves[$1]) }
    }

    /// The union of every `fanout` consecutive entries; `add` adds entry i.
    private static func unions(count: Int, _ add: (inout QueryBounds, Int) -> Void) -> [QueryBounds] {
        var result: [QueryBounds] = []
        result.reserveCapacity(count / fanout + 1)
        var start = 0
        while start < count {
            var bounds = QueryBounds.empty
            for entry in start..<min(start + fanout, count) { add(&bounds, entry) }
            result.append(bounds)
            start += fanout
        }
        return result
    }

    /// Calls `body` with the index of every frame whose bounds may meet
    /// `query`, in ascending order.
    package func forEachCandidate(in query: QueryBounds, frameCount: Int, _ body: (Int) -> Void) {
        let fanout = Self.fanout
        for branch in branches.indices where branches[branch].mayIntersect(query) {
            let firstLeaf = branch * fanout
            for leaf in firstLeaf..<min(firstLeaf + fanout, leaves.count) where leaves[leaf].mayIntersect(query) {
                let firstFrame = leaf * fanout
                for frame in firstFrame..<min(firstFrame + fanout, frameCount) { body(frame) }
            }
        }
    }

    /// Bytes held by the index.
    package var byteCount: Int { (leaves.capacity + branches.capacity) * MemoryLayout<QueryBounds>.stride }
}
