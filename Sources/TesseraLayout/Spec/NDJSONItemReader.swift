#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        var line: [UInt8] = []
        var index = 0
        var lineNumber = 0

        func tooLong(_ number: Int) -> SpecError {
            ItemLocation(section: section, index: index).path.error("line \(number) of \(path.quotedPathForMessage) is longer than \(Spec.maximumItemLineBytes) bytes")
        }

        func consume(_ bytes: ArraySlice<UInt8>) throws {
            lineNumber += 1
            guard bytes.count <= Spec.maximumItemLineBytes else { throw tooLong(lineNumber) }
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
                throw location.path.error("line \(lineNumber) of \(path.quotedPathForMessage) is not valid JSON: \(error.reason) at column \(error.column)")
            }
            try body(try Item(json: json, path: location.path), index, location)
            index += 1
        }

        try FileBytes.forEachChunk(of: path, errorPath: filePath.description, regularFileOnly: true) { chunk in
            var start = chunk.startIndex
            for position in chunk.indices where chunk[position] == 0x0A {
                if line.isEmpty {
                    try consume(chunk[start..<position])
                } else {
                    line.append(contentsOf: chunk[start..<position])
                    try consume(line[...])
                    line.removeAll(keepingCapacity: true)
                }
                start = position + 1
            }
            line.append(contentsOf: chunk[start...])
            // Bounded memory: a line never grows past the limit before it is refused.
            guard line.count <= Spec.maximumItemLineBytes else { throw tooLong(lineNumber + 1) }
        }
        if !line.isEmpty { try consume(line[...]) }
        return index
    }
}
