import Testing
@testable import TesseraLayout

/// Reading resize changes from NDJSON: what a line holds, and every refusal
/// naming its line and, for a field, its path in the spec.
@Suite("item changes from NDJSON")
struct ItemChangeNDJSONTests {
    static func read(_ text: String, section: Int = 2, maximumChanges: Int = ItemChange.maximumChanges) throws -> [ItemChange] {
        try ItemChange.changes(ndjson: Array(text.utf8), section: section, maximumChanges: maximumChanges)
    }

    static func refusal(_ text: String, maximumChanges: Int = ItemChange.maximumChanges) -> SpecError? {
        do {
            _ = try read(text, maximumChanges: maximumChanges)
            return nil
        } catch {
            return error as? SpecError
        }
    }

    @Test("one change per non-blank line, with its line; null kept to remove the field")
    func lines() throws {
        let changes = try Self.read("{\"item\": 17, \"length\": 40}\n\n  \r\n{\"aspectRatio\": null, \"item\": 3, \"size\": [1, 2]}\r\n{\"item\": 17, \"canBeBig\": true}")
        #expect(changes.map(\.item) == [17, 3, 17])
        #expect(changes.map(\.line) == [1, 4, 5])
        #expect(changes[0].fields == [.length: .number(40)])
        #expect(changes[1].fields == [.aspectRatio: .null, .size: .array([.number(1), .number(2)])])
        #expect(changes[2].fields == [.canBeBig: .bool(true)])
    }

    @Test("refused: bad JSON, not an object, no item, a bad item, item only, an unknown field, no lines, too many, too long", arguments: [
        ("{\"item\": 1, \"length\": 2}\n{\"item\": ", "", "line 2 is not valid JSON: unexpected end of input at column 10"),
        ("[1]", "", "line 1: a change must be an object {\"item\": i, …fields}, got an array"),
        ("\n{\"length\": 3}", "", "line 2: a change needs \"item\", the index of the item in section 2"),
        ("{\"item\": -1, \"length\": 3}", "", "line 1: \"item\" must be an integer of at least 0, got -1"),
        ("{\"item\": 1.5, \"length\": 3}", "", "line 1: \"item\" must be an integer of at least 0, got 1.5"),
        ("{\"item\": \"4\", \"length\": 3}", "", "line 1: \"item\" must be an integer of at least 0, got \"4\""),
        ("{\"item\": 4}", "sections[2].items[4]", "line 1: the change names no field to replace (give the item's new fields with \"item\")"),
        ("{\"item\": 4, \"lenght\": 3}", "sections[2].items[4].lenght",
         "line 1: not an item field (the fields are size, fraction, aspectRatio, scale, columns, rows, canBeBig, length)"),
        (" \n\n", "", "no changes: give one {\"item\": i, …fields} object per line"),
    ])
    func refusals(text: String, path: String, reason: String) {
        let error = Self.refusal(text)
        #expect(error?.path == path)
        #expect(error?.reason == reason)
    }

    @Test("bounded before anything is held: lines of at most 64 KiB, at most so many changes")
    func bounds() {
        let long = "{\"item\": 1, \"length\": 3" + String(repeating: " ", count: ItemChange.maximumLineLength) + "}"
        #expect(Self.refusal("{\"item\": 0, \"length\": 1}\n" + long)?.reason == "line 2 is longer than 65536 bytes")
        let three = "{\"item\": 0, \"length\": 1}\n{\"item\": 1, \"length\": 1}\n\n{\"item\": 2, \"length\": 1}\n"
        #expect(Self.refusal(three, maximumChanges: 2)?.reason == "line 4: more than 2 changes in one input; send them in several")
        #expect((try? Self.read(three, maximumChanges: 3))?.count == 3)
    }
}
