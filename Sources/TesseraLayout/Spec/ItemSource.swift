/// Where a section's items come from.
public indirect enum ItemSource: Sendable, Hashable {
    /// Items listed in the spec.
    case list([Item])
    /// `count` items, item i being `cycle[i % cycle.count]`: a huge feed in a
    /// few bytes.
    case cycle(count: Int, [Item])
    /// One item per line of an NDJSON file, read as a stream. `path` is as
    /// written in the spec; `resolvedPath` is where it is read from.
    case file(path: String, resolvedPath: String)
    /// The items of each source in turn (an extension of format 1, written
    /// `{"segments": [...]}`): how items appended to a cycle or a file are
    /// kept without expanding them.
    case segments([ItemSource])
    /// The items of a source with some of them replaced, by index (an
    /// extension of format 1, written `{"base": ITEMS, "overrides":
    /// [{"item": i, …fields}, …]}`): how a store keeps measured sizes of
    /// a cycle or a file without expanding it.
    case overridden(ItemSource, ItemOverrides)

    /// The number of items, when known without reading a file.
    public var knownCount: Int? {
        switch self {
        case .list(let items): items.count
        case .cycle(let count, _): count
        case .file: nil
        case .segments(let parts):
            parts.reduce(0 as Int?) { total, part in total.flatMap { total in part.knownCount.map { total + $0 } } }
        case .overridden(let base, _): base.knownCount
        }
    }

    /// The items files this source reads, in order: each one's JSON path
    /// below the section's `items` (`file`, `segments[1].file`) and the path
    /// it is read from.
    package var itemFiles: [(jsonPath: String, resolvedPath: String)] {
        switch self {
        case .list, .cycle:
            return []
        case .file(_, let resolvedPath):
            return [("file", resolvedPath)]
        case .segments(let parts):
            return parts.enumerated().flatMap { index, part in
                part.itemFiles.map { ("segments[\(index)]." + $0.jsonPath, $0.resolvedPath) }
            }
        case .overridden(let base, _):
            return base.itemFiles.map { ("base." + $0.jsonPath, $0.resolvedPath) }
        }
    }

    /// This source with every items file, at any depth, named by
    /// `transform` of its resolved path (both as written and as read).
    package func renamingFiles(_ transform: (String) -> String) -> ItemSource {
        switch self {
        case .list, .cycle:
            return self
        case .file(_, let resolvedPath):
            let renamed = transform(resolvedPath)
            return .file(path: renamed, resolvedPath: renamed)
        case .segments(let parts):
            return .segments(parts.map { $0.renamingFiles(transform) })
        case .overridden(let base, let overrides):
            return .overridden(base.renamingFiles(transform), overrides)
        }
    }

    /// This source with every list and cycle cut to its first `limit` items
    /// (items files as they are): a spec of bounded size with the same
    /// kinds of items, for fuzzing in a debug build.
    func capped(at limit: Int) -> ItemSource {
        switch self {
        case .list(let items): .list(Array(items.prefix(limit)))
        case .cycle(let count, let cycle): .cycle(count: min(count, limit), cycle)
        case .file: self
        case .segments(let parts): .segments(parts.map { $0.capped(at: limit) })
        case .overridden(let base, let overrides): .overridden(base.capped(at: limit), overrides.prefix(below: limit))
        }
    }

    /// Calls `body` with each item from index `first` on, its index and its
    /// location, in order.
    package func forEach(
        section: Int,
        from first: Int = 0,
        _ body: (_ item: Item, _ index: Int, _ location: ItemLocation) throws -> Void
    ) throws {
        _ = try visit(section: section, offset: 0, from: first, segment: nil, body)
    }

    /// Visits the items of this source whose global index (offset + local)
    /// is at least `first`; returns the number of items in the source.
    private func visit(
        section: Int,
        offset: Int,
        from first: Int,
        segment: Int?,
        _ body: (_ item: Item, _ index: Int, _ location: ItemLocation) throws -> Void
    ) throws -> Int {
        func location(_ local: Int, cycleEntry: Int? = nil) -> ItemLocation {
            var location = ItemLocation(section: section, index: offset + local, cycleEntry: cycleEntry)
            if let segment { location.segment = (segment, local) }
            return location
        }
        switch self {
        case .list(let items):
            for local in max(0, first - offset)..<max(max(0, first - offset), items.count) {
                try body(items[local], offset + local, location(local))
            }
            return items.count
        case .cycle(let count, let cycle):
            guard !cycle.isEmpty else { return 0 }
            let start = min(max(0, first - offset), count)
            var entry = start % cycle.count
            for local in start..<count {
                try body(cycle[entry], offset + local, location(local, cycleEntry: entry))
                entry += 1
                if entry == cycle.count { entry = 0 }
            }
            return count
        case .file(_, let resolvedPath):
            let reader = try NDJSONItemReader(path: resolvedPath, section: section)
            return try reader.forEach(skipping: max(0, first - offset)) { item, local, fileLocation in
                var itemLocation = location(local)
                if segment == nil { itemLocation = fileLocation }
                try body(item, offset + local, itemLocation)
            }
        case .segments(let parts):
            var total = 0
            for (index, part) in parts.enumerated() {
                total += try part.visit(section: section, offset: offset + total, from: first, segment: index, body)
            }
            return total
        case .overridden(let base, let overrides):
            // Overrides in index order, from the first item visited on: one step per item.
            var next = overrides.firstPosition(atLeast: max(0, first - offset))
            return try base.visit(section: section, offset: offset, from: first, segment: segment) { item, index, location in
                guard next < overrides.count, overrides.indices[next] == index - offset else { return try body(item, index, location) }
                let replaced = overrides.items[next]
                next += 1
                try body(replaced, index, ItemLocation(section: section, index: index))
            }
        }
    }
}
