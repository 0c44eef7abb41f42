/// Closed bounds in (cross, scroll) coordinates.
struct Bounds: Sendable, Hashable {
    var minCross = Double.infinity
    var maxCross = -Double.infinity
    var minScroll = Double.infinity
    var maxScroll = -Double.infinity

    mutating func add(_ frame: LocalFrame) {
        minCross = min(minCross, frame.cross)
        maxCross = max(maxCross, frame.crossEnd)
        minScroll = min(minScroll, frame.scroll)
        maxScroll = max(maxScroll, frame.scrollEnd)
    }

    mutating func add(_ other: Bounds) {
        minCross = min(minCross, other.minCross)
        maxCross = max(maxCross, other.maxCross)
        minScroll = min(minScroll, other.minScroll)
        maxScroll = max(maxScroll, other.maxScroll)
    }

    /// Whether these closed bounds may hold a frame that meets `query`.
    /// Closed on both sides so that it never prunes a real hit; the exact
    /// open-interior test is made on each candidate frame.
    func mayIntersect(_ query: QueryBounds) -> Bool {
        minCross <= query.maxCross && query.minCross <= maxCross
            && minScroll <= query.maxScroll && query.minScroll <= maxScroll
    }
}

/// A two-level bounding index over a section's cells in item order: the
/// union of every 64 consecutive cells, and of every 64 such unions.
///
/// It is correct for any order of frames (staggered and mosaic cells are not
/// sorted along the scroll axis, and a dense mozaik back-fills holes far up),
/// and fast for every kind of ours because consecutive items lie close
/// together. The seeds' binary searches assume sorted frames and miss items.
public struct FrameIndex: Sendable {
    static let fanout = 64

    private var leaves: [Bounds] = []
    private var branches: [Bounds] = []

    /// An index over frames in order.
    public init(frames: [LocalFrame]) {
        let fanout = Self.fanout
        leaves.reserveCapacity(frames.count / fanout + 1)
        var start = 0
        while start < frames.count {
            var bounds = Bounds()
            for frame in frames[start..<min(start + fanout, frames.count)] { bounds.add(frame) }
            leaves.append(bounds)
            start += fanout
        }
        buildBranches()
    }

    /// An index over closed bounds in order (a store's groups of cells).
    public init(bounds entries: [QueryBounds]) {
        let fanout = Self.fanout
        leaves.reserveCapacity(entries.count / fanout + 1)
        var start = 0
        while start < entries.count {
            var bounds = Bounds()
            for entry in entries[start..<min(start + fanout, entries.count)] {
                bounds.add(Bounds(minCross: entry.minCross, maxCross: entry.maxCross, minScroll: entry.minScroll, maxScroll: entry.maxScroll))
            }
            leaves.append(bounds)
            start += fanout
        }
        buildBranches()
    }

    private mutating func buildBranches() {
        let fanout = Self.fanout
        var start = 0
        while start < leaves.count {
            var bounds = Bounds()
            for leaf in leaves[start..<min(start + fanout, leaves.count)] { bounds.add(leaf) }
            branches.append(bounds)
            start += fanout
        }
    }

    /// Calls `body` with the index of every frame whose bounds may meet
    /// `query`, in ascending order.
    public func forEachCandidate(in query: QueryBounds, frameCount: Int, _ body: (Int) -> Void) {
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
    var byteCount: Int { (leaves.capacity + branches.capacity) * MemoryLayout<Bounds>.stride }
}
