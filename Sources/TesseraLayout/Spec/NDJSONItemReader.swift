/// Streams items from an NDJSON file, one item per non-blank line, so that a
/// feed of millions of items is never held in memory.
struct NDJSONItemReader {
    private let path: String
    private let section: Int

    init(path: String, section: Int) throws {
        self.path = path
        self.section = section
    }

    private var filePath: JSONPath {
        JSONPath.root.appending("sections").appending(section).appending("items").appending("file")
    }

    /// Reads every item; the first `skipped` items are counted but not parsed.
    /// Returns the number of items in the file.
    @discardableResult
    func forEach(skipping skipped: Int = 0, _ body: (_ item: Item, _ index: Int, _ location: ItemLocation) throws -> Void) throws -> Int {
        var index = 0
        let lines = try LineReader(path: path, rules: .itemsFile, errorPath: filePath.description)

        func consume(_ bytes: ArraySlice<UInt8>) throws {
            guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return }
            guard index < Spec.maximumItemCount else {
                throw filePath.error("\(path.quotedPathForMessage) holds more than \(Spec.maximumItemCount) items (a spec's item limit)")
            }
            if index < skipped {
                index += 1
                return
            }
            let location = ItemLocation(section: section, index: index)
            let json: JSONValue
            do {
                json = try JSONParser.parse(Array(bytes))
            } catch {
                throw location.path.error("line \(lines.lineNumber) of \(path.quotedPathForMessage) is not valid JSON: \(error.reason) at column \(error.column)")
            }
            try body(try Item(json: json, location: location), index, location)
            index += 1
        }

        do {
            while try lines.next(consume) != nil {}
        } catch let error as LineTooLong {
            // Bounded memory: a line never grows past the limit before it is refused.
            throw ItemLocation(section: section, index: index).path.error(
                "line \(error.line) of \(path.quotedPathForMessage) is longer than \(error.limit) bytes"
            )
        }
        return index
    }
}
