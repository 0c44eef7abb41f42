import TesseraLayout

// Unchecked: `bytes` is allocated, filled and verified in `init`, never
// written again and freed in `deinit`; `view` points into it. Every thread
// only reads it.

/// The frames of one cell group as the store's shared ``FrameCache`` holds
/// them: the blob's bytes, checked against their checksum once when they
/// entered the cache, read in place (``FrameBlob/View``), with the bounds of
/// every ``leafSize`` consecutive frames so that a query decodes only the
/// frames near it.
final class CachedFrames: @unchecked Sendable {
    /// Frames per leaf of the bounds index: a viewport meets a few leaves of
    /// the groups it meets, not all 250 frames of each.
    static let leafSize = 16

    private let bytes: UnsafeMutableRawBufferPointer
    private let view: FrameBlob.View
    private let leaves: [QueryBounds]

    /// Copies `raw` when it matches `checksum` and is a frame blob this
    /// build reads: nil and `.damaged` or `.unreadable` otherwise.
    static func verified(_ raw: UnsafeRawBufferPointer, checksum: Int64) -> Result<CachedFrames, GroupFailure> {
        guard Checksum.of(raw) == checksum else { return .failure(.damaged) }
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: raw.count, alignment: 8)
        if let base = raw.baseAddress, raw.count > 0 { bytes.baseAddress?.copyMemory(from: base, byteCount: raw.count) }
        guard let view = FrameBlob.View(UnsafeRawBufferPointer(bytes)) else {
            bytes.deallocate()
            return .failure(.unreadable)
        }
        return .success(CachedFrames(bytes: bytes, view: view))
    }

    private init(bytes: UnsafeMutableRawBufferPointer, view: FrameBlob.View) {
        self.bytes = bytes
        self.view = view
        var leaves: [QueryBounds] = []
        leaves.reserveCapacity((view.count + Self.leafSize - 1) / Self.leafSize)
        var start = 0
        while start < view.count {
            var bounds = QueryBounds.empty
            for offset in start..<min(start + Self.leafSize, view.count) { bounds.add(view.frame(at: offset)) }
            leaves.append(bounds)
            start += Self.leafSize
        }
        self.leaves = leaves
    }

    deinit { bytes.deallocate() }

    /// The bytes it takes, for the cache's budget: the blob, the leaves and
    /// the object's bookkeeping.
    var byteCount: Int {
        bytes.count + leaves.capacity * MemoryLayout<QueryBounds>.stride + 128
    }

    /// Calls `visit(item, frame)`, in item order, for the frames that may
    /// meet `bounds` (closed intervals: the exact test happens later), as
    /// ``FrameBlob/visit(_:firstItem:bounds:_:)`` does for the whole blob.
    @inline(__always)
    func visit(firstItem: Int, bounds: QueryBounds, _ visit: (Int, LocalFrame) -> Void) {
        let count = view.count
        for leaf in leaves.indices where leaves[leaf].mayIntersect(bounds) {
            let start = leaf &* Self.leafSize
            for offset in start..<min(start &+ Self.leafSize, count) {
                let frame = view.frame(at: offset)
                if frame.cross <= bounds.maxCross, frame.crossEnd >= bounds.minCross,
                   frame.scroll <= bounds.maxScroll, frame.scrollEnd >= bounds.minScroll {
                    visit(firstItem &+ offset, frame)
                }
            }
        }
    }
}

/// How a group's bytes failed a query.
enum GroupFailure: Error {
    /// Missing, or not matching their checksum.
    case damaged
    /// Matching their checksum, but no frame blob this build reads.
    case unreadable
}
