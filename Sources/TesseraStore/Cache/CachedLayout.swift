import Synchronization
import TesseraLayout
import TesseraStoreFormat

/// A layout's sections and cell groups, as the store's readers cache them.
/// A class: every query takes it from a cache, and one reference costs one
/// retain where the arrays would cost one each.
final class CachedLayout: Sendable {
    let sections: [SectionRecord]
    /// Every section's groups, numbered across the layout in order.
    let groups: LayoutGroups
    /// The sections' scroll-axis ends, apart: a binary search over a few
    /// contiguous doubles misses the processor's cache far less often than
    /// one over the geometries.
    private let ends: [Double]
    /// The sections' scroll-axis starts, apart, for the same reason.
    private let starts: [Double]
    /// The verified frames of its groups that queries met lately, charged to its entry in the ``StoreCache``.
    let frames: FrameSlots
    /// A hash derived from it once (``WholeLayout/derivedHash(_:)``, the
    /// tile revision), or 0: a directory never changes, so neither does it.
    let derivedHash = Atomic<UInt64>(0)
    /// Its node in the ``StoreCache`` once cached, or -1: a hint, checked
    /// against the key under the cache's lock (a fill finds it without a hash).
    let cacheSlot = Atomic<Int>(-1)

    init(sections: [SectionRecord], groups: LayoutGroups) {
        self.sections = sections
        self.groups = groups
        ends = sections.map(\.geometry.end)
        starts = sections.map(\.geometry.start)
        frames = FrameSlots(count: groups.count)
    }

    /// Groups across all sections: the slots of ``frames``.
    var groupCount: Int { groups.count }

    /// The bytes its arrays take, for the cache's budget.
    var byteCount: Int {
        // The object: its header, its references, the lock and the slot.
        120 + sections.capacity * MemoryLayout<SectionRecord>.stride
            + (ends.capacity + starts.capacity) * MemoryLayout<Double>.stride
            + groups.byteCount + FrameSlots.byteCount(groups: groupCount)
    }

    /// The non-empty sections whose scroll range meets [low, high], in order.
    func sections(from low: Double, through high: Double) -> [SectionRecord] {
        sectionRange(from: low, through: high).compactMap { sections[$0].geometry.isEmpty ? nil : sections[$0] }
    }

    /// The indices of the sections whose scroll range meets [low, high],
    /// empty ones included (``SectionSearch``): no array made.
    func sectionRange(from low: Double, through high: Double) -> Range<Int> {
        ends.withUnsafeBufferPointer { ends in
            starts.withUnsafeBufferPointer { starts in
                SectionSearch.sections(from: low, through: high, count: ends.count, end: { ends[$0] }, start: { starts[$0] })
            }
        }
    }
}

/// Where a section's cell groups start (``CachedLayout`` numbers them
/// across the layout, ``LayoutGroups``).
enum SectionGroups {
    /// The first item of the group at `position` in its section: a cached
    /// directory is complete (``LayoutGroups/Builder/hasExpectedFirstItems(section:itemCount:)``),
    /// so it keeps no first items (a query touches one array fewer).
    @inline(__always)
    static func firstItem(at position: Int) -> Int { position &* FrameBlob.framesPerGroup }

    /// The first item of the group that holds `item` (at least 0).
    static func firstItem(ofGroupHolding item: Int) -> Int {
        item - item % FrameBlob.framesPerGroup
    }

    /// The groups a section of `itemCount` items has.
    static func groupCount(itemCount: Int) -> Int { (itemCount + FrameBlob.framesPerGroup - 1) / FrameBlob.framesPerGroup }

    /// The first items of the groups a section of `itemCount` items has
    /// (an empty section has none).
    static func expectedFirstItems(itemCount: Int) -> [Int] {
        Array(stride(from: 0, to: itemCount, by: FrameBlob.framesPerGroup))
    }
}
