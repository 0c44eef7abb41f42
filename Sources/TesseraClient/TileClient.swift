import Foundation
import TesseraLayout

/// A client of a feed's tiles (the tile routes of TesseraHummingbird's "The HTTP API" article, or the same
/// files of `tessera export --tiles` on any static host): it reads the
/// manifest, fetches the tiles a viewport needs, keeps the most recently
/// used ones, prefetches the next in the scroll direction, and answers
/// viewports as the server's `/visible` does, pinned headers and footers
/// included.
///
/// ```swift
/// let client = TileClient(manifestURL: URL(string: "https://cdn.example.com/v1/feeds/home/layouts/390/tiles")!)
/// let visible = try await client.visibleElements(viewport: Rect(x: 0, y: 1200, width: 390, height: 844))
/// ```
///
/// It follows a new revision: a tile answered 404 (its revision is no
/// longer current) makes it revalidate the manifest and, when the
/// revision changed, drop the old revision's tiles and answer again from
/// the new one, once. ``refresh()`` does the same on request (a static
/// export keeps old revisions' files, so only a refresh sees a new one).
public actor TileClient {
    /// Limits and behaviour.
    public struct Configuration: Sendable, Hashable {
        /// The most decoded tiles kept (at least 1), and the most one
        /// viewport may need: a larger viewport is refused before any fetch.
        public var maximumCachedTiles: Int
        /// Whether a viewport answer fetches the next tile in the scroll
        /// direction in the background.
        public var prefetch: Bool
        /// The longest manifest body read, in bytes.
        public var maximumManifestBytes: Int
        /// The longest tile body read, in bytes (decoded from gzip).
        /// Decoding a tile holds a parse of its JSON for a moment: a small
        /// multiple of this.
        public var maximumTileBytes: Int
        /// Whether tiles are read as columns (the manifest's `columnTiles`,
        /// fewer bytes on the wire) when the manifest names them; as JSON
        /// objects (`tiles`) otherwise. The answers are the same.
        public var prefersColumnTiles: Bool

        /// 16 tiles, prefetching, manifests of 64 KiB and tiles of 8 MiB
        /// at most (the server's 50,000 elements a tile fit), column tiles
        /// when offered.
        public init(
            maximumCachedTiles: Int = 16, prefetch: Bool = true, maximumManifestBytes: Int = 64 << 10, maximumTileBytes: Int = 8 << 20,
            prefersColumnTiles: Bool = true
        ) {
            self.maximumCachedTiles = maximumCachedTiles
            self.prefetch = prefetch
            self.maximumManifestBytes = maximumManifestBytes
            self.maximumTileBytes = maximumTileBytes
            self.prefersColumnTiles = prefersColumnTiles
        }
    }

    /// The manifest's URL, as given.
    public nonisolated let manifestURL: URL
    /// The limits it was made with.
    public nonisolated let configuration: Configuration
    let fetcher: any TileFetching

    /// The manifest last read, nil before the first.
    public private(set) var manifest: RemoteManifest?
    var tiles: TileLRU
    var loading: [TileLRU.Key: Task<DecodedTile, any Error>] = [:]
    /// The scroll position of the last viewport, for the scroll direction.
    var lastScroll: Double?
    /// The prefetch under way, if any.
    var prefetching: Task<Void, Never>?

    /// A client of the manifest at `manifestURL`
    /// (`…/v1/feeds/{name}/layouts/{extent}/tiles`, with `direction=rtl`
    /// or `offset=…` in its query when wanted); nothing is read before
    /// the first viewport or ``refresh()``.
    public init(manifestURL: URL, configuration: Configuration = .init(), fetcher: any TileFetching = URLSessionTileFetcher()) {
        self.manifestURL = manifestURL
        self.configuration = configuration
        self.fetcher = fetcher
        tiles = TileLRU(capacity: configuration.maximumCachedTiles)
    }

    /// The elements visible in `viewport` (content coordinates, in the
    /// tiles' direction), as `/visible` answers them: pinned headers and
    /// footers moved and raised to zIndex 2, in the order of a viewport
    /// query.
    ///
    /// - Throws: ``TileClientError`` naming the URL that failed and why;
    ///   `viewportTooLarge` (naming the manifest) for a viewport that
    ///   needs more tiles than ``Configuration/maximumCachedTiles``.
    public func visibleElements(viewport: Rect) async throws -> [LayoutElement] {
        let current = try await currentManifest()
        let answer: [LayoutElement]
        do {
            answer = try await visibleElements(viewport: viewport, manifest: current)
        } catch let error as TileClientError where error.reason == .status(404) {
            // The revision may have moved on: follow it, and try once more.
            let fresh = try await refresh()
            guard fresh.revision != current.revision else { throw error }
            answer = try await visibleElements(viewport: viewport, manifest: fresh)
        }
        return answer
    }

    /// Revalidates the manifest (`If-None-Match` with its entity tag) and,
    /// when its revision changed, drops the old revision's tiles.
    ///
    /// - Returns: The current manifest.
    /// - Throws: ``TileClientError`` naming the manifest's URL and why.
    @discardableResult
    public func refresh() async throws -> RemoteManifest {
        let response = try await Self.get(
            manifestURL, ifNoneMatch: manifest?.etag, limit: configuration.maximumManifestBytes, expecting: [200, 304], fetcher: fetcher)
        if response.status == 304, let manifest { return manifest }
        guard response.status == 200 else { throw TileClientError(url: manifestURL, reason: .status(response.status)) }
        let fresh = try RemoteManifest(url: manifestURL, body: Array(response.body), etag: response.etag)
        if fresh.revision != manifest?.revision {
            tiles.keepOnly(revision: fresh.revision)
            for (key, task) in loading where key.revision != fresh.revision { task.cancel() }
            loading = loading.filter { $0.key.revision == fresh.revision }
        }
        manifest = fresh
        return fresh
    }

    /// How many decoded tiles are kept now.
    public var cachedTileCount: Int { tiles.count }

    /// Waits for the prefetch under way, if any (for tests and tools that
    /// count requests).
    public func waitForPrefetch() async {
        await prefetching?.value
    }

    func currentManifest() async throws -> RemoteManifest {
        if let manifest { return manifest }
        return try await refresh()
    }
}

/// Why a ``TileClient`` could not answer: the URL it read and what was
/// wrong with what came back.
public struct TileClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Hashable {
        /// No answer: the connection failed, timed out or was cancelled.
        case transport(String)
        /// An answer with a status other than the one expected (a tile's
        /// 404 once the client has followed the current revision and
        /// retried).
        case status(Int)
        /// A body longer than the configured limit (bytes).
        case bodyTooLarge(limit: Int)
        /// A body that is not JSON: where and why.
        case invalidJSON(String)
        /// JSON that is not a manifest or tile of the contract, or one
        /// whose numbers make no sense: the member and why.
        case invalidContent(String)
        /// A viewport that needs more tiles than
        /// ``TileClient/Configuration/maximumCachedTiles`` (the limit):
        /// nothing was fetched.
        case viewportTooLarge(tiles: Int, limit: Int)
    }

    /// The manifest's or the tile's URL.
    public var url: URL
    /// What was wrong.
    public var reason: Reason

    /// An error reading `url`.
    public init(url: URL, reason: Reason) {
        self.url = url
        self.reason = reason
    }

    public var description: String {
        let what: String = switch reason {
        case .transport(let message): "no answer: \(message)"
        case .status(let status): "the answer's status is \(status)"
        case .bodyTooLarge(let limit): "the body is longer than the limit of \(limit) bytes"
        case .invalidJSON(let message): "the body is not JSON: \(message)"
        case .invalidContent(let message): message
        case .viewportTooLarge(let tiles, let limit):
            "the viewport needs \(tiles) tiles, more than the \(limit) a call may hold (maximumCachedTiles); ask for a shorter viewport or allow more tiles"
        }
        return "\(url.absoluteString): \(what)"
    }
}
