import ArgumentParser
import TesseraLayout
import TesseraStore

/// `--db FILE`: the store to open.
struct DatabaseOption: ParsableArguments {
    @Option(help: "The store file (SQLite); created when missing.")
    var db: String

    func open() throws -> LayoutStore {
        do {
            return try LayoutStore(path: db)
        } catch let error as StoreError {
            throw CommandError(error.description)
        } catch let error as SQLiteError {
            throw CommandError("\(db): \(error)")
        }
    }
}

/// Runs `body`, turning library errors into one clear line.
func reportingErrors<T>(file: String? = nil, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as SpecError {
        throw file.map { CommandError.spec(error, file: $0) } ?? CommandError(error.description)
    } catch let error as StoreError {
        throw CommandError(error.description)
    } catch let error as SQLiteError {
        throw CommandError(error.description)
    }
}

/// Prints elements in the chosen format: the contract's json or ndjson, or
/// an aligned table for people.
struct ElementPrinter {
    var format: DisplayFormat

    func print(summary: LayoutSummary, elements: [LayoutElement]) {
        var output = StandardOutput()
        switch format {
        case .json: LayoutPrinter(format: .json).print(summary: summary, elements: elements, to: &output)
        case .ndjson: LayoutPrinter(format: .ndjson).print(summary: summary, elements: elements, to: &output)
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

/// `--format table|json|ndjson`, table by default on a terminal.
enum DisplayFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, ndjson

    static func resolve(_ format: DisplayFormat?) -> DisplayFormat {
        format ?? (isatty(1) != 0 ? .table : .json)
    }
}

#if canImport(Glibc)
import Glibc
#endif
