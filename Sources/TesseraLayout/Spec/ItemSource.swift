/// Where a section's items come from.
public enum ItemSource: Sendable, Hashable {
    /// Items listed in the spec.
    case list([Item])
    /// `count` items, item i being `cycle[i % cycle.count]`: a huge feed in a
    /// few bytes.
    case cycle(count: Int, [Item])
    /// One item per line of an NDJSON file, read as a stream. `path` is as
    /// written in the spec; `resolvedPath` is where it is read from.
    case file(path: String, resolvedPath: String)

    /// The number of items, when known without reading a file.
    public var knownCount: Int? {
        switch self {
        case .list(let items): items.count
        case .cycle(let count, _): count
        case .file: nil
        }
    }

    /// Calls `body` with each item, its index and its location, in order.
    public func forEach(
        section: Int,
        _ body: (_ item: Item, _ index: Int, _ location: ItemLocation) throws -> Void
    ) throws {
        switch self {
        case .list(let items):
            for (index, item) in items.enumerated() {
                try body(item, index, ItemLocation(section: section, index: index))
            }
        case .cycle(let count, let cycle):
            guard !cycle.isEmpty else { return }
            var entry = 0
            for index in 0..<count {
                try body(cycle[entry], index, ItemLocation(section: section, index: index, cycleEntry: entry))
                entry += 1
                if entry == cycle.count { entry = 0 }
            }
        case .file(_, let resolvedPath):
            let reader = try NDJSONItemReader(path: resolvedPath, section: section)
            try reader.forEach(body)
        }
    }
}
