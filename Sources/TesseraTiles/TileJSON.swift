import TesseraLayout
import TesseraStore

/// The JSON of the tile routes (the HTTP API article), one writer for the server
/// and `tessera export --tiles`, so their bytes are the same. Elements are
/// written by `LayoutJSON`, as every other answer's; each text ends with a
/// newline, as the CLI prints.
package enum TileJSON {
    /// `{"revision": "…", "tileLength": T, "tileCount": n, "contentSize": [w, h],
    /// "tiles": "revisions/…/tiles/{index}", "axis": "vertical", "extent": 390,
    /// "columnTiles": "revisions/…/columns/{index}"}`.
    /// The template is relative to the manifest's own URL
    /// (`…/layouts/{extent}/tiles`), with `query` (e.g. `direction=rtl`) after it.
    package static func manifest(_ manifest: TileManifest, query: String = "") -> [UInt8] {
        var out = TileMembers(capacity: 256)
        out.string("revision", manifest.revision)
        out.number("tileLength", manifest.tileLength)
        out.integer("tileCount", manifest.tileCount)
        out.pair("contentSize", manifest.layout.contentSize.width, manifest.layout.contentSize.height)
        out.string("tiles", template(revision: manifest.revision, query: query))
        out.string("axis", manifest.layout.axis.rawValue)
        out.number("extent", manifest.layout.crossExtent)
        out.string("columnTiles", columnTemplate(revision: manifest.revision, query: query))
        out.bytes.append(contentsOf: "}\n".utf8)
        return out.bytes
    }

    /// The query of a tile variant, passed on in the templates:
    /// `direction=rtl&offset=2:240…`, canonical (offsets by section), or
    /// empty for the plain one.
    package static func query(direction: LayoutDirection, offsets: OrthogonalOffsets) -> String {
        var parts: [String] = direction == .rightToLeft ? ["direction=rtl"] : []
        for entry in offsets.entries.sorted(by: { $0.section < $1.section }) {
            parts.append("offset=\(entry.section):\(JSONWriter.format(entry.offset))")
        }
        return parts.joined(separator: "&")
    }

    /// What a manifest's ETag adds to its revision: the manifest's members
    /// changed (`columnTiles` came), so a server of this version must not
    /// answer 304 to a cache holding an older server's manifest of the
    /// same revision (a strong tag names one body).
    package static let manifestTagSuffix = "-m2"

    /// The tiles' URL template, relative to the manifest's URL.
    package static func template(revision: String, query: String) -> String {
        "revisions/\(revision)/tiles/{index}" + (query.isEmpty ? "" : "?" + query)
    }

    /// The column tiles' URL template (``columnTile(_:)``), relative to the manifest's URL.
    package static func columnTemplate(revision: String, query: String) -> String {
        "revisions/\(revision)/columns/{index}" + (query.isEmpty ? "" : "?" + query)
    }

    /// `{"revision": "…", "index": i, "tileLength": T, "band": [i·T, (i+1)·T],
    /// "direction": "ltr", "axis": …, "extent": …, "contentSize": …, ["orthogonal": …,]
    /// "pinning": [{…}, …], "elements": [{…}, …]}`, one element or pinning
    /// entry a line.
    package static func tile(_ tile: LayoutTile) -> [UInt8] {
        var out = head(tile, capacity: LayoutJSON.maximumAnswerLength(
            elementCount: tile.elements.count + 2 * tile.pinning.count, orthogonalCount: tile.orthogonal.count) + 256 + 160 * tile.pinning.count)
        out.bytes.append(contentsOf: ",\n \"elements\": [".utf8)
        for (offset, element) in tile.elements.enumerated() {
            LayoutJSON.appendAnswerElement(element, first: offset == 0, to: &out.bytes)
        }
        LayoutJSON.appendAnswerClosing(empty: tile.elements.isEmpty, to: &out.bytes)
        out.bytes.append(UInt8(ascii: "\n"))
        return out.bytes
    }

    /// A tile's members before its elements, the same in both formats:
    /// `{"revision": …, …, "pinning": […]` (unclosed).
    static func head(_ tile: LayoutTile, capacity: Int) -> TileMembers {
        let manifest = tile.manifest
        var out = TileMembers(capacity: capacity)
        out.string("revision", manifest.revision)
        out.integer("index", tile.index)
        out.number("tileLength", manifest.tileLength)
        out.pair("band", Double(tile.index) * manifest.tileLength, Double(tile.index + 1) * manifest.tileLength)
        out.string("direction", tile.direction.rawValue)
        out.bytes.append(contentsOf: ", ".utf8)
        LayoutJSON.appendMembers(of: manifest.layout.summary, orthogonal: tile.orthogonal, to: &out.bytes)
        out.bytes.append(contentsOf: ",\n \"pinning\": [".utf8)
        for (offset, entry) in tile.pinning.enumerated() {
            out.bytes.append(contentsOf: (offset == 0 ? "\n  " : ",\n  ").utf8)
            append(entry, to: &out.bytes)
        }
        out.bytes.append(contentsOf: (tile.pinning.isEmpty ? "]" : "\n ]").utf8)
        return out
    }

    /// `{"section": s, "start": …, "end": …, "cells": [a, b], "scrollStartInset": …,
    /// "header": {…}, "headerPinned": true, "footer": {…}, "footerPinned": false}`
    /// (`header` and `footer` only when the section has them).
    private static func append(_ entry: SectionPinning, to bytes: inout [UInt8]) {
        var out = TileMembers(capacity: 512)
        out.integer("section", entry.section)
        out.number("start", entry.start)
        out.number("end", entry.end)
        out.pair("cells", entry.cells.lowerBound, entry.cells.upperBound)
        out.number("scrollStartInset", entry.scrollStartInset)
        for (key, element, pinned) in [("header", entry.header, entry.headerPinned), ("footer", entry.footer, entry.footerPinned)] {
            if let element {
                out.key(key)
                LayoutJSON.append(element, to: &out.bytes)
            }
            out.key(key + "Pinned")
            out.bytes.append(contentsOf: (pinned ? "true" : "false").utf8)
        }
        out.bytes.append(UInt8(ascii: "}"))
        bytes.append(contentsOf: out.bytes)
    }
}

/// An object's members, written one after another: `{"key": value, "key": value`
/// (the caller closes it).
struct TileMembers {
    var bytes: [UInt8] = []
    private var first = true

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    mutating func key(_ key: String) {
        bytes.append(contentsOf: (first ? "{\"" : ", \"").utf8)
        bytes.append(contentsOf: key.utf8)
        bytes.append(contentsOf: "\": ".utf8)
        first = false
    }

    mutating func string(_ key: String, _ value: String) {
        self.key(key)
        bytes.append(contentsOf: JSONWriter.quote(value).utf8)
    }

    mutating func number(_ key: String, _ value: Double) {
        self.key(key)
        JSONWriter.append(value, to: &bytes)
    }

    mutating func integer(_ key: String, _ value: Int) {
        self.key(key)
        JSONWriter.append(value, to: &bytes)
    }

    /// `[first, second]`.
    mutating func pair(_ key: String, _ first: Double, _ second: Double) {
        self.key(key)
        bytes.append(UInt8(ascii: "["))
        JSONWriter.append(first, to: &bytes)
        bytes.append(contentsOf: ", ".utf8)
        JSONWriter.append(second, to: &bytes)
        bytes.append(UInt8(ascii: "]"))
    }
}
