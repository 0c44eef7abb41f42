import Foundation
import TesseraLayout

/// One tile as the server writes it (`TileJSON.tile`): its elements,
/// unpinned, and the pinning data of the sections that pin within its band.
struct DecodedTile: Sendable {
    var index: Int
    var direction: LayoutDirection
    var elements: [LayoutElement]
    var pinning: [SectionPinning]
    var orthogonal: [OrthogonalContent]

    /// Tile `index` of `manifest` from `body` (`columns`: the column
    /// format of `…/columns/{index}`), checked against the manifest: the
    /// same revision, index, tile length, axis, extent and content size.
    init(body: [UInt8], index: Int, manifest: RemoteManifest, url: URL, columns: Bool = false) throws(TileClientError) {
        let json = try BodyJSON.parse(body, url: url)
        self = try JSONMembers.reading(url, "not tile \(index) of revision \(manifest.revision)") { () throws(JSONMembers.Failure) in
            try Self(json: json, index: index, manifest: manifest, columns: columns)
        }
    }

    private init(json: JSONValue, index: Int, manifest: RemoteManifest, columns: Bool) throws(JSONMembers.Failure) {
        let members = try JSONMembers(json, at: JSONPath.root)
        func expect(_ key: String, _ same: Bool, _ what: String) throws(JSONMembers.Failure) {
            guard same else { throw members.failure(key, "differs from the manifest's \(what)") }
        }
        try expect("revision", try members.string("revision", maximumLength: 128) == manifest.revision, "revision \(manifest.revision)")
        guard try members.integer("index", in: 0...RemoteManifest.maximumTileCount) == index else {
            throw members.failure("index", "expected tile \(index)")
        }
        try expect("tileLength", try members.number("tileLength") == manifest.tileLength, "tile length")
        try expect("axis", try members.axis("axis") == manifest.axis, "axis")
        try expect("extent", try members.number("extent") == manifest.extent, "extent")
        try expect("contentSize", try members.size("contentSize") == manifest.contentSize, "content size")
        guard let direction = LayoutDirection(rawValue: try members.string("direction", maximumLength: 8)) else {
            throw members.failure("direction", "expected \"ltr\" or \"rtl\"")
        }
        self.index = index
        self.direction = direction
        orthogonal = members.object["orthogonal"] == nil ? [] : try members.objects("orthogonal") { entry throws(JSONMembers.Failure) in
            OrthogonalContent(section: try entry.integer("section"), contentLength: try entry.number("contentLength"))
        }
        pinning = try members.objects("pinning", Self.pinning)
        elements = columns
            ? try TileColumnsReader(members, axis: manifest.axis).elements()
            : try members.objects("elements") { entry throws(JSONMembers.Failure) in try entry.element() }
    }

    /// `{"section", "start", "end", "cells": [a, b], "scrollStartInset",
    /// ["header": {…},] "headerPinned", ["footer": {…},] "footerPinned"}`.
    private static func pinning(_ entry: JSONMembers) throws(JSONMembers.Failure) -> SectionPinning {
        let cells = try entry.numbers("cells", count: 2)
        guard cells[0] <= cells[1] else { throw entry.failure("cells", "expected [a, b] with a ≤ b") }
        let header = entry.object["header"] == nil ? nil : try entry.element("header")
        let footer = entry.object["footer"] == nil ? nil : try entry.element("footer")
        return SectionPinning(
            section: try entry.integer("section"), start: try entry.number("start"), end: try entry.number("end"), cells: cells[0]...cells[1],
            scrollStartInset: try entry.number("scrollStartInset"), header: header, headerPinned: try entry.bool("headerPinned"),
            footer: footer, footerPinned: try entry.bool("footerPinned"))
    }
}
