import Foundation

/// How a ``TileClient`` reads its manifest and tiles: one GET a call.
/// ``URLSessionTileFetcher`` is the one to use; another conformance can
/// count requests, add authentication or read from somewhere else.
public protocol TileFetching: Sendable {
    /// GETs `request.url`, with `If-None-Match` when `request.ifNoneMatch`
    /// is set. Reads at most `request.maximumBodyBytes + 1` bytes of the
    /// (decoded) body and stops there: the client refuses a body longer
    /// than the limit, and a conformance must not hold more of it.
    ///
    /// - Throws: when no answer came (connection, timeout, cancellation);
    ///   an answer of any status is returned, not thrown.
    func fetch(_ request: TileFetchRequest) async throws -> TileFetchResponse
}

/// One GET of a ``TileFetching``.
public struct TileFetchRequest: Sendable, Hashable {
    /// The manifest's or a tile's URL.
    public var url: URL
    /// An entity tag to revalidate: the request's `If-None-Match`.
    public var ifNoneMatch: String?
    /// The longest body the client accepts (after `Content-Encoding` is undone).
    public var maximumBodyBytes: Int

    /// A GET of `url`.
    public init(url: URL, ifNoneMatch: String? = nil, maximumBodyBytes: Int) {
        self.url = url
        self.ifNoneMatch = ifNoneMatch
        self.maximumBodyBytes = maximumBodyBytes
    }
}

/// What a ``TileFetching`` read.
public struct TileFetchResponse: Sendable, Hashable {
    /// The HTTP status (200 for a source without statuses, such as a file).
    public var status: Int
    /// The body, at most the request's `maximumBodyBytes + 1` bytes.
    public var body: Data
    /// The answer's `ETag`, as sent (quotes included).
    public var etag: String?

    /// An answer.
    public init(status: Int, body: Data, etag: String? = nil) {
        self.status = status
        self.body = body
        self.etag = etag
    }
}
