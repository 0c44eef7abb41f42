/// One change of a resize: fields of one item replaced, such as a measured
/// size (`length`, `aspectRatio`, `size`).
public struct ItemChange: Sendable, Hashable {
    /// The item's index in its section.
    public var item: Int
    /// The fields to replace, with their JSON values, read as in a spec: a
    /// value of JSON null removes the field (null counts as absent); a
    /// field the section's kind does not read is stored and not checked.
    public var fields: [Item.Field: JSONValue]
    /// The line of the NDJSON input the change came from, for errors.
    package var line: Int?

    /// A change of item `item`'s `fields`.
    public init(item: Int, fields: [Item.Field: JSONValue]) {
        self.item = item
        self.fields = fields
    }
}

/// Changes read from NDJSON, one `{"item": i, …fields}` per non-blank line,
/// for the CLI's `resize` and the HTTP `PATCH` route. Everything a client
/// controls is bounded before it is held: lines, line length, input size.
extension ItemChange {
    /// The most changes one input holds.
    package static let maximumChanges = 1_000_000
    /// The longest line taken, in bytes.
    package static let maximumLineLength = 64 * 1024

    /// The changes of `bytes`. Errors name the line, and the JSON path of
    /// the field at fault in the spec, `sections[S].items[i].field`
    /// (``SpecError``); a line without `item`, with `item` only, or with a
    /// field that is not an item field is refused.
    package static func changes(
        ndjson bytes: some Collection<UInt8>, section: Int, maximumChanges: Int = maximumChanges
    ) throws -> [ItemChange] {
        var changes: [ItemChange] = []
        var line = 0
        var start = bytes.startIndex
        while start != bytes.endIndex {
            line += 1
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            let text = bytes[start..<end]
            start = end == bytes.endIndex ? end : bytes.index(after: end)
            guard text.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
            guard text.count <= maximumLineLength else {
                throw SpecError(path: "", reason: "line \(line) is longer than \(maximumLineLength) bytes")
            }
            guard changes.count < maximumChanges else {
                throw SpecError(path: "", reason: "line \(line): more than \(maximumChanges) changes in one input; send them in several")
            }
            changes.append(try change(Array(text), line: line, section: section))
        }
        guard !changes.isEmpty else {
            throw SpecError(path: "", reason: "no changes: give one {\"item\": i, …fields} object per line")
        }
        return changes
    }

    /// One line's change.
    private static func change(_ bytes: [UInt8], line: Int, section: Int) throws -> ItemChange {
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw SpecError(path: "", reason: "line \(line) is not valid JSON: \(error.reason) at column \(error.column)")
        }
        guard case .object(let object) = json else {
            throw SpecError(path: "", reason: "line \(line): a change must be an object {\"item\": i, …fields}, got \(json.typeName)")
        }
        guard let itemValue = object["item"], itemValue != .null else {
            throw SpecError(path: "", reason: "line \(line): a change needs \"item\", the index of the item in section \(section)")
        }
        guard case .number(let number) = itemValue, let item = exactIndex(number) else {
            throw SpecError(path: "", reason: "line \(line): \"item\" must be an integer of at least 0, got \(JSONWriter.canonical(itemValue))")
        }
        let path = JSONPath.root.appending("sections").appending(section).appending("items").appending(item)
        var change = ItemChange(item: item, fields: [:])
        change.line = line
        for (key, value) in zip(object.keys, object.values) where key != "item" {
            guard let field = Item.Field(rawValue: key) else {
                let known = Item.Field.allCases.map(\.rawValue).joined(separator: ", ")
                throw path.appending(key).error("line \(line): not an item field (the fields are \(known))")
            }
            change.fields[field] = value
        }
        guard !change.fields.isEmpty else {
            throw path.error("line \(line): the change names no field to replace (give the item's new fields with \"item\")")
        }
        return change
    }

    /// The index a JSON number holds exactly, nil for fractions and negatives.
    private static func exactIndex(_ number: Double) -> Int? {
        guard number.isFinite, number >= 0, number == number.rounded(), number < 9_007_199_254_740_992 else { return nil }
        return Int(number)
    }
}
