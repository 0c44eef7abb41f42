import Foundation
import Testing
import TesseraClient
import TesseraLayout

/// Column tiles as the client reads them: preferred when the manifest names
/// them (or not, as configured), and every defect refused with the member
/// and the rule it breaks.
@Suite("client: column tiles", .timeLimit(.minutes(2)))
struct TileClientColumnTests {
    static let manifest = TileClientErrorTests.manifest.replacingOccurrences(
        of: #""extent": 390}"#, with: #""extent": 390, "columnTiles": "revisions/abc/columns/{index}"}"#)
    static let columnURL = "http://tiles.test/v1/feeds/f/layouts/390/revisions/abc/columns/0"

    /// TileClientErrorTests.tile as columns: the header at 0, then the cell 0 after it on the lane at 0.
    static let tile = TileClientErrorTests.tile.components(separatedBy: ",\n \"elements\"")[0] + #"""
        , "count": 2, "kind": "hc", "section": [0,0], "item": [1], "cross": [0,0], "crossLength": [390,100], "scrollLength": [44,2500], "scroll": [[0],0]}
        """#

    static func client(tile: String, manifest: String = Self.manifest, prefersColumns: Bool = true) -> (TileClient, CountingFetcher) {
        TileClientErrorTests.client(
            manifest: { TileFetchResponse(status: 200, body: Data(manifest.utf8), etag: "\"abc\"") },
            tile: { url in TileFetchResponse(status: 200, body: Data((url.contains("/columns/") ? tile : TileClientErrorTests.tile).utf8)) },
            configuration: .init(prefetch: false, prefersColumnTiles: prefersColumns))
    }

    @Test("the column tile answers as the JSON tile; JSON tiles when the client prefers them or the manifest names no column tiles")
    func chooses() async throws {
        let viewport = Rect(x: 0, y: 100, width: 390, height: 844)
        let expected = [
            LayoutElement(kind: .header, section: 0, frame: Rect(x: 0, y: 100, width: 390, height: 44), zIndex: 2),
            LayoutElement(kind: .cell, section: 0, item: 0, frame: Rect(x: 0, y: 44, width: 100, height: 2500)),
        ]
        for (manifest, prefers, path) in [
            (Self.manifest, true, "/columns/0"), (Self.manifest, false, "/tiles/0"), (TileClientErrorTests.manifest, true, "/tiles/0"),
        ] {
            let (client, fetcher) = Self.client(tile: Self.tile, manifest: manifest, prefersColumns: prefers)
            #expect(try await client.visibleElements(viewport: viewport) == expected)
            #expect(fetcher.requests.map(\.url).last?.hasSuffix(path) == true, "\(fetcher.requests.map(\.url))")
        }
    }

    @Test("refusals: counts that disagree, an unknown kind, sums out of range, a gap without a lane, entries of the wrong type", arguments: [
        (tile.replacingOccurrences(of: #""count": 2"#, with: #""count": 3"#), "kind: expected 3 letters (count), found 2"),
        (tile.replacingOccurrences(of: #""kind": "hc""#, with: #""kind": "hx""#), "kind: letter 2 is not c, h, f or b"),
        (tile.replacingOccurrences(of: #""item": [1]"#, with: #""item": []"#), "item: expected 1 values, found 0"),
        (tile.replacingOccurrences(of: #""item": [1]"#, with: #""item": [2.5]"#), "item[0]: expected a whole number from"),
        (tile.replacingOccurrences(of: #""item": [1]"#, with: #""item": [-1]"#), "item[0]: the differences add up to -2, not an item number"),
        (tile.replacingOccurrences(of: #""section": [0,0]"#, with: #""section": [0,-1]"#), "section[1]: the differences add up to -1, not a section number"),
        (tile.replacingOccurrences(of: #""cross": [0,0]"#, with: #""cross": [0,null]"#), "cross[1]: expected a finite number"),
        (tile.replacingOccurrences(of: #""cross": [0,0]"#, with: #""cross": [0,8]"#), "scroll[1]: a gap, but no earlier element of the tile starts at 8"),
        (tile.replacingOccurrences(of: #""scroll": [[0],0]"#, with: #""scroll": [[0],"x"]"#), "scroll[1]: expected a gap (a finite number) or [position], found a string"),
        (tile.replacingOccurrences(of: #""scroll": [[0],0]"#, with: #""scroll": [[0],[1,2]]"#), "scroll[1]: expected [position] with one finite number"),
        (tile.replacingOccurrences(of: #", "scroll": [[0],0]"#, with: ""), "scroll: missing"),
        (tile.replacingOccurrences(of: #""scroll": [[0],0]}"#, with: #""scroll": [[0],0], "zIndex": [1,-2]}"#), "zIndex[1]: expected -1 to 2, found -2"),
        (tile.replacingOccurrences(of: #""scroll": [[0],0]}"#, with: #""scroll": [[0],0], "zIndex": [1,7]}"#), "zIndex[1]: expected a whole number from -2 to 2"),
    ])
    func refusals(body: String, message: String) async throws {
        let (client, _) = Self.client(tile: body)
        let error = try #require(await TileClientErrorTests.error(client))
        #expect(error.url.absoluteString == Self.columnURL)
        #expect(error.description.contains("not tile 0 of revision abc: " + message), "\(error)")
    }

    @Test("a manifest's columnTiles template is checked as its tiles template")
    func badTemplate() async throws {
        let manifest = Self.manifest.replacingOccurrences(of: "columns/{index}", with: "columns/")
        let (client, _) = Self.client(tile: Self.tile, manifest: manifest)
        let error = try #require(await TileClientErrorTests.error(client))
        #expect(error.description.contains("columnTiles: expected one {index} in the template"), "\(error)")
    }
}
