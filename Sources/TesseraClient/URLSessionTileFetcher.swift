import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// ``TileFetching`` over `URLSession`: no URL cache of its own (the client
/// keeps decoded tiles; a CDN or the system keeps bytes), gzip undone by
/// `URLSession`, and a body read only up to its limit, the transfer
/// cancelled past it.
public final class URLSessionTileFetcher: TileFetching, @unchecked Sendable {
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
private final class Transfers: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct Transfer {
        var limit: Int
        var body = Data()
        var continuation: CheckedContinuation<TileFetchResponse, any Error>
    }

    private let lock = NSLock()
    private var transfers: [Int: Transfer] = [:]

    func start(_ task: URLSessionDataTask, limit: Int, continuation: CheckedContinuation<TileFetchResponse, any Error>) {
        lock.withLock { transfers[task.taskIdentifier] = Transfer(limit: max(0, limit), continuation: continuation) }
        task.resume()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let full: Bool = lock.withLock {
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
        guard let transfer = lock.withLock({ transfers.removeValue(forKey: task.taskIdentifier) }) else { return }
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
