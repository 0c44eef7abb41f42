import ArgumentParser
import Foundation
import TesseraCommandSupport
import TesseraLayout
import TesseraSQLite
import TesseraStore

/// `tessera list --db FILE`: specs and their layouts.
struct ListCommand: AsyncParsableCommand {
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

    func run() async throws {
        let store = try database.openForReading()
        defer { store.close() }
        let listing = try await reportingErrors { try await store.listing() }
        switch DisplayFormat.resolve(format) {
        case .table: print(TextTable.format(Self.tableRows(listing)))
        case .json: print(StoreJSON.listing(listing))
        case .ndjson: print(StoreJSON.listingLines(listing).joined(separator: "\n"))
        }
    }

    static func tableRows(_ listing: [SpecListing]) -> [[String]] {
        var rows = [["spec", "axis", "extent", "state", "elements", "content size", "frame bytes", "compute s"]]
        for entry in listing {
            let spec = entry.spec
            if entry.layouts.isEmpty { rows.append([spec.name, spec.axis.rawValue, "-", "no layouts", "", "", "", ""]) }
            for layout in entry.layouts {
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
}
