import ArgumentParser
import Foundation
import TesseraLayout
import TesseraSQLite

/// `tessera list --db FILE`: specs and their layouts.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List stored specs and their layouts: widths, counts, sizes, fresh or stale.",
        discussion: """
        json prints {"specs": [...]}, each spec with its "layouts". ndjson prints one line per layout, with its \
        spec's "name", "axis" and "sections" beside the layout's fields, for grep and jq; a spec without layouts \
        is one line with "extent": null and "state": "none".
        """
    )

    @OptionGroup var database: DatabaseOption

    @Option(help: "Output format: table (default on a terminal), json (default when piped) or ndjson (one line per layout).")
    var format: DisplayFormat?

    func run() throws {
        let store = try database.open()
        let (specs, layouts) = try reportingErrors { (try store.specs(), try store.layouts()) }
        let listing = specs.map { spec in (spec, layouts.filter { $0.specName == spec.name }) }
        switch DisplayFormat.resolve(format) {
        case .table: print(TextTable.format(Self.tableRows(listing)))
        case .json: print(Self.json(listing))
        case .ndjson: print(Self.ndjsonLines(listing).joined(separator: "\n"))
        }
    }

    typealias Listing = [(spec: StoredSpec, layouts: [StoredLayout])]

    static func tableRows(_ listing: Listing) -> [[String]] {
        var rows = [["spec", "axis", "extent", "state", "elements", "content size", "frame bytes", "compute s"]]
        for (spec, layouts) in listing {
            if layouts.isEmpty { rows.append([spec.name, spec.axis.rawValue, "-", "no layouts", "", "", "", ""]) }
            for layout in layouts {
                let size = layout.contentSize
                rows.append([
                    spec.name, spec.axis.rawValue, JSONWriter.format(layout.crossExtent), layout.state.rawValue,
                    String(layout.elementCount), "\(JSONWriter.format(size.width))×\(JSONWriter.format(size.height))",
                    String(layout.frameBytes), String(format: "%.2f", layout.computeSeconds),
                ])
            }
        }
        return rows
    }

    static func json(_ listing: Listing) -> String {
        let specs = listing.map { spec, layouts in
            "{\(specMembers(spec)), \"layouts\": [\(layouts.map { "{\(layoutMembers($0))}" }.joined(separator: ", "))]}"
        }
        return "{\"specs\": [" + specs.joined(separator: ",\n ") + "]}"
    }

    static func ndjsonLines(_ listing: Listing) -> [String] {
        listing.flatMap { spec, layouts in
            layouts.isEmpty
                ? ["{\(specMembers(spec)), \"extent\": null, \"state\": \"none\"}"]
                : layouts.map { "{\(specMembers(spec)), \(layoutMembers($0))}" }
        }
    }

    private static func specMembers(_ spec: StoredSpec) -> String {
        "\"name\": \(JSONWriter.quote(spec.name)), \"axis\": \"\(spec.axis.rawValue)\", \"sections\": \(spec.sectionCount)"
    }

    private static func layoutMembers(_ layout: StoredLayout) -> String {
        let size = layout.contentSize
        return "\"extent\": \(JSONWriter.format(layout.crossExtent)), \"state\": \"\(layout.state.rawValue)\", "
            + "\"elements\": \(layout.elementCount), \"contentSize\": [\(JSONWriter.format(size.width)), \(JSONWriter.format(size.height))], "
            + "\"frameBytes\": \(layout.frameBytes), \"computeSeconds\": \(JSONWriter.format(layout.computeSeconds))"
    }
}
