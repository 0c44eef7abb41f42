import Hummingbird
import Logging
import Metrics
import Locking
import TesseraStore

/// The service's metrics through swift-metrics: requests counted and timed
/// by route, method and status, layouts computed by reads, and tiles
/// answered with a kept body or cut anew.
package final class TesseraMetrics: Sendable {
    private let factory: any MetricsFactory
    private let computed: Counter
    private let tilesKept: Counter
    private let tilesCut: Counter
    private let perRoute = Locked<[Key: (Counter, Timer)]>([:])

    private struct Key: Hashable {
        var route: String
        var method: HTTPRequest.Method
        var status: Int
    }

    package init(factory: any MetricsFactory) {
        self.factory = factory
        computed = Counter(label: "tessera_layouts_computed_total", factory: factory)
        tilesKept = Counter(label: "tessera_tiles_answered_total", dimensions: [("body", "kept")], factory: factory)
        tilesCut = Counter(label: "tessera_tiles_answered_total", dimensions: [("body", "cut")], factory: factory)
    }

    /// One answered request.
    package func request(route: String, method: HTTPRequest.Method, status: Int, nanoseconds: Int64) {
        let key = Key(route: route, method: method, status: status)
        let (counter, timer) = perRoute.withLock { table in
            if let found = table[key] { return found }
            let dimensions = [("route", route), ("method", method.rawValue), ("status", String(status))]
            let made = (
                Counter(label: "tessera_http_requests_total", dimensions: dimensions, factory: factory),
                Timer(label: "tessera_http_request_duration_seconds", dimensions: dimensions, preferredDisplayUnit: .seconds, factory: factory)
            )
            table[key] = made
            return made
        }
        counter.increment()
        timer.recordNanoseconds(nanoseconds)
    }

    /// A layout that a read computed.
    package func layoutComputed() {
        computed.increment()
    }

    /// A tile answered with its kept body (`kept`) or cut and written anew.
    package func tileAnswered(kept: Bool) {
        (kept ? tilesKept : tilesCut).increment()
    }
}

/// Around every route: turns what a handler throws into its problem
/// answer, adds the CORS headers, counts and times the request, and logs
/// it in one line (method, path, status, microseconds; `error` for 5xx).
package struct TesseraRequestObserver<Context: RequestContext>: RouterMiddleware {
    let metrics: TesseraMetrics
    let crossOriginAccess: CrossOriginAccess

    package init(metrics: TesseraMetrics, crossOriginAccess: CrossOriginAccess = .off) {
        self.metrics = metrics
        self.crossOriginAccess = crossOriginAccess
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = Clock.monotonic()
        var response: Response
        var failure: Problem?
        do {
            response = try await next(request, context)
        } catch {
            let problem = Problem.from(error)
            response = problem.response()
            failure = problem
        }
        crossOriginAccess.addHeaders(to: &response.headers, origin: request.headers[.origin])
        let nanoseconds = Int64((Clock.monotonic() - started) * 1e9)
        let status = response.status.code
        metrics.request(route: context.endpointPath ?? "NotFound", method: request.method, status: status, nanoseconds: nanoseconds)
        var metadata: Logger.Metadata = [
            "method": .string(request.method.rawValue), "path": .string(request.uri.description),
            "status": .stringConvertible(status), "us": .stringConvertible(nanoseconds / 1000),
        ]
        if let failure, status >= 500 {
            metadata["detail"] = .string(failure.detail)
            context.logger.error("request", metadata: metadata)
        } else {
            context.logger.info("request", metadata: metadata)
        }
        return response
    }
}
