import Hummingbird
import TesseraLayout

/// Reading the bodies of write requests: a spec, or NDJSON items. Every
/// error is a 400 that names the JSON path, or the line and column of a
/// syntax error.
package enum RequestBodies {
    /// A spec from a `PUT` body, to be stored under `name`. A `"name"` in
    /// the spec must be that name; items files are refused (the server never
    /// reads a path a client chose).
    package static func spec(_ body: ByteBuffer, name: String, registry: LayoutRegistry) throws -> Spec {
        let json: JSONValue
        do {
            json = try JSONParser.parse(Array(body.readableBytesView))
        } catch {
            throw Problem(.badRequest, "the body is not valid JSON: \(error.description)")
        }
        let spec: Spec
        do {
            spec = try Spec(json: json, registry: registry, baseDirectory: nil)
        } catch let error as SpecError {
            throw Problem(error)
        }
        if let inner = spec.name, inner != name {
            throw Problem(.badRequest, "name: the spec is named \(inner.quotedForMessage) but is sent to \(name.quotedForMessage); "
                + "leave \"name\" out or make it the same", path: "name")
        }
        for (index, section) in spec.sections.enumerated() {
            if let file = section.items.itemFiles.first {
                let path = "sections[\(index)].items.\(file.jsonPath)"
                throw Problem(.badRequest, "\(path): a spec sent over HTTP must not name items files; send the items in the spec "
                    + "or append them with POST …/sections/\(index)/items", path: path)
            }
        }
        return spec
    }

    /// Items from a `POST` body: one JSON object per non-blank line. Paths
    /// are `items[i]…`, counting the body's items from 0.
    package static func items(_ body: ByteBuffer) throws -> [Item] {
        var items: [Item] = []
        var line = 0
        for bytes in body.readableBytesView.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            line += 1
            guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
            let path = JSONPath.root.appending("items").appending(items.count)
            let json: JSONValue
            do {
                json = try JSONParser.parse(Array(bytes))
            } catch {
                throw Problem(.badRequest, "line \(line) is not valid JSON: \(error.reason) at column \(error.column)", path: path.description)
            }
            do {
                items.append(try Item(json: json, path: path))
            } catch let error as SpecError {
                throw Problem(.badRequest, "line \(line): \(error.description)", path: error.path.isEmpty ? nil : error.path)
            }
        }
        guard !items.isEmpty else { throw Problem(.badRequest, "the body holds no items: send one JSON object per line") }
        return items
    }
}
