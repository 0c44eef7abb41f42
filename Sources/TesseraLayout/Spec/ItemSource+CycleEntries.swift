extension ItemSource {
    /// The cycle entries that no item repeats (those at and after a cycle's
    /// `count`), each with its location, `sections[s].items.cycle[j]` (or
    /// below `segments[k]`), in order. Empty for most sources, without
    /// allocating.
    func unreachedCycleEntries(section: Int) -> [(entry: Item, location: ItemLocation)] {
        var unreached: [(entry: Item, location: ItemLocation)] = []
        collectUnreached(section: section, offset: 0, segment: nil, into: &unreached)
        return unreached
    }

    /// Appends this source's unreached entries; returns its item count (nil
    /// for a file, whose count is unknown: later segments then name their
    /// entries with the index they would have after the file's items).
    @discardableResult
    private func collectUnreached(
        section: Int,
        offset: Int,
        segment: Int?,
        into unreached: inout [(entry: Item, location: ItemLocation)]
    ) -> Int? {
        switch self {
        case .list(let items):
            return items.count
        case .file:
            return nil
        case .cycle(let count, let cycle):
            for entry in cycle.indices where entry >= count {
                // The index the entry would have, were the count larger.
                var location = ItemLocation(section: section, index: offset + entry, cycleEntry: entry)
                if let segment { location.segment = (segment, entry) }
                unreached.append((cycle[entry], location))
            }
            return count
        case .segments(let parts):
            var total: Int? = 0
            for (index, part) in parts.enumerated() {
                let count = part.collectUnreached(section: section, offset: offset + (total ?? 0), segment: index, into: &unreached)
                total = total.flatMap { total in count.map { total + $0 } }
            }
            return total
        case .overridden(let base, _):
            return base.collectUnreached(section: section, offset: offset, segment: segment, into: &unreached)
        }
    }
}
