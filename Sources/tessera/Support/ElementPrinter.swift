import ArgumentParser
import TesseraCommandSupport
import TesseraLayout

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--format table|json|ndjson`, table by default on a terminal.
enum DisplayFormat: String, ExpressibleByArgument, CaseIterable {
    /// Aligned columns, for people.
    case table
    /// One JSON object.
    case json
    /// One JSON object per line.
    case ndjson

    /// The format asked for, else a table on a terminal and JSON when piped.
    static func resolve(_ format: DisplayFormat?) -> DisplayFormat {
        format ?? (isatty(1) != 0 ? .table : .json)
    }
}

/// Prints a layout's elements: the contract's json (one object) or ndjson (a
/// first line with the layout's fields, then one element per line), written
/// as they come so that millions of elements need no huge string; or an
/// aligned table for people.
struct ElementPrinter {
    var format: DisplayFormat

    /// Prints `elements` with the layout's fields; `orthogonal` lists the
    /// content length of each orthogonal section they hold elements of.
    func print(summary: LayoutSummary, orthogonal: [OrthogonalContent] = [], elements: some Collection<LayoutElement>) {
        var output = StandardOutput()
        switch format {
        case .json:
            var json = JSONChunks()
            LayoutJSON.appendAnswerOpening(summary: summary, orthogonal: orthogonal, to: &json.bytes)
            var first = true
            for element in elements {
                LayoutJSON.appendAnswerElement(element, first: first, to: &json.bytes)
                first = false
                json.handOn(to: &output)
            }
            LayoutJSON.appendAnswerClosing(empty: first, to: &json.bytes)
            json.bytes.append(UInt8(ascii: "\n"))
            json.handOn(to: &output, force: true)
        case .ndjson:
            var json = JSONChunks()
            json.bytes.append(UInt8(ascii: "{"))
            LayoutJSON.appendMembers(of: summary, orthogonal: orthogonal, to: &json.bytes)
            json.bytes.append(contentsOf: "}\n".utf8)
            for element in elements {
                LayoutJSON.append(element, to: &json.bytes)
                json.bytes.append(UInt8(ascii: "\n"))
                json.handOn(to: &output)
            }
            json.handOn(to: &output, force: true)
        case .table:
            let size = summary.contentSize
            output.writeLine("\(summary.axis.rawValue), extent \(JSONWriter.format(summary.crossExtent)), content \(JSONWriter.format(size.width))×\(JSONWriter.format(size.height)), \(elements.count) elements")
            var rows = [["kind", "section", "item", "x", "y", "width", "height", "z"]]
            for element in elements {
                let frame = element.frame
                rows.append([
                    element.kind.rawValue, String(element.section), element.item.map(String.init) ?? "-",
                    JSONWriter.format(frame.x), JSONWriter.format(frame.y),
                    JSONWriter.format(frame.width), JSONWriter.format(frame.height), String(element.zIndex),
                ])
            }
            output.writeLine(TextTable.format(rows))
        }
        output.flush()
    }
}

/// JSON text written by ``LayoutJSON`` into bytes and handed on to standard
/// output in chunks of 64 KiB, so that no element becomes a string.
private struct JSONChunks {
    var bytes: [UInt8] = []

    init() {
        bytes.reserveCapacity(1 << 16 + 512)
    }

    mutating func handOn(to output: inout StandardOutput, force: Bool = false) {
        guard force || bytes.count >= 1 << 16 else { return }
        output.write(String(decoding: bytes, as: UTF8.self))
        bytes.removeAll(keepingCapacity: true)
    }
}
