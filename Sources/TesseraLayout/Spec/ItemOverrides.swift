/// Items that replace some of a source's items, by index (the items form
/// `{"base": ITEMS, "overrides": [{"item": i, …fields}, …]}`, an extension
/// of format 1): how a store keeps measured sizes of a `count`/`cycle` or
/// `file` section without writing out every item.
public struct ItemOverrides: Sendable, Hashable {
    /// The indices replaced, in increasing order.
    public private(set) var indices: [Int] = []
    /// The items, in the order of ``indices``.
    public private(set) var items: [Item] = []

    /// Overrides of the given items, by index.
    public init(_ items: [Int: Item] = [:]) {
        indices = items.keys.sorted()
        self.items = indices.compactMap { items[$0] }
    }

    /// The number of items replaced.
    public var count: Int { indices.count }

    /// The item that replaces item `index`, if any.
    public subscript(index: Int) -> Item? {
        let position = firstPosition(atLeast: index)
        guard position < indices.count, indices[position] == index else { return nil }
        return items[position]
    }

    /// These overrides with `changed` replacing (or adding to) them.
    func merging(_ changed: [Int: Item]) -> ItemOverrides {
        var merged = Dictionary(uniqueKeysWithValues: zip(indices, items))
        merged.merge(changed) { _, new in new }
        return ItemOverrides(merged)
    }

    /// Only those below `limit`.
    func prefix(below limit: Int) -> ItemOverrides {
        let end = firstPosition(atLeast: limit)
        var result = ItemOverrides()
        result.indices = Array(indices[..<end])
        result.items = Array(items[..<end])
        return result
    }

    /// The position of the first index at least `index` (binary search).
    func firstPosition(atLeast index: Int) -> Int {
        var low = 0
        var high = indices.count
        while low < high {
            let middle = (low + high) / 2
            if indices[middle] < index { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// As JSON: `[{"item": i, …fields}, …]`.
    var jsonValue: JSONValue {
        .array(zip(indices, items).map { index, item in
            var object = JSONObject(["item": .number(Double(index))])
            if case .object(let fields) = item.jsonValue {
                for (key, value) in zip(fields.keys, fields.values) { object[key] = value }
            }
            return .object(object)
        })
    }

    /// Reads `[{"item": i, …fields}, …]`, indices increasing and below
    /// `count` when the base's count is known.
    init(json: JSONValue, count: Int?, path: JSONPath) throws {
        guard case .array(let values) = json else { throw path.error("must be an array of items with their \"item\" index, got \(json.typeName)") }
        for (position, value) in values.enumerated() {
            let itemPath = path.appending(position)
            guard case .object(let object) = value else { throw itemPath.error("an override must be an object, got \(value.typeName)") }
            let reader = LayoutParameters(object: object, path: itemPath)
            let index = try reader.requiredInteger("item", minimum: 0)
            if let last = indices.last, index <= last {
                throw itemPath.appending("item").error("must be above the item before (\(last)): overrides are listed once each, in order")
            }
            if let count, index >= count {
                throw itemPath.appending("item").error("must be below the base's item count (\(count)), got \(index)")
            }
            indices.append(index)
            items.append(try Item(json: value, path: itemPath))
        }
    }
}

extension Item {
    /// This item with `fields` replaced, each value read as in a spec
    /// (JSON null removes the field; a value of the wrong type is kept for
    /// the kind that reads the field to refuse).
    public func replacing(_ fields: [Field: JSONValue]) -> Item {
        guard case .object(var object) = jsonValue else { return self }
        for field in Field.allCases {
            guard let value = fields[field] else { continue }
            object[field.rawValue] = value == .null ? nil : value
        }
        return (try? Item(json: .object(object), path: .root)) ?? self
    }
}

extension ItemSource {
    /// These items with those of `changed` replaced, by index (each below
    /// the source's count): a list in place; any other source keeps its
    /// form, under ``ItemOverrides``.
    public func replacing(_ changed: [Int: Item]) -> ItemSource {
        switch self {
        case .list(var items):
            for (index, item) in changed where items.indices.contains(index) { items[index] = item }
            return .list(items)
        case .overridden(let base, let overrides):
            return .overridden(base, overrides.merging(changed))
        default:
            return .overridden(self, ItemOverrides(changed))
        }
    }

    /// The items at `indices`, read up to the last of them only.
    package func items(at indices: Set<Int>, section: Int) throws -> [Int: Item] {
        guard let first = indices.min(), let last = indices.max() else { return [:] }
        struct Done: Error {}
        var found: [Int: Item] = [:]
        do {
            try forEach(section: section, from: first) { item, index, _ in
                if indices.contains(index) { found[index] = item }
                if index >= last { throw Done() }
            }
        } catch is Done {}
        return found
    }
}
