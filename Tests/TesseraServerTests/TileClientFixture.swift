import Foundation
import Testing
import TesseraClient
import TesseraLayout
import TesseraTestSupport

/// The client module's tests' world: feeds stored by the CLI in SQLite or
/// PostgreSQL, a real `tessera-server` over them, the server's `/visible`
/// as the reference, and fetchers that count or make up answers.
enum TileClientFixture {
    /// A feed, the extent it is stored at, and the flag of that extent.
    struct Feed: Sendable {
        var name: String
        var json: String
        var extent: Double
        var axis: Axis { json.contains(#""axis": "horizontal""#) ? .horizontal : .vertical }
        var extentFlag: String { axis == .horizontal ? "--height" : "--width" }
        var manifestPath: String { "/v1/feeds/\(name)/layouts/\(JSONNumber(extent))/tiles" }
        /// The right-to-left manifest of an export.
        var rtlExportPath: String { "/v1/feeds/\(name)/layouts/\(JSONNumber(extent))/rtl/tiles" }
    }

    static let staggered = Feed(name: "staggered", json: #"""
        {"format": 1, "sections": [{"layout": {"kind": "staggered", "columns": 3, "itemSpacing": 4, "lineSpacing": 4},
          "items": {"count": 2000, "cycle": [{"aspectRatio": 0.75}, {"aspectRatio": 1.5}, {"aspectRatio": 1}, {"aspectRatio": 0.6}]}}]}
        """#, extent: 390)

    static let pinned = Feed(name: "pinned", json: ServerFixture.feed, extent: 390)

    static let horizontal = Feed(name: "shelf", json: #"""
        {"format": 1, "axis": "horizontal", "sectionSpacing": 16, "sections": [
          {"header": {"size": 32, "pinned": true}, "footer": {"size": 24, "pinned": true},
           "layout": {"kind": "staggered", "columns": 3, "itemSpacing": 4, "lineSpacing": 4},
           "items": {"count": 600, "cycle": [{"aspectRatio": 1}, {"aspectRatio": 1.6}, {"aspectRatio": 0.8}]}},
          {"header": {"size": 32, "pinned": true}, "layout": {"kind": "grid", "fraction": 2, "itemSpacing": 8, "lineSpacing": 8},
           "items": {"count": 100, "cycle": [{}]}}]}
        """#, extent: 844)

    /// Carousels between pinned sections, six times over.
    static let carousels = Feed(name: "carousels", json: {
        let group = #"""
            {"header": {"size": 44, "pinned": true}, "layout": {"kind": "grid", "fraction": 2, "aspectRatio": 1.5, "itemSpacing": 8, "lineSpacing": 8},
             "items": {"count": 12, "cycle": [{}]}},
            {"orthogonal": {"length": 180}, "header": {"size": 36}, "layout": {"kind": "grid", "aspectRatio": 0.75, "lineSpacing": 12},
             "insets": {"top": 8, "left": 16, "bottom": 8, "right": 16}, "items": {"count": 40, "cycle": [{}]}},
            {"header": {"size": 36, "pinned": true}, "footer": {"size": 24, "pinned": true}, "background": true,
             "layout": {"kind": "staggered", "columns": 2, "itemSpacing": 8, "lineSpacing": 8},
             "items": {"count": 60, "cycle": [{"length": 180}, {"length": 120}, {"length": 90}, {"length": 200, "columns": 2}]}}
            """#
        return #"{"format": 1, "sectionSpacing": 12, "sections": ["# + Array(repeating: group, count: 6).joined(separator: ",\n") + "]}"
    }(), extent: 390)

    static let feeds = [staggered, pinned, horizontal, carousels]

    /// Stores every feed with `tessera precompute` in `store` (a file or a postgres:// URL).
    static func precompute(_ feeds: [Feed], into store: String, in folder: URL) throws {
        for feed in feeds {
            let path = folder.appendingPathComponent(feed.name + ".json").path
            try feed.json.write(toFile: path, atomically: true, encoding: .utf8)
            let output = try Executable.run("tessera", ["precompute", path, "--db", store, "--name", feed.name, feed.extentFlag, JSONNumber(feed.extent)])
            #expect(output.status == 0, "\(feed.name): \(output.stderr)")
        }
    }

    /// Exports every feed's tiles with `tessera export --tiles` (and `.gz` files, and right to left) under `directory`.
    static func export(_ feeds: [Feed], from store: String, to directory: String) throws {
        for feed in feeds {
            let output = try Executable.run("tessera", [
                "export", "--db", store, "--name", feed.name, feed.extentFlag, JSONNumber(feed.extent), "--tiles", directory, "--gzip", "--rtl",
            ])
            #expect(output.status == 0, "\(feed.name): \(output.stderr)")
        }
    }

    /// The server's `/visible` for `viewport` (`query` after the rect:
    /// `direction=rtl`, `offset=…`), decoded by Foundation's decoder.
    static func visible(port: Int, _ feed: Feed, _ viewport: Rect, query: String = "") throws -> [LayoutElement] {
        let rect = [viewport.x, viewport.y, viewport.width, viewport.height].map(JSONNumber).joined(separator: ",")
        let path = "/v1/feeds/\(feed.name)/layouts/\(JSONNumber(feed.extent))/visible?rect=\(rect)" + (query.isEmpty ? "" : "&" + query)
        let response = try ServerProcessTests.get(port: port, path)
        let (head, body) = NginxServer.split(response)
        guard head.hasPrefix("HTTP/1.1 200") else { throw VisibleFailed(description: "\(rect): \(response)") }
        struct Answer: Decodable { var elements: [LayoutElement] }
        return try JSONDecoder().decode(Answer.self, from: Data(body.utf8)).elements
    }

    struct VisibleFailed: Error, CustomStringConvertible {
        var description: String
    }

    /// The server's `/visible` answers met so far, by feed, viewport and
    /// query: the sources a test compares walk the same viewports (one seed
    /// per feed), and the store does not change meanwhile.
    struct VisibleAnswers {
        private var answers: [String: [LayoutElement]] = [:]

        mutating func visible(port: Int, _ feed: Feed, _ viewport: Rect, query: String) throws -> [LayoutElement] {
            let key = "\(feed.name) \(viewport) \(query)"
            if let known = answers[key] { return known }
            let answer = try TileClientFixture.visible(port: port, feed, viewport, query: query)
            answers[key] = answer
            return answer
        }
    }

    /// A random viewport of a phone or tablet, mostly scrolling on from the
    /// last one (a fling now and then, a jump back), sometimes past either end.
    static func viewport(after last: Rect?, manifest: RemoteManifest, random: inout SeededRandom) -> Rect {
        let axis = manifest.axis
        let content = axis == .vertical ? manifest.contentSize.height : manifest.contentSize.width
        let length = random.quarter(200...1400)
        var scroll: Double
        if let last, !random.chance(0.1) {
            scroll = axis.localFrame(last).scroll + random.quarter(-300...(random.chance(0.2) ? 6000 : 900))
        } else {
            scroll = random.quarter(-400...(content + 200))
        }
        scroll = min(max(scroll, -600), content + 400)
        let cross = random.chance(0.7) ? 0 : random.quarter(-40...40)
        let crossLength = random.chance(0.7) ? manifest.extent : random.quarter(100...(manifest.extent + 80))
        return axis.screenRect(LocalFrame(cross: cross, scroll: scroll, crossLength: crossLength, scrollLength: length))
    }

    /// `count` viewports of `feed`: the client's answers against the
    /// server's `/visible` (with `query`), element for element, bit for bit.
    /// `answers` keeps the server's answers for the next source compared.
    static func compare(
        _ client: TileClient, _ feed: Feed, serverPort: Int, count: Int, seed: UInt64, source: String, query: String = "",
        answers: inout VisibleAnswers
    ) async throws {
        let manifest = try await client.refresh()
        var random = SeededRandom(seed: seed)
        var last: Rect?
        var mismatches = 0
        for round in 0..<count {
            let viewport = viewport(after: last, manifest: manifest, random: &random)
            last = viewport
            let answered = try await client.visibleElements(viewport: viewport)
            let expected = try answers.visible(port: serverPort, feed, viewport, query: query)
            if answered != expected {
                mismatches += 1
                if mismatches <= 3 {
                    Issue.record("\(source) \(feed.name) round \(round) viewport \(viewport): \(answered.count) elements, /visible has \(expected.count)")
                }
            }
        }
        #expect(mismatches == 0, "\(source) \(feed.name): \(mismatches) of \(count) viewports differ")
        #expect(await client.cachedTileCount <= client.configuration.maximumCachedTiles)
    }
}

/// A number as the CLI and the routes take it: 390, not 390.0.
func JSONNumber(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}

/// A fetcher that forwards to `URLSession` (or answers from `stub`) and
/// keeps every request and its status.
final class CountingFetcher: TileFetching, @unchecked Sendable {
    private let lock = NSLock()
    private var asked: [String] = []
    private var log: [(url: String, status: Int)] = []
    private let real = URLSessionTileFetcher()
    private let stub: (@Sendable (TileFetchRequest) -> TileFetchResponse?)?

    init(stub: (@Sendable (TileFetchRequest) -> TileFetchResponse?)? = nil) {
        self.stub = stub
    }

    func fetch(_ request: TileFetchRequest) async throws -> TileFetchResponse {
        lock.withLock { asked.append(request.url.absoluteString) }
        let response: TileFetchResponse
        if let stubbed = stub?(request) {
            response = stubbed
        } else {
            response = try await real.fetch(request)
        }
        lock.withLock { log.append((request.url.absoluteString, response.status)) }
        return response
    }

    /// Every answered request so far: its URL and status, in the order the answers came.
    var requests: [(url: String, status: Int)] { lock.withLock { log } }

    /// The tile indices asked for so far, in the order asked.
    var tileIndices: [Int] { lock.withLock { asked }.compactMap { $0.split(separator: "/").last.flatMap { Int($0) } } }

    /// How many times the manifest was asked for.
    var manifestRequests: Int { lock.withLock { asked }.filter { $0.hasSuffix("/tiles") }.count }
}
