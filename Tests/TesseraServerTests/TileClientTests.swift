import Foundation
import Testing
import TesseraClient
import TesseraLayout
import TesseraTestSupport

/// `TesseraClient` against a real `tessera-server` and a real nginx serving
/// the export: its answers are the server's `/visible`, its cache holds
/// its bound, it prefetches in the scroll direction and follows new revisions.
@Suite("client: tiles as /visible", .timeLimit(.minutes(10)))
struct TileClientTests {
    static func url(_ port: Int, _ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// `feed` in a new SQLite store, served by a real `tessera-server`
    /// (the fixture keeps the folder until it goes).
    static func serve(_ feed: TileClientFixture.Feed) async throws -> (ServerFixture, ServerProcessTests.Running) {
        let fixture = try await ServerFixture()
        let store = fixture.directory.appendingPathComponent("client.sqlite").path
        try TileClientFixture.precompute([feed], into: store, in: fixture.directory)
        return (fixture, try ServerProcessTests.Running(["--db", store, "--log-level", "warning"]))
    }

    /// The staggered feed served by a real `tessera-server`, a counted
    /// client of it, and the manifest it read first (the caller stops the server).
    struct Counted {
        let fixture: ServerFixture
        let server: ServerProcessTests.Running
        let client: TileClient
        let fetcher: CountingFetcher
        let manifest: RemoteManifest

        init(_ configuration: TileClient.Configuration) async throws {
            (fixture, server) = try await TileClientTests.serve(TileClientFixture.staggered)
            fetcher = CountingFetcher()
            client = TileClient(
                manifestURL: TileClientTests.url(server.port, TileClientFixture.staggered.manifestPath), configuration: configuration, fetcher: fetcher)
            manifest = try await client.refresh()
        }
    }

    @Test("random viewports per feed (staggered, pinned, horizontal, carousels), from column and JSON tiles: the client equals /visible, from the server (1,000 and 300 on SQLite, 500 and 150 on PostgreSQL) and from nginx (300 and 100)",
          arguments: ["sqlite", "postgres"])
    func equalsVisible(backend: String) async throws {
        let fixture = try await ServerFixture()
        let store = backend == "sqlite" ? fixture.directory.appendingPathComponent("client.sqlite").path : try PostgresTestServer.freshStoreURL()
        let feeds = TileClientFixture.feeds
        try TileClientFixture.precompute(feeds, into: store, in: fixture.directory)
        let directory = fixture.directory.appendingPathComponent("static").path
        try TileClientFixture.export(feeds, from: store, to: directory)
        let server = try ServerProcessTests.Running(["--db", store, "--log-level", "warning"])
        defer { _ = server.stop() }
        let nginx = try NginxServer(root: directory, in: fixture.directory.appendingPathComponent("nginx"))
        defer { nginx.stop() }
        var answers = TileClientFixture.VisibleAnswers()
        for (offset, feed) in feeds.enumerated() {
            for (source, port) in [("server", server.port), ("nginx", nginx.port)] {
                // Column tiles (the default, the manifest names them), then JSON objects on fewer viewports;
                // fewer from nginx, whose files are the server's tiles byte for byte (TileExportTests).
                let counts = source == "nginx" ? [(true, 300), (false, 100)] : backend == "sqlite" ? [(true, 1000), (false, 300)] : [(true, 500), (false, 150)]
                for (columns, count) in counts {
                    let fetcher = CountingFetcher()
                    let client = TileClient(
                        manifestURL: Self.url(port, feed.manifestPath), configuration: .init(maximumCachedTiles: 4, prefersColumnTiles: columns),
                        fetcher: fetcher)
                    let manifest = try await client.refresh()
                    #expect(manifest.tileCount >= 2, "\(feed.name): \(manifest.tileCount) tiles")
                    #expect(manifest.columnTemplate == "revisions/\(manifest.revision)/columns/{index}")
                    try await TileClientFixture.compare(
                        client, feed, serverPort: server.port, count: count, seed: UInt64(offset * 31 + 7),
                        source: "\(backend) \(source) \(columns ? "columns" : "objects")", answers: &answers)
                    let tileURLs = fetcher.requests.map(\.url).filter { !$0.hasSuffix("/tiles") }
                    #expect(!tileURLs.isEmpty && tileURLs.allSatisfy { $0.contains(columns ? "/columns/" : "/tiles/") }, "\(tileURLs.prefix(3))")
                }
            }
        }
    }

    @Test("right to left and scrolled carousels: the manifest URL's query reaches the tiles, and the answers are /visible's with it; right to left from the export's rtl/ files on nginx too")
    func variants() async throws {
        let fixture = try await ServerFixture()
        let store = fixture.directory.appendingPathComponent("client.sqlite").path
        let feeds = [TileClientFixture.pinned, TileClientFixture.horizontal, TileClientFixture.carousels]
        try TileClientFixture.precompute(feeds, into: store, in: fixture.directory)
        let directory = fixture.directory.appendingPathComponent("static").path
        try TileClientFixture.export(feeds, from: store, to: directory)
        let server = try ServerProcessTests.Running(["--db", store, "--log-level", "warning"])
        defer { _ = server.stop() }
        let nginx = try NginxServer(root: directory, in: fixture.directory.appendingPathComponent("nginx"))
        defer { nginx.stop() }
        var answers = TileClientFixture.VisibleAnswers()
        for (offset, feed) in feeds.enumerated() {
            for columns in [true, false] {
                let client = TileClient(
                    manifestURL: Self.url(nginx.port, feed.rtlExportPath), configuration: .init(maximumCachedTiles: 4, prefersColumnTiles: columns))
                try await TileClientFixture.compare(
                    client, feed, serverPort: server.port, count: 300, seed: UInt64(offset * 13 + 5), source: "nginx rtl/", query: "direction=rtl",
                    answers: &answers)
            }
            // The carousels' orthogonal sections are 1, 4, 7, …: two of them scrolled.
            let scrolled = feed.name == "carousels" ? ["offset=1:240", "offset=4:-30.5"] : []
            for query in [scrolled, ["direction=rtl"] + scrolled].map({ $0.joined(separator: "&") }) where !query.isEmpty {
                let fetcher = CountingFetcher()
                let client = TileClient(
                    manifestURL: Self.url(server.port, feed.manifestPath + "?" + query), configuration: .init(maximumCachedTiles: 4), fetcher: fetcher)
                try await TileClientFixture.compare(
                    client, feed, serverPort: server.port, count: 300, seed: UInt64(offset * 17 + 3), source: query, query: query, answers: &answers)
                #expect(fetcher.requests.allSatisfy { $0.url.hasSuffix("?" + query) && $0.status == 200 }, "\(query)")
            }
        }
    }

    @Test("a static export: the client keeps the revision it read until refresh(), then follows the new export")
    func exportRefresh() async throws {
        let fixture = try await ServerFixture()
        let store = fixture.directory.appendingPathComponent("client.sqlite").path
        var feed = TileClientFixture.pinned
        try TileClientFixture.precompute([feed], into: store, in: fixture.directory)
        let directory = fixture.directory.appendingPathComponent("static").path
        try TileClientFixture.export([feed], from: store, to: directory)
        let nginx = try NginxServer(root: directory, in: fixture.directory.appendingPathComponent("nginx"))
        defer { nginx.stop() }
        let client = TileClient(manifestURL: Self.url(nginx.port, feed.manifestPath), configuration: .init(prefetch: false))
        let first = try await client.refresh()
        let top = Rect(x: 0, y: 300, width: 390, height: 844)
        let before = try await client.visibleElements(viewport: top)
        // Fewer items in the first section, stored and exported again: the old revision's files stay.
        feed.json = feed.json.replacingOccurrences(of: #""count": 300"#, with: #""count": 240"#)
        try TileClientFixture.precompute([feed], into: store, in: fixture.directory)
        try TileClientFixture.export([feed], from: store, to: directory)
        let server = try ServerProcessTests.Running(["--db", store, "--log-level", "warning"])
        defer { _ = server.stop() }
        #expect(try await client.visibleElements(viewport: top) == before)
        #expect(await client.manifest?.revision == first.revision)
        let second = try await client.refresh()
        #expect(second.revision != first.revision && second.contentSize.height < first.contentSize.height)
        #expect(await client.cachedTileCount == 0)
        let end = Rect(x: 0, y: second.contentSize.height - 600, width: 390, height: 844)
        for viewport in [top, end] {
            #expect(try await client.visibleElements(viewport: viewport) == (try TileClientFixture.visible(port: server.port, feed, viewport)))
        }
    }

    @Test("the LRU keeps at most maximumCachedTiles decoded tiles: a kept tile costs no request, an evicted one is fetched again")
    func lruBound() async throws {
        let feed = TileClientFixture.staggered
        let counted = try await Counted(.init(maximumCachedTiles: 3, prefetch: false))
        defer { _ = counted.server.stop() }
        let (server, client, fetcher, manifest) = (counted.server, counted.client, counted.fetcher, counted.manifest)
        #expect(manifest.tileLength == 2048 && manifest.tileCount >= 10)
        /// A viewport inside tile `index`.
        func visit(_ index: Int) async throws {
            let viewport = Rect(x: 0, y: Double(index) * manifest.tileLength + 100, width: 390, height: 844)
            #expect(try await client.visibleElements(viewport: viewport) == (try TileClientFixture.visible(port: server.port, feed, viewport)))
            #expect(await client.cachedTileCount <= 3)
        }
        for index in 0..<10 { try await visit(index) }
        #expect(fetcher.tileIndices == Array(0..<10))
        #expect(await client.cachedTileCount == 3)
        // 7, 8 and 9 are kept: no request. 6 evicts the least recently used (9).
        for index in [9, 8, 7, 6, 9] { try await visit(index) }
        #expect(fetcher.tileIndices == Array(0..<10) + [6, 9])
        #expect(fetcher.manifestRequests == 1)
    }

    @Test("prefetch: the next tile in the scroll direction, forward and backward, none past either end")
    func prefetch() async throws {
        let feed = TileClientFixture.staggered
        let (fixture, server) = try await Self.serve(feed)
        defer { _ = server.stop() }
        _ = fixture
        let fetcher = CountingFetcher()
        let client = TileClient(manifestURL: Self.url(server.port, feed.manifestPath), configuration: .init(maximumCachedTiles: 16), fetcher: fetcher)
        let manifest = try await client.refresh()
        let length = manifest.tileLength
        func view(_ y: Double, _ height: Double = 600) async throws {
            let viewport = Rect(x: 0, y: y, width: 390, height: height)
            #expect(try await client.visibleElements(viewport: viewport) == (try TileClientFixture.visible(port: server.port, feed, viewport)))
            await client.waitForPrefetch()
        }
        try await view(2 * length + 10)
        #expect(fetcher.tileIndices == [2, 3])
        try await view(3 * length + 10)  // forward: 3 is kept, 4 comes
        #expect(fetcher.tileIndices == [2, 3, 4])
        try await view(length + 10)  // backward: 1, then 0
        #expect(fetcher.tileIndices == [2, 3, 4, 1, 0])
        try await view(10)  // backward at the first tile: nothing before it
        #expect(fetcher.tileIndices == [2, 3, 4, 1, 0])
        try await view(5 * length + 100, length)  // forward over 5 and 6: then 7
        #expect(fetcher.tileIndices.count == 8 && Set(fetcher.tileIndices.suffix(3)) == [5, 6, 7] && fetcher.tileIndices.last == 7)
        let last = manifest.tileCount - 1
        try await view(Double(last) * length + 10)  // at the last tile: nothing after it
        #expect(fetcher.tileIndices.suffix(1) == [last] && fetcher.tileIndices.count == 9)
    }

    @Test("a new revision after an append and a PUT: a 404 tile rereads the manifest and answers from the new one; refresh revalidates (304)")
    func followsRevisions() async throws {
        let fixture = try await ServerFixture()
        let feed = TileClientFixture.Feed(name: "feed", json: ServerFixture.feed, extent: 390)
        let token = try fixture.file("token", "s3cret\n")
        let server = try ServerProcessTests.Running(["--db", fixture.path, "--token-file", token, "--log-level", "warning"])
        defer { _ = server.stop() }
        let fetcher = CountingFetcher()
        let client = TileClient(
            manifestURL: Self.url(server.port, feed.manifestPath), configuration: .init(maximumCachedTiles: 8, prefetch: false), fetcher: fetcher)
        let first = try await client.refresh()
        #expect(first.tileCount >= 3)
        let top = Rect(x: 0, y: 0, width: 390, height: 844)
        #expect(try await client.visibleElements(viewport: top) == (try TileClientFixture.visible(port: server.port, feed, top)))

        // An item appended to the last section: new frames, a new revision.
        let body = "{}\n"
        let post = try ServerProcessTests.exchange(port: server.port, "POST /v1/feeds/feed/sections/2/items HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Connection: close\r\nAuthorization: Bearer s3cret\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        #expect(post.hasPrefix("HTTP/1.1 200 "), "\(post)")
        let end = Rect(x: 0, y: first.contentSize.height - 500, width: 390, height: 844)
        let answered = try await client.visibleElements(viewport: end)
        #expect(answered == (try TileClientFixture.visible(port: server.port, feed, end)))
        let second = try #require(await client.manifest)
        #expect(second.revision != first.revision)
        #expect(fetcher.requests.contains { $0.status == 404 && $0.url.contains("/revisions/\(first.revision)/columns/") })
        #expect(fetcher.manifestRequests == 2)
        // The old revision's tiles are gone: the top is fetched again, from the new revision.
        let before = fetcher.requests.count
        #expect(try await client.visibleElements(viewport: top) == (try TileClientFixture.visible(port: server.port, feed, top)))
        #expect(fetcher.requests.dropFirst(before).map(\.url).allSatisfy { $0.contains("/revisions/\(second.revision)/columns/0") })
        #expect(fetcher.requests.count == before + 1)

        // Nothing changed: the manifest revalidates with 304.
        #expect(try await client.refresh() == second)
        #expect(fetcher.requests.last?.status == 304)
        // A PUT: refresh sees it, and drops every tile.
        let changed = ServerFixture.feed.replacingOccurrences(of: #""count": 50"#, with: #""count": 70"#)
        let put = try ServerProcessTests.exchange(port: server.port, "PUT /v1/feeds/feed HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Connection: close\r\nAuthorization: Bearer s3cret\r\nContent-Length: \(changed.utf8.count)\r\n\r\n\(changed)")
        #expect(put.hasPrefix("HTTP/1.1 200 "), "\(put)")
        let third = try await client.refresh()
        #expect(third.revision != second.revision && third.contentSize.height > second.contentSize.height)
        #expect(await client.cachedTileCount == 0)
        let bottom = Rect(x: 0, y: third.contentSize.height - 300, width: 390, height: 844)
        #expect(try await client.visibleElements(viewport: bottom) == (try TileClientFixture.visible(port: server.port, feed, bottom)))
    }
}
