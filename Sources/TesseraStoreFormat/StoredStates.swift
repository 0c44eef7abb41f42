/// What a section row keeps of its placer (the `placer_state` column): the
/// state after the section's last item, then the states after every
/// ``interval`` items, each `0x1E`, its item count, `:` and the state
/// (``PlacerState``). A resize goes on from the latest state at or before
/// its first changed item, not from the section's start; an append, from
/// the last one. The first state is the whole column when there are no
/// checkpoints (sections under ``interval`` items, and rows written before
/// checkpoints existed). A build without checkpoints reads a column with
/// them as an unreadable state: it lays the section out again.
package struct StoredStates {
    /// Items between two checkpoints: for a 1M-item section, 488 states,
    /// and a resize near its end lays out at most this many items more
    /// than it changed.
    package static let interval = 2048
    private static let separator: UInt8 = 0x1E

    /// The state after the section's last item.
    var final: [UInt8]
    /// States after the first `itemCount` items, in increasing order.
    package var checkpoints: [(itemCount: Int, state: [UInt8])]

    package init(final: [UInt8], checkpoints: [(itemCount: Int, state: [UInt8])]) {
        self.final = final
        self.checkpoints = checkpoints
    }

    /// Splits a stored column; a checkpoint that does not read is left out
    /// (an earlier one, or the section's start, serves instead).
    package init(bytes: [UInt8]) {
        let parts = bytes.split(separator: Self.separator, omittingEmptySubsequences: false)
        final = Array(parts.first ?? [])
        checkpoints = parts.dropFirst().compactMap { part in
            guard let colon = part.firstIndex(of: UInt8(ascii: ":")),
                  let count = Int(String(decoding: part[part.startIndex..<colon], as: UTF8.self)), count > 0 else { return nil }
            return (count, Array(part[(colon + 1)...]))
        }
    }

    /// The most bytes of checkpoints a row keeps: a kind whose state is
    /// large (a mozaik's open rows, some kilobytes) keeps every other one,
    /// and again, until they fit, so that an append, which rewrites the
    /// row, stays cheap.
    static let maximumCheckpointBytes = 256 * 1024

    /// The checkpoints a row keeps: all of them when they fit in
    /// ``maximumCheckpointBytes``, else those after a multiple of twice the
    /// interval, four times, … (any of them is as good a start as another).
    var kept: [(itemCount: Int, state: [UInt8])] {
        var kept = checkpoints
        var spacing = Self.interval
        while kept.count > 1, kept.reduce(0, { $0 + $1.state.count }) > Self.maximumCheckpointBytes {
            spacing *= 2
            kept = kept.filter { $0.itemCount % spacing == 0 }
        }
        return kept
    }

    /// The column's bytes.
    package var bytes: [UInt8] {
        var bytes = final
        for checkpoint in kept {
            bytes.append(Self.separator)
            bytes += String(checkpoint.itemCount).utf8
            bytes.append(UInt8(ascii: ":"))
            bytes += checkpoint.state
        }
        return bytes
    }

    /// The latest state after at most `limit` items of a section of
    /// `itemCount` items (the final state counts as after all of them),
    /// nil when there is none (go on from the start).
    package func latest(atMost limit: Int, itemCount: Int) -> (itemCount: Int, state: [UInt8])? {
        if itemCount <= limit { return (itemCount, final) }
        return checkpoints.last { $0.itemCount <= limit }
    }
}
