import ArgumentParser
import Foundation
import TesseraLayout
import TesseraStore

/// `tessera list --db FILE`: specs and their layouts.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List stored specs and their layouts: widths, counts, sizes, fresh or stale.")

    @OptionGroup var database: DatabaseOption

    @Option(help: "Output format: table (default on a terminal) or json.")
    var format: DisplayFormat?

    func run() throws {
        let store = try database.open()
        let (specs, layouts) = try reportingErrors { (try store.specs(), try store.layouts()) }
        if DisplayFormat.resolve(format) == .table {
            var rows = [["spec", "axis", "extent", "state", "elements", "content size", "frame bytes", "compute s"]]
            for spec in specs {
                let own = layouts.filter { $0.specName == spec.name }
                if own.isEmpty { rows.append([spec.name, spec.axis.rawValue, "-", "no layouts", "", "", "", ""]) }
                for layout in own {
                    let size = layout.contentSize
                    rows.append([
                        spec.name, spec.axis.rawValue, JSONWriter.format(layout.crossExtent), layout.state.rawValue,
                        String(layout.elementCount), "\(JSONWriter.format(size.width))×\(JSONWriter.format(size.height))",
                        String(layout.frameBytes), String(format: "%.2f", layout.computeSeconds),
                    ])
                }
            }
            print(TextTable.format(rows))
            return
        }
        var lines: [String] = []
        for spec in specs {
            let own = layouts.filter { $0.specName == spec.name }.map { layout in
                let size = layout.contentSize
                return "{\"extent\": \(JSONWriter.format(layout.crossExtent)), \"state\": \"\(layout.state.rawValue)\", "
                    + "\"elements\": \(layout.elementCount), \"contentSize\": [\(JSONWriter.format(size.width)), \(JSONWriter.format(size.height))], "
                    + "\"frameBytes\": \(layout.frameBytes), \"computeSeconds\": \(JSONWriter.format(layout.computeSeconds))}"
            }
            lines.append("{\"name\": \(JSONWriter.quote(spec.name)), \"axis\": \"\(spec.axis.rawValue)\", \"sections\": \(spec.sectionCount), \"layouts\": [\(own.joined(separator: ", "))]}")
        }
        print("{\"specs\": [" + lines.joined(separator: ",\n ") + "]}")
    }
}
