import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TesseraGzip
import TesseraLayout
import TesseraStore
import TesseraTiles

/// The tile routes (the HTTP API article): a manifest a CDN revalidates, immutable
/// tiles under revisioned URLs, strong ETags, gzip, and the refusals.
@Suite("server: tile routes")
struct TileRoutesTests {
    /// The manifest's JSON, read for its revision and count.
    struct Manifest: Decodable {
        var revision: String
        var tileLength: Double
        var tileCount: Int
        var contentSize: [Double]
        var tiles: String
        var columnTiles: String
    }

    static func manifest(_ response: TestResponse) throws -> Manifest {
        try JSONDecoder().decode(Manifest.self, from: Data(response.text.utf8))
    }

    @Test("the manifest: no-cache, a strong ETag, 304 on If-None-Match; tiles: immutable for a year, their own ETags and 304s")
    func cacheHeaders() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let answer = try await client.execute(uri: "/v1/feeds/feed/layouts/390/tiles", method: .get)
            #expect(answer.status == .ok && answer.headers[.contentType] == "application/json")
            #expect(answer.headers[.cacheControl] == "no-cache")
            let manifest = try Self.manifest(answer)
            #expect(answer.headers[.eTag] == "\"\(manifest.revision)-m2\"")
            #expect(manifest.tileLength == 2048 && manifest.tileCount >= 2)
            #expect(manifest.tiles == "revisions/\(manifest.revision)/tiles/{index}")
            let again = try await client.execute(uri: "/v1/feeds/feed/layouts/390/tiles", method: .get, headers: [.ifNoneMatch: "\"\(manifest.revision)-m2\""])
            #expect(again.status == .notModified && again.text.isEmpty)
            // An older server's manifest of the same revision (without columnTiles) is not this one.
            let older = try await client.execute(uri: "/v1/feeds/feed/layouts/390/tiles", method: .get, headers: [.ifNoneMatch: "\"\(manifest.revision)\""])
            #expect(older.status == .ok && older.text.contains("\"columnTiles\""))

            let uri = "/v1/feeds/feed/layouts/390/revisions/\(manifest.revision)/tiles/1"
            let tile = try await client.execute(uri: uri, method: .get)
            #expect(tile.status == .ok && tile.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(tile.headers[.eTag] == "\"\(manifest.revision)-1\"" && tile.headers[.vary] == "Accept-Encoding")
            #expect(tile.headers[.contentEncoding] == nil)
            let cached = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: "\"\(manifest.revision)-1\""])
            #expect(cached.status == .notModified && cached.headers[.cacheControl] == "public, max-age=31536000, immutable")
            // The body is the store's tile, written by the one tile writer.
            guard case .found(let stored, _) = try await fixture.store.tile(name: "feed", crossExtent: 390, revision: manifest.revision, index: 1) else {
                Issue.record("no tile")
                return
            }
            #expect(tile.text == String(decoding: TileJSON.tile(stored), as: UTF8.self))
            // Right to left: another representation, another tag, the template passes the direction on.
            let rtl = try await client.execute(uri: uri + "?direction=rtl", method: .get)
            #expect(rtl.status == .ok && rtl.headers[.eTag] != tile.headers[.eTag] && rtl.text.contains(#""direction": "rtl""#))
            let rtlManifest = try await client.execute(uri: "/v1/feeds/feed/layouts/390/tiles?direction=rtl", method: .get)
            #expect(try Self.manifest(rtlManifest).tiles == "revisions/\(manifest.revision)/tiles/{index}?direction=rtl")
            #expect(try Self.manifest(rtlManifest).columnTiles == "revisions/\(manifest.revision)/columns/{index}?direction=rtl")

            // The same tile as columns: its own immutable path and tag, the one column writer's bytes.
            #expect(manifest.columnTiles == "revisions/\(manifest.revision)/columns/{index}")
            let columnURI = "/v1/feeds/feed/layouts/390/revisions/\(manifest.revision)/columns/1"
            let columns = try await client.execute(uri: columnURI, method: .get)
            #expect(columns.status == .ok && columns.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(columns.headers[.eTag] == "\"\(manifest.revision)-c1\"" && columns.headers[.contentType] == "application/json")
            #expect(columns.text == String(decoding: TileJSON.columnTile(stored), as: UTF8.self))
            let columnsCached = try await client.execute(uri: columnURI, method: .get, headers: [.ifNoneMatch: "\"\(manifest.revision)-c1\""])
            #expect(columnsCached.status == .notModified)
            // The JSON tile's gzip body is cached first: the column tile's is its own.
            _ = try await client.execute(uri: uri, method: .get, headers: [.acceptEncoding: "gzip"])
            let columnsGzip = try await client.execute(uri: columnURI, method: .get, headers: [.acceptEncoding: "gzip"])
            #expect(columnsGzip.headers[.eTag] == "\"\(manifest.revision)-c1-gzip\"" && columnsGzip.headers[.contentEncoding] == "gzip")
            #expect(Gzip.decompress(Array(columnsGzip.body.readableBytesView)) == Array(columns.text.utf8))
            let staleColumns = try await client.execute(uri: "/v1/feeds/feed/layouts/390/revisions/0123456789abcdef/columns/1", method: .get)
            #expect(staleColumns.status == .notFound && staleColumns.headers[.cacheControl] == "no-store")
            let pastColumns = try await client.execute(uri: "/v1/feeds/feed/layouts/390/revisions/\(manifest.revision)/columns/\(manifest.tileCount)", method: .get)
            #expect(pastColumns.status == .notFound)
        }
    }

    @Test("gzip when Accept-Encoding allows it: Content-Encoding gzip, its own ETag, the same bytes once decompressed")
    func gzip() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let manifest = try Self.manifest(try await client.execute(uri: "/v1/feeds/feed/layouts/390/tiles", method: .get))
            let uri = "/v1/feeds/feed/layouts/390/revisions/\(manifest.revision)/tiles/0"
            let plain = try await client.execute(uri: uri, method: .get, headers: [.acceptEncoding: "br;q=1, gzip;q=0"])
            #expect(plain.headers[.contentEncoding] == nil)
            let compressed = try await client.execute(uri: uri, method: .get, headers: [.acceptEncoding: "gzip, deflate, br"])
            #expect(compressed.status == .ok && compressed.headers[.contentEncoding] == "gzip" && compressed.headers[.vary] == "Accept-Encoding")
            #expect(compressed.headers[.eTag] == "\"\(manifest.revision)-0-gzip\"")
            let bytes = Array(compressed.body.readableBytesView)
            #expect(bytes.count * 4 < plain.body.readableBytes)
            #expect(Gzip.decompress(bytes) == Array(plain.body.readableBytesView))
            // The second answer comes from the cache of compressed tiles: the same bytes.
            let again = try await client.execute(uri: uri, method: .get, headers: [.acceptEncoding: "gzip"])
            #expect(Array(again.body.readableBytesView) == bytes && again.headers[.eTag] == compressed.headers[.eTag])
            // The manifest compresses too.
            let manifestGzip = try await client.execute(uri: "/v1/feeds/feed/layouts/390/tiles", method: .get, headers: [.acceptEncoding: "x-gzip"])
            #expect(manifestGzip.headers[.contentEncoding] == "gzip" && manifestGzip.headers[.eTag] == "\"\(manifest.revision)-m2-gzip\"")
            let revalidated = try await client.execute(
                uri: uri, method: .get, headers: [.acceptEncoding: "gzip", .ifNoneMatch: "\"\(manifest.revision)-0-gzip\""])
            #expect(revalidated.status == .notModified)
        }
    }

    @Test("a tile of an old revision is 404 once a PUT changed the layout, naming the current one; bad indices are 400, past the last 404")
    func refusals() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application(ServerFixture.writable).test(.router) { client in
            let old = try Self.manifest(try await client.execute(uri: "/v1/feeds/feed/layouts/390/tiles", method: .get))
            for (index, status, detail) in [
                ("x", HTTPResponse.Status.badRequest, #"the tile number \"x\" is not a whole number of 0 or more"#),
                ("-1", .badRequest, #"the tile number \"-1\" is not a whole number of 0 or more"#),
                ("1.5", .badRequest, "is not a whole number"),
                ("\(old.tileCount)", .notFound, "has \(old.tileCount) tiles (0 to \(old.tileCount - 1)), no tile \(old.tileCount)"),
            ] {
                let answer = try await client.execute(uri: "/v1/feeds/feed/layouts/390/revisions/\(old.revision)/tiles/\(index)", method: .get)
                #expect(answer.status == status && answer.headers[.contentType] == "application/problem+json")
                #expect(answer.text.contains(detail), "\(index): \(answer.text)")
            }
            let changed = ServerFixture.feed.replacingOccurrences(of: #""count": 50"#, with: #""count": 51"#)
            let put = try await client.execute(uri: "/v1/feeds/feed", method: .put, headers: ServerFixture.authorized, body: ByteBuffer(string: changed))
            #expect(put.status == .ok)
            let current = try Self.manifest(try await client.execute(uri: "/v1/feeds/feed/layouts/390/tiles", method: .get))
            #expect(current.revision != old.revision)
            let gone = try await client.execute(uri: "/v1/feeds/feed/layouts/390/revisions/\(old.revision)/tiles/0", method: .get)
            #expect(gone.status == .notFound && gone.headers[.cacheControl] == "no-store")
            #expect(gone.text.contains("is not current; the current revision is \\\"\(current.revision)\\\""), "\(gone.text)")
            let fresh = try await client.execute(uri: "/v1/feeds/feed/layouts/390/revisions/\(current.revision)/tiles/0", method: .get)
            #expect(fresh.status == .ok)
        }
    }

    @Test("a tile body kept by the server answers only while its revision is current, and equals the tile cut anew", arguments: [64 << 20, 0])
    func keptBodies(tileCacheBytes: Int) async throws {
        let fixture = try await ServerFixture()
        let paths = ["tiles/0", "tiles/1", "columns/0"]
        let encodings: [HTTPFields] = [[:], [.acceptEncoding: "gzip"]]
        // Cut anew by an application that has kept nothing yet.
        func fresh(_ revision: String) async throws -> [[UInt8]] {
            try await fixture.application().test(.router) { client in
                var bodies: [[UInt8]] = []
                for path in paths {
                    let answer = try await client.execute(uri: "/v1/feeds/feed/layouts/390/revisions/\(revision)/\(path)", method: .get)
                    #expect(answer.status == .ok)
                    bodies.append(Array(answer.body.readableBytesView))
                }
                return bodies
            }
        }
        let original = try Self.manifest(try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/v1/feeds/feed/layouts/390/tiles", method: .get)
        })
        let expected = try await fresh(original.revision)
        var configuration = ServerFixture.writable
        configuration.tileCacheBytes = tileCacheBytes
        try await fixture.application(configuration).test(.router) { client in
            func get(_ revision: String, _ path: String, _ headers: HTTPFields) async throws -> TestResponse {
                try await client.execute(uri: "/v1/feeds/feed/layouts/390/revisions/\(revision)/\(path)", method: .get, headers: headers)
            }
            // Twice each: cut and kept, then answered from what was kept.
            for _ in 0..<2 {
                for (path, body) in zip(paths, expected) {
                    let plain = try await get(original.revision, path, [:])
                    #expect(Array(plain.body.readableBytesView) == body)
                    let gzip = try await get(original.revision, path, [.acceptEncoding: "gzip"])
                    #expect(gzip.headers[.contentEncoding] == "gzip" && Gzip.decompress(Array(gzip.body.readableBytesView)) == body)
                }
            }
            func put(_ text: String) async throws {
                let answer = try await client.execute(uri: "/v1/feeds/feed", method: .put, headers: ServerFixture.authorized, body: ByteBuffer(string: text))
                #expect(answer.status == .ok)
            }
            try await put(ServerFixture.feed.replacingOccurrences(of: #""count": 120"#, with: #""count": 90"#))
            let changed = try Self.manifest(try await client.execute(uri: "/v1/feeds/feed/layouts/390/tiles", method: .get))
            #expect(changed.revision != original.revision)
            for path in paths {
                for headers in encodings {
                    let gone = try await get(original.revision, path, headers)
                    #expect(gone.status == .notFound && gone.headers[.cacheControl] == "no-store", "\(path): \(gone.text)")
                }
            }
            // The same frames again: the same revision, and its kept bodies are right.
            try await put(ServerFixture.feed)
            let back = try Self.manifest(try await client.execute(uri: "/v1/feeds/feed/layouts/390/tiles", method: .get))
            #expect(back.revision == original.revision)
            for (path, body) in zip(paths, expected) {
                let kept = try await get(back.revision, path, [:])
                #expect(Array(kept.body.readableBytesView) == body)
            }
        }
        let cutAgain = try await fresh(original.revision)
        #expect(cutAgain == expected)
        // Each fresh application cut its 3 tiles; the first pass cut 6 (3
        // plain, 3 gzip), the second and the return answered from kept bodies.
        let kept = tileCacheBytes > 0 ? 9 : 0
        #expect(fixture.metricsText.contains("tessera_tiles_answered_total{body=\"kept\"} \(kept)\n"), "\(fixture.metricsText)")
        #expect(fixture.metricsText.contains("tessera_tiles_answered_total{body=\"cut\"} \(21 - kept)\n"), "\(fixture.metricsText)")
    }

    @Test("a missing layout is computed as for /visible, within --compute-extents")
    func compute() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let computed = try await client.execute(uri: "/v1/feeds/feed/layouts/412/tiles", method: .get)
            #expect(computed.status == .ok)
            let refused = try await client.execute(uri: "/v1/feeds/feed/layouts/5000/tiles", method: .get)
            #expect(refused.status == .notFound && refused.text.contains("compute"))
        }
    }
}
