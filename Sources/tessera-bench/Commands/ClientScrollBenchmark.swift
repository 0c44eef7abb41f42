import ArgumentParser
import Foundation
import Locking
import TesseraClient
import TesseraLayout

/// `tessera-bench client-scroll`: the Swift ``TileClient`` scrolling a
/// served layout, one viewport after the other, for the tiles and bytes it
/// fetches; the web client's benchmark (`Clients/JavaScript/bench`) makes
/// the same scroll in a browser and compares.
struct ClientScrollBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client-scroll",
        abstract: "Scroll a layout's tiles with the Swift TileClient; print the URLs it fetched and their bytes as JSON.",
        discussion: "Viewport i is (0, i·HEIGHT, WIDTH, HEIGHT); after each the client's prefetch is awaited, as the web client's benchmark does."
    )

    @Argument(help: "The tile manifest's URL (…/v1/feeds/NAME/layouts/EXTENT/tiles).")
    var manifest: String

    @Option(help: ArgumentHelp("The viewport; HEIGHT is also the length scrolled between viewports.", valueName: "WIDTHxHEIGHT"))
    var viewport = "390x844"

    @Option(help: "How many viewports, from the top.")
    var pages = 1000

    func validate() throws {
        guard URL(string: manifest)?.scheme?.hasPrefix("http") == true else { throw ValidationError("the manifest's URL must be http(s), got '\(manifest)'") }
        _ = try size()
        guard (1...1_000_000).contains(pages) else { throw ValidationError("--pages must be from 1 to 1000000, got \(pages)") }
    }

    /// `--viewport`'s width and height, both above 0.
    func size() throws -> (width: Double, height: Double) {
        let parts = viewport.split(separator: "x", omittingEmptySubsequences: false).map { Double($0) }
        guard parts.count == 2, let width = parts[0], let height = parts[1], width > 0, height > 0, width.isFinite, height.isFinite else {
            throw ValidationError("--viewport takes WIDTHxHEIGHT, two numbers above 0 such as 390x844, got '\(viewport)'")
        }
        return (width, height)
    }

    func run() async throws {
        guard let url = URL(string: manifest) else { return }
        let (width, height) = try size()
        let fetcher = CountingFetcher()
        let client = TileClient(manifestURL: url, fetcher: fetcher)
        var elements = 0
        for page in 0..<pages {
            elements += try await client.visibleElements(viewport: Rect(x: 0, y: Double(page) * height, width: width, height: height)).count
            await client.waitForPrefetch()
        }
        let fetched = fetcher.fetched.withLock { $0 }
        let urls = fetched.map { JSONWriter.quote($0.url) }.joined(separator: ", ")
        print(#"{"pages": \#(pages), "elements": \#(elements), "bodyBytes": \#(fetched.reduce(0) { $0 + $1.bytes }), "urls": [\#(urls)]}"#)
    }
}

/// URLSession's fetcher, recording each URL fetched and its body's bytes.
private final class CountingFetcher: TileFetching {
    let inner = URLSessionTileFetcher()
    let fetched = Locked<[(url: String, bytes: Int)]>([])

    func fetch(_ request: TileFetchRequest) async throws -> TileFetchResponse {
        let response = try await inner.fetch(request)
        fetched.withLock { $0.append((request.url.absoluteString, response.body.count)) }
        return response
    }
}
