import Foundation
import Testing
import TesseraClient
import TesseraLayout

/// The client's bound per call: a viewport never needs more tiles than it keeps.
extension TileClientTests {
    @Test("a viewport that needs more tiles than maximumCachedTiles is refused, naming both counts, before any fetch; one that needs as many answers")
    func viewportCap() async throws {
        let feed = TileClientFixture.staggered
        let counted = try await Counted(.init(maximumCachedTiles: 2, prefetch: false))
        defer { _ = counted.server.stop() }
        let (server, client, fetcher, manifest) = (counted.server, counted.client, counted.fetcher, counted.manifest)
        let length = manifest.tileLength
        // [100, 100 + 2T) meets tiles 0, 1 and 2.
        let tall = Rect(x: 0, y: 100, width: 390, height: 2 * length)
        do {
            _ = try await client.visibleElements(viewport: tall)
            Issue.record("a viewport of three tiles was answered")
        } catch let error as TileClientError {
            #expect(error.reason == .viewportTooLarge(tiles: 3, limit: 2) && error.url == manifest.url)
            #expect(error.description.hasSuffix("the viewport needs 3 tiles, more than the 2 a call may hold (maximumCachedTiles); "
                + "ask for a shorter viewport or allow more tiles"), "\(error)")
        }
        #expect(fetcher.tileIndices.isEmpty)
        // [length, 3T) meets tiles 1 and 2 only: answered.
        let two = Rect(x: 0, y: length, width: 390, height: 2 * length)
        #expect(try await client.visibleElements(viewport: two) == (try TileClientFixture.visible(port: server.port, feed, two)))
        #expect(fetcher.tileIndices.sorted() == [1, 2])
    }
}
