import TesseraLayout
import TesseraStore

/// The contract's JSON for what the store lists and reports, written once
/// for the CLI and the HTTP service alike.
package enum StoreJSON {
    /// One page of the listing: `{"specs": [...], "next": …}`, each spec
    /// with its `"layouts"`, and the name to pass as `after` for the next
    /// page (null on the last).
    package static func page(_ page: ListingPage) -> String {
        listingOpening + entries(page.specs, first: true) + pageClosing(next: page.next)
    }

    /// What the listing's object begins with, before its first entry.
    package static let listingOpening = "{\"specs\": ["

    /// Entries of the listing, each after a separator but the first of all:
    /// the listing's text written in pieces, piece by piece.
    package static func entries(_ listing: [SpecListing], first: Bool) -> String {
        guard !listing.isEmpty else { return "" }
        return (first ? "" : ",\n ") + listing.map(entry).joined(separator: ",\n ")
    }

    /// What a page's object ends with, after its last entry.
    package static func pageClosing(next: String?) -> String {
        "], \"next\": \(next.map(JSONWriter.quote) ?? "null")}"
    }

    /// One spec with its layouts: `{"name": …, "axis": …, "sections": …, "layouts": [...]}`.
    package static func entry(_ listing: SpecListing) -> String {
        "{\(specMembers(listing.spec)), \"layouts\": [\(listing.layouts.map { "{\(layoutMembers($0))}" }.joined(separator: ", "))]}"
    }

    /// One line per layout with its spec's fields; a spec without layouts is
    /// one line with `"extent": null, "state": "none"` (`--format ndjson`).
    package static func listingLines(_ listing: [SpecListing]) -> [String] {
        listing.flatMap { entry in
            entry.layouts.isEmpty
                ? ["{\(specMembers(entry.spec)), \"extent\": null, \"state\": \"none\"}"]
                : entry.layouts.map { "{\(specMembers(entry.spec)), \(layoutMembers($0))}" }
        }
    }

    /// What a save, update or append did: `{"name": …, "layouts": [{"extent": E,
    /// "kept": k, "shifted": s, "resumed": r, "recomputed": c}, …]}`.
    package static func report(name: String, _ report: UpdateReport) -> String {
        let layouts = report.layouts.map { layout in
            "{\"extent\": \(JSONWriter.format(layout.crossExtent)), \"kept\": \(layout.kept), \"shifted\": \(layout.shifted), "
                + "\"resumed\": \(layout.resumed), \"recomputed\": \(layout.recomputed)}"
        }
        return "{\"name\": \(JSONWriter.quote(name)), \"layouts\": [\(layouts.joined(separator: ", "))]}"
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
