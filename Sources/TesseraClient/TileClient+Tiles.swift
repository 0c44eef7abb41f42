import Foundation
import TesseraLayout

/// Fetching, decoding and keeping tiles; prefetching the next one.
extension TileClient {
    /// The answer for `viewport` from the tiles of `manifest` that cover it.
    func visibleElements(viewport: Rect, manifest: RemoteManifest) async throws -> [LayoutElement] {
        let covering = TiledViewport.tiles(covering: viewport, axis: manifest.axis, tileLength: manifest.tileLength, tileCount: manifest.tileCount)
        // Every tile of one answer is held at once: no more than the cache keeps.
        guard covering.count <= tiles.capacity else {
            throw TileClientError(url: manifest.url, reason: .viewportTooLarge(tiles: covering.count, limit: tiles.capacity))
        }
        // Every missing tile is asked for before the first is awaited.
        let pending = covering.map { load($0, of: manifest) }
        var covered: [DecodedTile] = []
        for task in pending { covered.append(try await task.value) }
        let scroll = manifest.axis.localFrame(viewport).scroll
        let backward = lastScroll.map { scroll < $0 } ?? false
        lastScroll = scroll
        if configuration.prefetch {
            prefetch(backward ? covering.lowerBound - 1 : covering.upperBound + 1, of: manifest)
        }
        return TiledViewport.visibleElements(
            elements: covered.lazy.flatMap(\.elements), pinning: covered.lazy.flatMap(\.pinning), viewport: viewport,
            axis: manifest.axis, direction: covered.first?.direction ?? .leftToRight, contentSize: manifest.contentSize)
    }

    /// The tile from the cache, from its fetch under way, or a new fetch.
    private func load(_ index: Int, of manifest: RemoteManifest) -> Task<DecodedTile, any Error> {
        let key = TileLRU.Key(revision: manifest.revision, index: index)
        if let tile = tiles.tile(key) { return Task { tile } }
        if let task = loading[key] { return task }
        let task = Task { try await self.fetchTile(index, of: manifest) }
        loading[key] = task
        return task
    }

    private func fetchTile(_ index: Int, of manifest: RemoteManifest) async throws -> DecodedTile {
        let key = TileLRU.Key(revision: manifest.revision, index: index)
        defer { loading[key] = nil }
        let tile = try await Self.download(
            index, of: manifest, columns: configuration.prefersColumnTiles, fetcher: fetcher, limit: configuration.maximumTileBytes)
        // Kept only while its revision is the current one.
        if self.manifest?.revision == manifest.revision { tiles.insert(tile, for: key) }
        return tile
    }

    /// Fetches and decodes tile `index`, off the actor (a large tile's
    /// decoding holds no other viewport back): as columns when `columns`
    /// and the manifest names column tiles, else as JSON objects.
    private nonisolated static func download(
        _ index: Int, of manifest: RemoteManifest, columns: Bool, fetcher: any TileFetching, limit: Int
    ) async throws -> DecodedTile {
        let columnURL = columns ? manifest.columnTileURL(index) : nil
        guard let url = columnURL ?? manifest.tileURL(index) else {
            throw TileClientError(url: manifest.url, reason: .invalidContent("the template \(manifest.template) makes no URL for tile \(index)"))
        }
        let response = try await get(url, ifNoneMatch: nil, limit: limit, expecting: [200], fetcher: fetcher)
        return try DecodedTile(body: Array(response.body), index: index, manifest: manifest, url: url, columns: columnURL != nil)
    }

    /// Fetches tile `index` in the background unless it is kept, under
    /// way, or past either end; a failure is left for the read that needs
    /// the tile.
    private func prefetch(_ index: Int, of manifest: RemoteManifest) {
        let key = TileLRU.Key(revision: manifest.revision, index: index)
        guard index >= 0, index < manifest.tileCount, !tiles.contains(key), loading[key] == nil else { return }
        let task = load(index, of: manifest)
        prefetching = Task { _ = try? await task.value }
    }

    /// One GET through the fetcher, its body bounded by `limit`.
    nonisolated static func get(
        _ url: URL, ifNoneMatch: String?, limit: Int, expecting statuses: Set<Int>, fetcher: any TileFetching
    ) async throws -> TileFetchResponse {
        let response: TileFetchResponse
        do {
            response = try await fetcher.fetch(TileFetchRequest(url: url, ifNoneMatch: ifNoneMatch, maximumBodyBytes: limit))
        } catch let error as TileClientError {
            throw error
        } catch is CancellationError {
            throw TileClientError(url: url, reason: .transport("cancelled"))
        } catch {
            throw TileClientError(url: url, reason: .transport("\(error)"))
        }
        guard statuses.contains(response.status) else { throw TileClientError(url: url, reason: .status(response.status)) }
        guard response.body.count <= limit else { throw TileClientError(url: url, reason: .bodyTooLarge(limit: limit)) }
        return response
    }
}

/// Decoded tiles by revision and index, at most `capacity` of them: the
/// least recently used goes first.
struct TileLRU {
    struct Key: Hashable {
        var revision: String
        var index: Int
    }

    let capacity: Int
    private var tiles: [Key: DecodedTile] = [:]
    /// Least recently used first.
    private var order: [Key] = []

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    var count: Int { tiles.count }

    /// The tile, now the most recently used.
    mutating func tile(_ key: Key) -> DecodedTile? {
        guard let tile = tiles[key] else { return nil }
        touch(key)
        return tile
    }

    func contains(_ key: Key) -> Bool { tiles[key] != nil }

    mutating func insert(_ tile: DecodedTile, for key: Key) {
        if tiles.updateValue(tile, forKey: key) == nil {
            order.append(key)
        } else {
            touch(key)
        }
        while tiles.count > capacity, let oldest = order.first {
            order.removeFirst()
            tiles[oldest] = nil
        }
    }

    /// Drops every tile of another revision.
    mutating func keepOnly(revision: String) {
        order.removeAll { $0.revision != revision }
        tiles = tiles.filter { $0.key.revision == revision }
    }

    private mutating func touch(_ key: Key) {
        if let position = order.firstIndex(of: key) { order.remove(at: position) }
        order.append(key)
    }
}
