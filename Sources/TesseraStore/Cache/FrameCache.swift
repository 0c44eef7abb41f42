import Locking
import Synchronization

/// The budget of the verified frames that queries met lately, shared by
/// every reader of a store, whatever the backend: a query whose groups'
/// frames are all cached reads none from storage.
///
/// The frames live in the slots of the cached directories that name their
/// groups (``FrameSlots``: one lock per query, not one lookup per group);
/// this cache counts their bytes and, past its budget, empties slots not
/// used since it last looked (a clock sweep: each use marks a slot, each
/// look clears the mark), so that the frames of every directory together
/// stay within `budget`. A directory dropped from its own cache takes its
/// frames with it; its slots leave this count when the sweep meets them.
/// A layout's new revision takes over the frames of the groups it shares
/// with the one cached before (``carry(from:to:slots:)``): moved, so
/// counted once.
final class FrameCache: Sendable {
    private struct Resident {
        let slots: Locked<[FrameSlots.Slot]>
        let ordinal: Int
        let bytes: Int
    }

    private struct State {
        var resident: [Resident] = []
        var hand = 0
        var bytes = 0
        var evictions = 0
    }

    /// The bytes the cached frames may take (``CachedFrames/byteCount``).
    let budget: Int
    private let state = Locked(State())
    // Counted outside the lock, once per query.
    private let hits = Atomic<Int>(0)
    private let misses = Atomic<Int>(0)

    /// A cache of `budget` bytes (0: none; every query reads its frames).
    init(frameBudget budget: Int) {
        self.budget = max(0, budget)
    }

    /// Caches `frames` in slot `ordinal` of `slots`, unless a query filled
    /// it first, then empties unused slots until the frames fit the budget.
    /// Frames larger than the budget are not cached.
    func insert(_ frames: CachedFrames, in slots: FrameSlots, ordinal: Int) {
        let bytes = frames.byteCount
        guard bytes <= budget, slots.fill(ordinal, with: frames) else { return }
        state.withLock { state in
            state.resident.append(Resident(slots: slots.slots, ordinal: ordinal, bytes: bytes))
            state.bytes += bytes
            // Every slot met is unmarked, so that after one full turn one is
            // emptied; marks set again meanwhile by other queries cannot make
            // the sweep go on for ever.
            var steps = 0
            while state.bytes > budget, !state.resident.isEmpty {
                if state.hand >= state.resident.count { state.hand = 0 }
                let entry = state.resident[state.hand]
                steps += 1
                let emptied = FrameSlots.sweep(entry.slots, entry.ordinal, force: steps > 2 * state.resident.count + 2)
                guard emptied else {
                    state.hand += 1
                    continue
                }
                state.bytes -= entry.bytes
                state.evictions += 1
                state.resident.swapAt(state.hand, state.resident.count - 1)
                state.resident.removeLast()
            }
        }
    }

    /// Moves the frames of `old`'s slots into `new`'s: slot `ordinal` of
    /// `old` into slot `slots[ordinal]` of `new` (-1: none), when the
    /// former is counted here and the latter empty; their use marks go
    /// with them. How many moved.
    ///
    /// Moved, not shared: each frames' bytes stay counted once, by the slot
    /// that holds them, so the budget holds and nothing waits for a sweep
    /// to leave the count. A query of the old revision still running finds
    /// those slots empty and reads the frames again (counted as its own).
    @discardableResult
    func carry(from old: FrameSlots, to new: FrameSlots, slots target: [Int]) -> Int {
        guard old !== new else { return 0 }
        // The order of every path that takes two locks: the count's, then a slots'.
        return state.withLock { state in
            old.slots.withLock { from in
                new.slots.withLock { to in
                    var moved = 0
                    // Only slots with a resident entry: one filled whose
                    // entry is not yet added keeps its frames where the entry will point.
                    for index in state.resident.indices where state.resident[index].slots === old.slots {
                        let entry = state.resident[index]
                        guard entry.ordinal < target.count, entry.ordinal < from.count, from[entry.ordinal].frames != nil else { continue }
                        let slot = target[entry.ordinal]
                        guard slot >= 0, slot < to.count, to[slot].frames == nil else { continue }
                        to[slot] = from[entry.ordinal]
                        from[entry.ordinal] = FrameSlots.Slot()
                        state.resident[index] = Resident(slots: new.slots, ordinal: slot, bytes: entry.bytes)
                        moved += 1
                    }
                    return moved
                }
            }
        }
    }

    /// Counts groups a query found cached and not, once it has all their frames.
    func count(hits found: Int, misses missing: Int) {
        if found > 0 { hits.add(found, ordering: .relaxed) }
        if missing > 0 { misses.add(missing, ordering: .relaxed) }
    }

    /// What the cache holds (`layouts`: groups' frames) and how it was used.
    var statistics: CacheStatistics {
        state.withLock { state in
            CacheStatistics(
                bytes: state.bytes, budget: budget, layouts: state.resident.count,
                hits: hits.load(ordering: .relaxed), misses: misses.load(ordering: .relaxed), evictions: state.evictions
            )
        }
    }
}
