import ArgumentParser
import Foundation
import TesseraCommandSupport
import TesseraLayout
import TesseraSQLite
import TesseraStore
import TesseraStoreJSON

/// `tessera list --db FILE`: specs and their layouts.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List stored specs and their layouts: widths, counts, sizes, fresh or stale.",
        discussion: """
        json prints {"specs": [...]}, each spec with its "layouts". ndjson prints one line per layout, with its \
        spec's "name", "axis" and "sections" beside the layout's fields, for grep and jq; a spec without layouts \
        is one line with "extent": null and "state": "none". Specs are in the byte order of their names' UTF-8. \
        With --limit or --after, one page: at most --limit specs (1,000 by default) after --after; json then \
        has "next", the name to pass as --after for the next page (null on the last), and the other formats \
        say it on standard error.
        """
    )

    @OptionGroup var database: DatabaseOption

    @Option(help: "Output format: table (default on a terminal), json (default when piped) or ndjson (one line per layout).")
    var format: DisplayFormat?

    @Option(help: "List one page of at most N specs (1 to 10000).")
    var limit: Int?

    @Option(help: "List one page of the specs named after NAME (NAME need not be stored): the \"next\" of the page before.")
    var after: String?

    func validate() throws {
        if let limit, !(1...ListingPage.maximumLimit).contains(limit) {
            throw ValidationError("--limit must be from 1 to \(ListingPage.maximumLimit), got \(limit)")
        }
    }

    func run() async throws {
        let store = try await database.openForReading()
        defer { store.close() }
        let format = DisplayFormat.resolve(format)
        guard limit != nil || after != nil else { return try await listAll(store, format: format) }
        let page = try await reportingErrors { try await store.listing(after: after, limit: limit ?? ListingPage.standardLimit) }
        switch format {
        case .table: print(TextTable.format(Self.tableRows(page.specs)))
        case .json: print(StoreJSON.page(page))
        case .ndjson: print(StoreJSON.listingLines(page.specs).joined(separator: "\n"))
        }
        if format != .json, let next = page.next {
            printError("more specs follow: list them with --after \(JSONWriter.quote(next))")
        }
    }

    /// Every spec, read and printed a page at a time (json and ndjson): the
    /// output of a store of any size is never held whole. A table's columns
    /// are as wide as their widest cell, so it is made of every row at once.
    private func listAll(_ store: LayoutStore, format: DisplayFormat) async throws {
        guard format != .table else {
            let listing = try await reportingErrors { try await store.listing() }
            print(TextTable.format(Self.tableRows(listing)))
            return
        }
        var output = StandardOutput()
        if format == .json { output.write(StoreJSON.listingOpening) }
        var after: String?
        var empty = true
        repeat {
            let page = try await reportingErrors { try await store.listing(after: after, limit: ListingPage.standardLimit) }
            if format == .json {
                output.write(StoreJSON.entries(page.specs, first: empty))
            } else {
                for line in StoreJSON.listingLines(page.specs) { output.writeLine(line) }
            }
            empty = empty && page.specs.isEmpty
            after = page.next
        } while after != nil
        // As print of the whole would: `]}` and a newline, or one empty line for no layouts.
        if format == .json { output.writeLine("]}") } else if empty { output.writeLine("") }
        output.flush()
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
