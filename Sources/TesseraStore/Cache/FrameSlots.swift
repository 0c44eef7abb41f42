import CTesseraPrefetch
import Locking

/// The verified frames of one cached directory's cell groups that queries
/// met lately, one slot per group (numbered across the layout's sections,
/// ``SectionGroups/firstOrdinal``): a query finds all of its groups under
/// one lock, with no lookup by key.
///
/// A directory names one revision of one layout, whose groups' ids and
/// checksums never change, so a slot filled with frames verified against
/// its group's checksum stays right for as long as the directory lives.
/// The ``StoreCache`` fills and empties the slots, and charges their bytes
/// to the directory's entry.
final class FrameSlots: Sendable {
    fileprivate let slots: Locked<[CachedFrames?]>

    /// Slots for `count` groups, all empty.
    init(count: Int) {
        slots = Locked([CachedFrames?](repeating: nil, count: count))
    }

    /// The bytes the empty slots take, for the directory's budget.
    static func byteCount(groups: Int) -> Int { 64 + groups * MemoryLayout<CachedFrames?>.stride }

    /// Sets `found[i]` to the frames of group `base + positions[i]` (nil
    /// where the slot is empty); how many were there. `found` is
    /// initialized and has room for every position.
    func frames(base: Int, positions: UnsafeBufferPointer<Int>, into found: UnsafeMutableBufferPointer<CachedFrames?>) -> Int {
        slots.withLock { slots in
            // The frames of a layout not met lately are in no cache of the
            // processor: ask for all of them first, so that their misses
            // overlap. A slot's optional reference is the object's address,
            // or zero; read as that, not retained (a retain would wait for
            // the object's first line).
            slots.withUnsafeBytes { slots in
                guard let start = slots.baseAddress else { return }
                let count = slots.count / MemoryLayout<CachedFrames?>.stride
                for position in positions {
                    let ordinal = base &+ position
                    guard ordinal < count, let object = (start + ordinal &* MemoryLayout<CachedFrames?>.stride).load(as: UnsafeRawPointer?.self)
                    else { continue }
                    for line in 0..<CachedFrames.prefetchedLines { tessera_prefetch(object + line &* 64) }
                }
            }
            var hits = 0
            for (index, position) in positions.enumerated() {
                let ordinal = base &+ position
                let frames = ordinal < slots.count ? slots[ordinal] : nil
                found[index] = frames
                if frames != nil { hits &+= 1 }
            }
            return hits
        }
    }

    /// Puts `frames` in the empty slot `ordinal`: true when it was empty,
    /// false when another query filled it first or there is no such slot.
    func fill(_ ordinal: Int, with frames: CachedFrames) -> Bool {
        slots.withLock { slots in
            guard ordinal >= 0, ordinal < slots.count, slots[ordinal] == nil else { return false }
            slots[ordinal] = frames
            return true
        }
    }

    /// Empties every slot.
    func empty() {
        slots.withLock { slots in
            for index in slots.indices { slots[index] = nil }
        }
    }

    /// Moves the frames of `old`'s slots into `new`'s: slot `ordinal` of
    /// `old` into slot `target[ordinal]` of `new` (-1: none), where the
    /// latter is empty. The bytes and the groups moved.
    static func move(from old: FrameSlots, to new: FrameSlots, slots target: [Int]) -> (bytes: Int, groups: Int) {
        guard old !== new else { return (0, 0) }
        return old.slots.withLock { from in
            new.slots.withLock { to in
                var moved = (bytes: 0, groups: 0)
                for (ordinal, slot) in target.enumerated() where slot >= 0 && slot < to.count && ordinal < from.count {
                    guard let frames = from[ordinal], to[slot] == nil else { continue }
                    to[slot] = frames
                    from[ordinal] = nil
                    moved.bytes += frames.byteCount
                    moved.groups += 1
                }
                return moved
            }
        }
    }

    /// Whether slot `ordinal` holds frames (for tests).
    func isFilled(_ ordinal: Int) -> Bool {
        slots.withLock { ordinal < $0.count && $0[ordinal] != nil }
    }
}

extension FrameSlots {
    /// The bytes of the frames the slots hold (for tests).
    var framesBytes: Int {
        slots.withLock { $0.reduce(0) { $0 + ($1?.byteCount ?? 0) } }
    }
}
