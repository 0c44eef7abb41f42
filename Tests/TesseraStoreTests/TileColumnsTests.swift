import Foundation
import Testing
import TesseraGzip
import TesseraLayout
import TesseraTestSupport
@testable import TesseraClient
@testable import TesseraStore
import TesseraTiles

/// Column tiles (`…/revisions/{R}/columns/{index}`): the one encoder's text,
/// and the client's decoder giving the JSON tile's elements back, bit for bit.
@Suite("store: column tiles")
struct TileColumnsTests {
    @Test("worked example: tile 1 of the tiles' feed as columns, and an empty tile")
    func workedExample() async throws {
        let temporary = try await TemporaryStore(.sqlite)
        try await temporary.store.save(try Spec(jsonText: TileTests.feed), as: "feed", crossExtents: [400])
        let (manifest, tiles) = try await Self.tiles(temporary.store, "feed", 400)
        let revision = manifest.revision
        let head = String(decoding: TileJSON.tile(tiles[1]), as: UTF8.self).components(separatedBy: ",\n \"elements\"")[0]
        // Cells 18 and 19 start their lanes; the footer, the next header and
        // the carousel's first cell follow on the lane at 0; the other cells start lanes of their own.
        #expect(String(decoding: TileJSON.columnTile(tiles[1]), as: UTF8.self) == head + """
            ,
             "count": 14,
             "kind": "ccfhcccccccccc",
             "section": [0,0,0,1,0,0,0,0,0,0,0,0,0,0],
             "item": [19,1,1,1,1,1,1,1,1,1,1,1],
             "cross": [0,200,0,0,0,120,240,360,480,600,720,840,960,1080],
             "crossLength": [200,200,400,400,120,120,120,120,120,120,120,120,120,120],
             "scrollLength": [200,200,30,20,150,150,150,150,150,150,150,150,150,150],
             "scroll": [[1850],[1850],0,0,0,[2100],[2100],[2100],[2100],[2100],[2100],[2100],[2100],[2100]]}

            """)
        #expect(head.hasPrefix(#"{"revision": "\#(revision)", "index": 1, "#))

        // Nothing in [2048, 4096): every column empty.
        try await temporary.store.save(try Spec(jsonText: #"""
            {"format": 1, "sections": [{"insets": {"top": 5000}, "layout": {"kind": "grid", "fraction": 2}, "items": {"count": 2, "cycle": [{}]}}]}
            """#), as: "gap", crossExtents: [400])
        let (gapManifest, gapTiles) = try await Self.tiles(temporary.store, "gap", 400)
        #expect(gapManifest.tileCount == 3 && gapTiles[1].elements.isEmpty)
        #expect(String(decoding: TileJSON.columnTile(gapTiles[1]), as: UTF8.self) == """
            {"revision": "\(gapManifest.revision)", "index": 1, "tileLength": 2048, "band": [2048, 4096], "direction": "ltr", \
            "axis": "vertical", "extent": 400, "contentSize": [400, 5200],
             "pinning": [],
             "count": 0,
             "kind": "",
             "section": [],
             "item": [],
             "cross": [],
             "crossLength": [],
             "scrollLength": [],
             "scroll": []}

            """)
        for tile in tiles + gapTiles { try Self.expectRoundTrip(tile, "worked example") }
    }

    static let seeds: [UInt64] = Array(1...24)

    @Test("property: decoded columns are the JSON tile's elements bit for bit, every tile of random specs of every kind (carousels scrolled, rtl, both axes)",
          arguments: TestBackend.all, seeds)
    func roundTrip(backend: TestBackend, seed: UInt64) async throws {
        var generator = RandomSpecGenerator(seed: seed &* 104_729, kinds: allKinds)
        generator.carouselChance = 0.3
        let (json, extent) = generator.spec(sections: 1...6, items: 1...400, axis: seed % 3 == 0 ? .horizontal : .vertical)
        let spec = try Spec(jsonText: json)
        let temporary = try await TemporaryStore(backend)
        try await temporary.store.save(spec, as: "random", crossExtents: [extent])
        let (manifest, _) = try await Self.tiles(temporary.store, "random", extent)
        var random = SeededRandom(seed: seed)
        for direction in [LayoutDirection.leftToRight, .rightToLeft] {
            for scrolled in [false, true] {
                var offsets = OrthogonalOffsets.none
                if scrolled {
                    offsets = OrthogonalOffsets(random.carouselQuery(sectionCount: spec.sections.count, size: manifest.layout.contentSize, offsets: -200...900).offsets)
                }
                for index in 0..<manifest.tileCount {
                    guard case .found(let tile, _) = try await temporary.store.tile(
                        name: "random", crossExtent: extent, revision: manifest.revision, index: index, direction: direction, offsets: offsets) else {
                        Issue.record("seed \(seed): tile \(index) missing")
                        return
                    }
                    try Self.expectRoundTrip(tile, "seed \(seed) \(direction) scrolled \(scrolled) tile \(index)\n\(json)")
                }
            }
        }
    }

    @Test("a staggered feed (the demo's waterfall): at most 16 bytes an element gzip-compressed as columns; fewer than as JSON objects, random aspect ratios too")
    func staggeredSize() async throws {
        // The demo's waterfall (tessera demo, section 26): 3 columns, a cycle of 6 items, one of them 2 columns wide.
        let cycle = #"[{"aspectRatio": 0.75}, {"aspectRatio": 1.5}, {"aspectRatio": 1}, {"length": 180, "columns": 2}, {"aspectRatio": 0.6}, {"aspectRatio": 1.2}]"#
        var random = SeededRandom(seed: 26)
        let aspects = (0..<3000).map { _ in #"{"aspectRatio": \#((random.double(0.5...1.6) * 1000).rounded() / 1000)}"# }
        let temporary = try await TemporaryStore(.sqlite)
        for (name, columns, items) in [("waterfall", 3, #"{"count": 9000, "cycle": \#(cycle)}"#), ("random", 2, "[" + aspects.joined(separator: ",") + "]")] {
            try await temporary.store.save(try Spec(jsonText: """
                {"format": 1, "sections": [{"header": {"size": 44, "pinned": true},
                 "layout": {"kind": "staggered", "columns": \(columns), "itemSpacing": 4, "lineSpacing": 4}, "items": \(items)}]}
                """), as: name, crossExtents: [390])
            let (_, tiles) = try await Self.tiles(temporary.store, name, 390)
            let elements = tiles.reduce(0) { $0 + $1.elements.count }
            let json = tiles.reduce(0) { $0 + (Gzip.compress(TileJSON.tile($1))?.count ?? .max / 2) }
            let compact = tiles.reduce(0) { $0 + (Gzip.compress(TileJSON.columnTile($1))?.count ?? .max / 2) }
            #expect(tiles.count > 10 && elements >= 3000, "\(name)")
            #expect(compact * 10 < json * 8, "\(name): columns \(compact), JSON \(json)")
            if name == "waterfall" {
                #expect(Double(compact) / Double(elements) <= 16, "\(name): \(Double(compact) / Double(elements)) bytes an element")
            }
            // The gaps repeat: the line spacing, as text, for most cells.
            let text = String(decoding: TileJSON.columnTile(tiles[3]), as: UTF8.self)
            let entries = text.components(separatedBy: "\"scroll\": [")[1].components(separatedBy: "]}")[0].split(separator: ",")
            #expect(entries.filter { $0 == "4" }.count * 10 >= entries.count * (name == "waterfall" ? 6 : 9), "\(name): \(entries.prefix(40))")
        }
    }

    /// The tile as columns and as JSON objects, each decoded by the client:
    /// the same elements (bit for bit), pinning and carousels as the store's.
    static func expectRoundTrip(_ tile: LayoutTile, _ context: @autoclosure () -> String) throws {
        let url = URL(string: "http://tiles.test/v1/feeds/f/layouts/1/tiles")!
        let manifest = try RemoteManifest(url: url, body: TileJSON.manifest(tile.manifest), etag: nil)
        let columns = try DecodedTile(body: TileJSON.columnTile(tile), index: tile.index, manifest: manifest, url: url, columns: true)
        let objects = try DecodedTile(body: TileJSON.tile(tile), index: tile.index, manifest: manifest, url: url)
        #expect(bits(columns.elements) == bits(tile.elements) && columns.elements == tile.elements, "\(context())")
        #expect(bits(objects.elements) == bits(tile.elements), "\(context())")
        #expect(columns.pinning == tile.pinning && columns.orthogonal == tile.orthogonal && columns.direction == tile.direction, "\(context())")
    }

    /// Every number of every element, as bits.
    static func bits(_ elements: [LayoutElement]) -> [[UInt64]] {
        elements.map { element in
            [UInt64(element.section), UInt64(bitPattern: Int64(element.item ?? -1)), UInt64(bitPattern: Int64(element.zIndex)),
             UInt64(LayoutElement.Kind.allCases.firstIndex(of: element.kind) ?? 9)]
                + [element.frame.x, element.frame.y, element.frame.width, element.frame.height].map(\.bitPattern)
        }
    }

    static func tiles(_ store: LayoutStore, _ name: String, _ extent: Double) async throws -> (TileManifest, [LayoutTile]) {
        guard case .found(let manifest, _) = try await store.tileManifest(name: name, crossExtent: extent) else {
            throw StoreError(.notFound, "no manifest of \(name)")
        }
        var tiles: [LayoutTile] = []
        for index in 0..<manifest.tileCount {
            guard case .found(let tile, _) = try await store.tile(name: name, crossExtent: extent, revision: manifest.revision, index: index) else {
                throw StoreError(.notFound, "tile \(index) of \(name) missing")
            }
            tiles.append(tile)
        }
        return (manifest, tiles)
    }
}
