import TesseraLayout
import TesseraStoreFormat

/// The frames of one cell group as the ``StoreCache`` holds them: checked once, with the bounds of every ``leafSize``
/// frames, one allocation. The header's ``FrameBlob/View`` points into the object's own tail: safe, as a `ManagedBuffer`
/// never moves and `verified` writes the tail once. Not `Sendable`: shared only through ``CachedLayout/slots``, read only.
final class CachedFrames: ManagedBuffer<CachedFrames.Header, QueryBounds> {
    struct Header {
        /// The blob, in the tail after the leaves.
        let view: FrameBlob.View
        let leafCount: Int
        let blobBytes: Int
    }

    /// Frames per leaf of the bounds index: a viewport meets a few leaves of
    /// the groups it meets, not all 250 frames of each.
    static let leafSize = 16

    /// Cache lines from the object's start that a query reads first: its
    /// header (152 bytes with the object's) and the 16 leaves of a group
    /// of 250 frames.
    static let prefetchedLines = 11

    /// Copies `raw` when it matches `checksum` and is a frame blob this
    /// build reads: nil and `.damaged` or `.unreadable` otherwise.
    static func verified(_ raw: UnsafeRawBufferPointer, checksum: Int64) -> Result<CachedFrames, GroupFailure> {
        guard Checksum.of(raw) == checksum else { return .failure(.damaged) }
        // Checked once, here; the copy is read through the same view.
        guard let view = FrameBlob.View(raw) else { return .failure(.unreadable) }
        let leafCount = (view.count + leafSize - 1) / leafSize
        let blobElements = (raw.count + MemoryLayout<QueryBounds>.stride - 1) / MemoryLayout<QueryBounds>.stride
        let buffer = create(minimumCapacity: leafCount + blobElements) { buffer in
            buffer.withUnsafeMutablePointerToElements { tail in
                let blob = UnsafeMutableRawPointer(tail + leafCount)
                if let base = raw.baseAddress, raw.count > 0 { blob.copyMemory(from: base, byteCount: raw.count) }
                let copy = view.rebased(onto: UnsafeRawBufferPointer(start: blob, count: raw.count))
                copy.leafBounds(leafSize, into: tail)
                return Header(view: copy, leafCount: leafCount, blobBytes: raw.count)
            }
        }
        return .success(unsafeDowncast(buffer, to: CachedFrames.self))
    }

    /// The bytes it takes, for the cache's budget: the blob, the leaves and
    /// the object's bookkeeping.
    var byteCount: Int {
        header.blobBytes + header.leafCount * MemoryLayout<QueryBounds>.stride + 128
    }

    /// Calls `visit(item, frame)`, in item order, for the frames that may
    /// meet `bounds` (closed intervals: the exact test happens later), as
    /// ``FrameBlob/visit(_:firstItem:bounds:_:)`` does for the whole blob.
    @inline(__always)
    func visit(firstItem: Int, bounds: QueryBounds, _ visit: (Int, LocalFrame) -> Void) {
        withUnsafeMutablePointers { header, leaves in
            let view = header.pointee.view
            let count = view.count
            let leafCount = header.pointee.leafCount
            // 64 leaves at a time (a group of 250 items has 16): the frames
            // of those met are all asked for (``FrameBlob/View/prefetch(_:)``)
            // before the first is read, so that their misses overlap.
            var chunk = 0
            while chunk < leafCount {
                let end = min(chunk &+ 64, leafCount)
                var met: UInt64 = 0
                for leaf in chunk..<end where leaves[leaf].mayIntersect(bounds) {
                    met |= 1 &<< UInt64(leaf &- chunk)
                    let start = leaf &* Self.leafSize
                    view.prefetch(start..<min(start &+ Self.leafSize, count))
                }
                while met != 0 {
                    let start = (chunk &+ met.trailingZeroBitCount) &* Self.leafSize
                    met &= met &- 1
                    for offset in start..<min(start &+ Self.leafSize, count) {
                        if let frame = view.frame(at: offset, meeting: bounds) { visit(firstItem &+ offset, frame) }
                    }
                }
                chunk = end
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
