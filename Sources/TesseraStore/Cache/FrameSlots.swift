import CTesseraPrefetch
import Locking

/// The verified frames of one cached directory's cell groups that queries
/// met lately, one slot per group (numbered across the layout's sections,
/// ``SectionGroups/firstOrdinal``): a query finds all of its groups under
/// one lock, with no lookup by key and no reordering of a list.
///
/// A directory names one revision of one layout, whose groups' ids and
/// checksums never change, so a slot filled with frames verified against
/// its group's checksum stays right for as long as the directory lives.
/// A group with the same id and checksum in a later revision has the same
/// bytes: its frames move to that revision's directory when it is cached
/// (``FrameCache/carry(from:to:slots:)``).
/// The store's ``FrameCache`` owns the bytes' budget: it learns of every
/// slot filled and empties the slots not used since it last looked.
final class FrameSlots: Sendable {
    struct Slot {
        var frames: CachedFrames?
        /// Set by each use, cleared by the cache's sweep (see ``FrameSlots/sweep(_:_:force:)``).
        var used = false
    }

    /// The slots, which the ``FrameCache`` holds too (strongly: a weak
    /// reference to this object would slow every retain of it).
    let slots: Locked<[Slot]>

    /// Where a slot holds its frames' reference, its first field (a test
    /// checks it): an optional reference is the object's address, or zero.
    static let framesOffset = 0

    /// Slots for `count` groups, all empty.
    init(count: Int) {
        slots = Locked([Slot](repeating: Slot(), count: count))
    }

    /// A directory no longer cached: its frames go now, and its slots
    /// leave the cache's count when the sweep meets them.
    deinit { slots.withLock { $0 = [] } }

    /// The bytes the empty slots take, for the directory's budget.
    static func byteCount(groups: Int) -> Int { 64 + groups * MemoryLayout<Slot>.stride }

    /// Sets `found[i]` to the frames of group `base + positions[i]`,
    /// marked as used (nil where the slot is empty); how many were there.
    /// `found` is initialized and has room for every position.
    func frames(base: Int, positions: UnsafeBufferPointer<Int>, into found: UnsafeMutableBufferPointer<CachedFrames?>) -> Int {
        slots.withLock { slots in
            // The frames of a layout not met lately are in no cache of the
            // processor: ask for all of them first, so that their misses
            // overlap instead of meeting them one retain at a time. Each
            // slot's reference is read as the address it is, not retained:
            // a retain would wait for the object's first line.
            slots.withUnsafeBytes { slots in
                guard let start = slots.baseAddress else { return }
                let count = slots.count / MemoryLayout<Slot>.stride
                for position in positions {
                    let ordinal = base &+ position
                    guard ordinal < count,
                          let object = (start + ordinal &* MemoryLayout<Slot>.stride + Self.framesOffset).load(as: UnsafeRawPointer?.self)
                    else { continue }
                    for line in 0..<CachedFrames.prefetchedLines { tessera_prefetch(object + line &* 64) }
                }
            }
            var hits = 0
            for (index, position) in positions.enumerated() {
                let ordinal = base &+ position
                guard ordinal < slots.count, let frames = slots[ordinal].frames else {
                    found[index] = nil
                    continue
                }
                slots[ordinal].used = true
                found[index] = frames
                hits &+= 1
            }
            return hits
        }
    }

    /// Puts `frames` in the empty slot `ordinal`, marked as used: true when
    /// it was empty (the caller then charges the cache's budget), false when
    /// another query filled it first or there is no such slot.
    func fill(_ ordinal: Int, with frames: CachedFrames) -> Bool {
        slots.withLock { slots in
            guard ordinal >= 0, ordinal < slots.count, slots[ordinal].frames == nil else { return false }
            slots[ordinal] = Slot(frames: frames, used: true)
            return true
        }
    }

    /// One step of the cache's sweep over slot `ordinal` of `slots`: a slot
    /// used since the last sweep is kept (and marked unused), any other
    /// emptied. `force` empties it whatever its use. True when it was emptied.
    static func sweep(_ slots: Locked<[Slot]>, _ ordinal: Int, force: Bool = false) -> Bool {
        slots.withLock { slots in
            guard ordinal < slots.count, slots[ordinal].frames != nil else { return true }
            if slots[ordinal].used, !force {
                slots[ordinal].used = false
                return false
            }
            slots[ordinal] = Slot()
            return true
        }
    }

    /// Whether slot `ordinal` holds frames (for tests).
    func isFilled(_ ordinal: Int) -> Bool {
        slots.withLock { ordinal < $0.count && $0[ordinal].frames != nil }
    }
}
