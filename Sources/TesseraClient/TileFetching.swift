import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Locking

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

/// ``TileFetching`` over `URLSession`: no URL cache of its own (the client
/// keeps decoded tiles; a CDN or the system keeps bytes), gzip undone by
/// `URLSession`, and a body read only up to its limit, the transfer
/// cancelled past it.
public final class URLSessionTileFetcher: TileFetching {
    private let session: URLSession
    private let transfers: Transfers

    /// A fetcher whose requests time out after `timeout` seconds without data.
    public init(timeout: TimeInterval = 30) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = timeout
        transfers = Transfers()
        session = URLSession(configuration: configuration, delegate: transfers, delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }

    public func fetch(_ request: TileFetchRequest) async throws -> TileFetchResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = "GET"
        if let tag = request.ifNoneMatch { urlRequest.setValue(tag, forHTTPHeaderField: "If-None-Match") }
        let task = session.dataTask(with: urlRequest)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfers.start(task, limit: request.maximumBodyBytes, continuation: continuation)
            }
        } onCancel: {
            task.cancel()
        }
    }
}

/// The transfers under way, by task: each one's body so far and the
/// continuation its end resumes.
private final class Transfers: NSObject, URLSessionDataDelegate, Sendable {
    private struct Transfer {
        var limit: Int
        var body = Data()
        var continuation: CheckedContinuation<TileFetchResponse, any Error>
    }

    private let transfers = Locked<[Int: Transfer]>([:])

    func start(_ task: URLSessionDataTask, limit: Int, continuation: CheckedContinuation<TileFetchResponse, any Error>) {
        transfers.withLock { $0[task.taskIdentifier] = Transfer(limit: max(0, limit), continuation: continuation) }
        task.resume()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let full: Bool = transfers.withLock { transfers in
            guard var transfer = transfers[dataTask.taskIdentifier] else { return false }
            let room = transfer.limit + 1 - transfer.body.count
            transfer.body.append(data.prefix(max(0, room)))
            transfers[dataTask.taskIdentifier] = transfer
            guard data.count >= room else { return false }
            // Past the limit: the body read so far is all the client needs to refuse it.
            transfers[dataTask.taskIdentifier] = nil
            transfer.continuation.resume(returning: Self.response(dataTask.response, transfer.body))
            return true
        }
        if full { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            transfer.continuation.resume(throwing: error)
        } else {
            transfer.continuation.resume(returning: Self.response(task.response, transfer.body))
        }
    }

    private static func response(_ response: URLResponse?, _ body: Data) -> TileFetchResponse {
        guard let http = response as? HTTPURLResponse else { return TileFetchResponse(status: 200, body: body) }
        return TileFetchResponse(status: http.statusCode, body: body, etag: http.value(forHTTPHeaderField: "ETag"))
    }
}
