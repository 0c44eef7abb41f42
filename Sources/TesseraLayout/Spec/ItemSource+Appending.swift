extension ItemSource {
    /// These items followed by `items`, as compactly as the source allows.
    public func appending(_ items: [Item]) -> ItemSource {
        switch self {
        case .list(let existing):
            return ItemSource.list(existing + items)
        case .segments(var parts):
            if case .list(let last)? = parts.last {
                parts[parts.count - 1] = ItemSource.list(last + items)
            } else {
                parts.append(ItemSource.list(items))
            }
            return ItemSource.segments(parts)
        default:
            return ItemSource.segments([self, ItemSource.list(items)])
        }
    }

    /// Whether these items are `other`'s followed by more (or none).
    package func extends(_ other: ItemSource) -> Bool {
        switch (other, self) {
        case (.list(let old), .list(let new)):
            return new.count >= old.count && Array(new.prefix(old.count)) == old
        case (.cycle(let oldCount, let oldCycle), .cycle(let newCount, let newCycle)):
            return oldCycle == newCycle && newCount >= oldCount
        case (.segments(let old), .segments(let new)):
            guard let lastOld = old.last, new.count >= old.count, Array(new.prefix(old.count - 1)) == Array(old.dropLast()) else { return false }
            return new[old.count - 1].extends(lastOld)
        case (_, .segments(let new)):
            guard let first = new.first else { return false }
            if case .file = other { return false }
            return first == other || first.extends(other)
        default:
            return false
        }
    }

    /// Calls `body` with each item from index `first` on, as
    /// ``forEach(section:from:_:)`` does, or, with `appended`, with those of
    /// `appended` (the items from its first on, appended to these).
    package func forEach(
        section: Int,
        from first: Int,
        appended: AppendedItems?,
        _ body: (_ item: Item, _ index: Int, _ location: ItemLocation) throws -> Void
    ) throws {
        if let appended {
            try appended.forEach(section: section, from: first, body)
        } else {
            try forEach(section: section, from: first, body)
        }
    }

    /// Where ``appending(_:)`` puts appended items: the segment that holds
    /// them (nil when the source stays one list) and how many items of
    /// that segment or list come before the first appended one.
    package var appendedPlace: (segment: Int?, itemsBefore: Int) {
        switch self {
        case .list(let existing):
            return (nil, existing.count)
        case .segments(let parts):
            if case .list(let last)? = parts.last { return (parts.count - 1, last.count) }
            return (parts.count, 0)
        default:
            return (1, 0)
        }
    }
}

/// Items appended to a source, visited without the items before them: what
/// an append lays out when it goes on from the state after those. Each item
/// has the index and location it has in `base.appending(earlier + items)`,
/// so errors name it as they would in the whole source.
package struct AppendedItems: Sendable {
    /// The appended items, in order.
    package let items: [Item]
    /// The section index of the first of them.
    package let firstIndex: Int
    /// The segment that holds them and the first one's index in it (nil: a list).
    private let segment: Int?
    private let firstLocal: Int

    /// `items` appended to `base` after `earlier` items already appended
    /// to it; nil when the base's count is not known (an items file).
    package init?(_ items: [Item], appendedTo base: ItemSource, after earlier: Int) {
        guard let baseCount = base.knownCount else { return nil }
        let place = base.appendedPlace
        self.items = items
        firstIndex = baseCount + earlier
        segment = place.segment
        firstLocal = place.itemsBefore + earlier
    }

    /// Calls `body` with each item from section index `first` on (at least
    /// ``firstIndex``), its index and its location, in order.
    package func forEach(
        section: Int,
        from first: Int,
        _ body: (_ item: Item, _ index: Int, _ location: ItemLocation) throws -> Void
    ) throws {
        precondition(first >= firstIndex, "appended items are visited from the first of them on")
        for offset in (first - firstIndex)..<max(first - firstIndex, items.count) {
            var location = ItemLocation(section: section, index: firstIndex + offset)
            if let segment { location.segment = (segment, firstLocal + offset) }
            try body(items[offset], firstIndex + offset, location)
        }
    }
}
