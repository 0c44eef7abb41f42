// The libFuzzer entry point for the JSON parser, the spec reader and the
// layout engine. Scripts/fuzz.sh compiles it together with the sources of
// TesseraLayout into one module (so it sees package and internal symbols),
// with -sanitize=fuzzer,address. It is not part of the Swift package.
//
// An input's first byte picks what the rest is:
// - even: a spec file. It is parsed and read; a valid spec is laid out at
//   390, its lists and cycles cut to 200 items: a mozaik item may span
//   65,536 rows, and 2,000 of them (131M rows of the matrix, linear work but
//   too much with the sanitizers) took more than the 10 s timeout.
// - odd: an items file, NDJSON. Each non-blank line is parsed and read as an
//   item, as NDJSONItemReader does; the items are laid out by each kind.
// A refusal must be a SpecError (or the parser's SyntaxError) whose message
// is one line of text with a path (or a line and column); anything else
// traps, and a trap is what libFuzzer reports and saves.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    if data[0] & 1 == 0 {
        FuzzTarget.spec(bytes)
    } else {
        FuzzTarget.items(bytes)
    }
    return 0
}

enum FuzzTarget {
    static let itemBound = 200

    /// One layout object per kind, to lay out fuzzed items with.
    static let layouts = [
        #"{"kind": "flow", "itemSpacing": 4, "alignment": "justified"}"#,
        #"{"kind": "grid", "fraction": 3, "itemSpacing": 2}"#,
        #"{"kind": "scaledGrid", "divisions": 5, "spacing": 2}"#,
        #"{"kind": "mozaik", "columnCount": 4, "rowHeight": 50, "order": "ordered"}"#,
        #"{"kind": "pattern", "blocks": [{"units": 3, "frames": [[0, 0, 2, 2], [2, 0, 1, 1], [2, 1, 1, 1]]}]}"#,
        #"{"kind": "staggered", "columns": 3}"#,
        #"{"kind": "mosaic", "columns": 3}"#,
    ].compactMap { try? JSONParser.parse($0) }

    static func spec(_ bytes: [UInt8]) {
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            checkMessage(error.description, path: "", syntax: true)
            return
        }
        do {
            var spec = try Spec(json: json)
            for index in spec.sections.indices { spec.sections[index].items = spec.sections[index].items.capped(at: itemBound) }
            _ = try LayoutEngine().layout(spec, crossExtent: 390)
        } catch let error as SpecError {
            checkMessage(error.reason, path: error.path, syntax: false)
        } catch {
            fatalError("not a SpecError: \(error)")
        }
    }

    static func items(_ bytes: [UInt8]) {
        var items: [JSONValue] = []
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).prefix(itemBound) {
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
            do {
                let value = try JSONParser.parse(Array(line))
                _ = try Item(json: value, path: JSONPath.root.appending("items").appending(items.count))
                items.append(value)
            } catch let error as JSONParser.SyntaxError {
                checkMessage(error.description, path: "", syntax: true)
            } catch let error as SpecError {
                checkMessage(error.reason, path: error.path, syntax: false)
            } catch {
                fatalError("not a SpecError: \(error)")
            }
        }
        for layout in layouts {
            let section = JSONValue.object(JSONObject(["layout": layout, "items": .array(items)]))
            let json = JSONValue.object(JSONObject(["format": .number(1), "sections": .array([section])]))
            do {
                _ = try LayoutEngine().layout(Spec(json: json), crossExtent: 390)
            } catch let error as SpecError {
                checkMessage(error.reason, path: error.path, syntax: false)
            } catch {
                fatalError("not a SpecError: \(error)")
            }
        }
    }

    /// A message is one line of text, not too long; a rule broken names
    /// its path, a syntax error its line and column.
    static func checkMessage(_ reason: String, path: String, syntax: Bool) {
        if let scalar = reason.unicodeScalars.first(where: \.breaksLines) {
            fatalError("a message with U+\(scalar.hexDigits): \(reason.debugDescription)")
        }
        if reason.count + path.count > 250 { fatalError("a message of \(reason.count + path.count) characters: \(reason)") }
        if syntax {
            if !reason.hasPrefix("line ") || !reason.contains(", column ") { fatalError("a syntax error without its position: \(reason)") }
        } else if path.isEmpty, !reason.hasPrefix("a spec must be a JSON object") {
            fatalError("an error without a path: \(reason)")
        }
    }
}
