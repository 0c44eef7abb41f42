import Foundation
import Testing
import TesseraClient
import TesseraGzip
import TesseraLayout

/// What the client refuses, and how it says so: a typed error naming the
/// URL and what was wrong, for made-up answers and for real oversized ones.
@Suite("client: refusals", .timeLimit(.minutes(2)))
struct TileClientErrorTests {
    static let manifestURL = URL(string: "http://tiles.test/v1/feeds/f/layouts/390/tiles")!
    static let tileURL = "http://tiles.test/v1/feeds/f/layouts/390/revisions/abc/tiles/0"

    static let manifest = #"""
        {"revision": "abc", "tileLength": 2048, "tileCount": 2, "contentSize": [390, 3000], "tiles": "revisions/abc/tiles/{index}", "axis": "vertical", "extent": 390}
        """#

    static let tile = #"""
        {"revision": "abc", "index": 0, "tileLength": 2048, "band": [0, 2048], "direction": "ltr", "axis": "vertical", "extent": 390, "contentSize": [390, 3000],
         "pinning": [{"section": 0, "start": 0, "end": 3000, "cells": [44, 3000], "scrollStartInset": 0, "header": {"kind": "header", "section": 0, "frame": [0, 0, 390, 44], "zIndex": 1}, "headerPinned": true, "footerPinned": false}],
         "elements": [{"kind": "header", "section": 0, "frame": [0, 0, 390, 44], "zIndex": 1}, {"kind": "cell", "section": 0, "item": 0, "frame": [0, 44, 100, 2500], "zIndex": 0}]}
        """#

    /// A client whose fetcher answers the manifest and tiles from the closures.
    static func client(
        manifest: @escaping @Sendable () -> TileFetchResponse = { TileFetchResponse(status: 200, body: Data(Self.manifest.utf8), etag: "\"abc\"") },
        tile: @escaping @Sendable (String) -> TileFetchResponse = { _ in TileFetchResponse(status: 200, body: Data(Self.tile.utf8)) },
        configuration: TileClient.Configuration = .init(prefetch: false)
    ) -> (TileClient, CountingFetcher) {
        let fetcher = CountingFetcher { request in
            request.url == manifestURL ? manifest() : tile(request.url.absoluteString)
        }
        return (TileClient(manifestURL: manifestURL, configuration: configuration, fetcher: fetcher), fetcher)
    }

    static func error(_ client: TileClient, viewport: Rect = Rect(x: 0, y: 100, width: 390, height: 844)) async -> TileClientError? {
        do {
            _ = try await client.visibleElements(viewport: viewport)
            return nil
        } catch {
            return error as? TileClientError
        }
    }

    @Test("a well-formed tile answers with its header pinned")
    func wellFormed() async throws {
        let (client, _) = Self.client()
        let visible = try await client.visibleElements(viewport: Rect(x: 0, y: 100, width: 390, height: 844))
        #expect(visible == [
            LayoutElement(kind: .header, section: 0, frame: Rect(x: 0, y: 100, width: 390, height: 44), zIndex: 2),
            LayoutElement(kind: .cell, section: 0, item: 0, frame: Rect(x: 0, y: 44, width: 100, height: 2500)),
        ])
    }

    @Test("manifests: a status, not JSON, too long, numbers that do not agree, a bad template or revision", arguments: [
        (404, "nope", "the answer's status is 404"),
        (200, "{\"revision\": ", "the body is not JSON: line 1, column 14"),
        (200, "HUGE", "longer than the limit of 65536 bytes"),
        (200, manifest.replacingOccurrences(of: "\"tileCount\": 2", with: "\"tileCount\": 2000000"), "tileCount: 2000000 tiles of 2048 do not cut a content length of 3000"),
        (200, manifest.replacingOccurrences(of: "\"tileLength\": 2048", with: "\"tileLength\": -1"), "tileLength: must be above 0"),
        (200, manifest.replacingOccurrences(of: "\"tileCount\": 2", with: "\"tileCount\": 1.5"), "tileCount: expected a whole number"),
        (200, manifest.replacingOccurrences(of: "{index}", with: "x"), "tiles: expected one {index} in the template"),
        (200, manifest.replacingOccurrences(of: "\"revision\": \"abc\"", with: "\"revision\": \"../x\""), "revision: expected letters"),
        (200, manifest.replacingOccurrences(of: "\"axis\": \"vertical\", ", with: ""), "axis: missing"),
        (200, "[1, 2]", "expected an object, found an array"),
    ])
    func badManifests(status: Int, body: String, message: String) async throws {
        let body = body == "HUGE" ? String(repeating: " ", count: 70_000) : body
        let (client, fetcher) = Self.client(manifest: { TileFetchResponse(status: status, body: Data(body.utf8)) })
        let error = try #require(await Self.error(client))
        #expect(error.url == Self.manifestURL)
        #expect(error.description.hasPrefix(Self.manifestURL.absoluteString + ": "), "\(error)")
        #expect(error.description.contains(message), "\(error)")
        #expect(fetcher.tileIndices.isEmpty)
    }

    @Test("tiles: not JSON, too long, another revision or index, a bad element, naming the tile's URL", arguments: [
        ("{\"revision\"", "the body is not JSON"),
        ("DEEP", "the body is not JSON: line 1, column 513"),
        (tile.replacingOccurrences(of: "\"revision\": \"abc\"", with: "\"revision\": \"abd\""), "revision: differs from the manifest's revision abc"),
        (tile.replacingOccurrences(of: "\"index\": 0", with: "\"index\": 1"), "index: expected tile 0"),
        (tile.replacingOccurrences(of: "\"kind\": \"cell\"", with: "\"kind\": \"cellx\""), "elements[1].kind: expected \"cell\""),
        (tile.replacingOccurrences(of: "[0, 44, 100, 2500]", with: "[0, 44, 100]"), "elements[1].frame: expected 4 finite numbers"),
        (tile.replacingOccurrences(of: "\"item\": 0", with: "\"item\": -3"), "elements[1].item: expected a whole number from 0"),
        (tile.replacingOccurrences(of: "\"headerPinned\": true", with: "\"headerPinned\": 1"), "pinning[0].headerPinned: expected true or false"),
        (tile.replacingOccurrences(of: "\"contentSize\": [390, 3000]", with: "\"contentSize\": [390, 3001]"), "contentSize: differs"),
    ])
    func badTiles(body: String, message: String) async throws {
        let body = body == "DEEP" ? String(repeating: "[", count: 2000) : body
        let (client, _) = Self.client(tile: { _ in TileFetchResponse(status: 200, body: Data(body.utf8)) })
        let error = try #require(await Self.error(client))
        #expect(error.url.absoluteString == Self.tileURL)
        #expect(error.description.contains(message), "\(error)")
    }

    @Test("a tile longer than maximumTileBytes is refused, whatever the fetcher returned")
    func oversizedTile() async throws {
        let (client, _) = Self.client(
            tile: { _ in TileFetchResponse(status: 200, body: Data(count: 5000)) }, configuration: .init(prefetch: false, maximumTileBytes: 4096))
        let error = try #require(await Self.error(client))
        #expect(error.url.absoluteString == Self.tileURL && error.reason == .bodyTooLarge(limit: 4096))
    }

    @Test("a tile that stays 404 under an unchanged manifest: the manifest is reread once and, its revision the same, the 404 is the answer")
    func stale404() async throws {
        let (client, fetcher) = Self.client(tile: { _ in TileFetchResponse(status: 404, body: Data("{}".utf8)) })
        let error = try #require(await Self.error(client))
        #expect(error.url.absoluteString == Self.tileURL && error.reason == .status(404))
        #expect(fetcher.manifestRequests == 2 && fetcher.tileIndices == [0])
    }

    @Test("a server error is its status; no server at all is a transport error naming the URL")
    func transport() async throws {
        let (client, _) = Self.client(tile: { _ in TileFetchResponse(status: 500, body: Data()) })
        let error = try #require(await Self.error(client))
        #expect(error.reason == .status(500))
        let unreachable = TileClient(manifestURL: URL(string: "http://127.0.0.1:1/v1/feeds/f/layouts/390/tiles")!)
        let refused = try #require(await Self.error(unreachable))
        guard case .transport = refused.reason else {
            Issue.record("\(refused)")
            return
        }
        #expect(refused.description.hasPrefix("http://127.0.0.1:1/v1/feeds/f/layouts/390/tiles: no answer: "))
    }

    @Test("URLSession reads at most the limit + 1 bytes of a real large body, plain or gzip (nginx), and the client refuses it")
    func boundedReads() async throws {
        let fixture = try await ServerFixture()
        let root = fixture.directory.appendingPathComponent("static")
        let tiles = root.appendingPathComponent("v1/feeds/f/layouts/390/revisions/abc/tiles")
        try FileManager.default.createDirectory(at: tiles, withIntermediateDirectories: true)
        try Data(Self.manifest.utf8).write(to: root.appendingPathComponent("v1/feeds/f/layouts/390/tiles"))
        // 20 MB of spaces: a valid JSON prefix of nothing, far past the limit.
        let huge = Data(repeating: UInt8(ascii: " "), count: 20 << 20)
        try huge.write(to: tiles.appendingPathComponent("0"))
        try Data(Gzip.compress(Array(huge)) ?? []).write(to: tiles.appendingPathComponent("0.gz"))
        let nginx = try NginxServer(root: root.path, in: fixture.directory.appendingPathComponent("nginx"))
        defer { nginx.stop() }
        let tileURL = TileClientTests.url(nginx.port, "/v1/feeds/f/layouts/390/revisions/abc/tiles/0")
        let read = try await URLSessionTileFetcher().fetch(TileFetchRequest(url: tileURL, maximumBodyBytes: 100_000))
        #expect(read.status == 200 && read.body.count == 100_001)
        let client = TileClient(
            manifestURL: TileClientTests.url(nginx.port, "/v1/feeds/f/layouts/390/tiles"),
            configuration: .init(prefetch: false, maximumTileBytes: 1 << 20))
        let error = try #require(await Self.error(client))
        #expect(error.url.absoluteString == tileURL.absoluteString && error.reason == .bodyTooLarge(limit: 1 << 20), "\(error)")
    }
}
