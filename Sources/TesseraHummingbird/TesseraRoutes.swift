import Hummingbird
import Metrics
import TesseraLayout
import TesseraStore
import TesseraStoreJSON
import TesseraTiles

/// The routes of the layout cache's HTTP API (<doc:HTTPAPI>),
/// to mount on a Hummingbird router over a store the app opened:
///
/// ```swift
/// let store = try LayoutStore(path: "feeds.sqlite")
/// let router = Router()
/// TesseraRoutes(store: store).register(on: router)          // or on router.group("layouts")
/// let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 8080)))
/// try await app.runService()
/// ```
///
/// Reads answer from the store's read path: an unknown spec, a bad extent
/// or a missing item never waits for a writer. A missing layout is computed
/// off Swift concurrency's cooperative threads, once for every request
/// asking, while other requests are served; only within the limits of the
/// ``TesseraServiceConfiguration``. Every answer, errors included, is
/// counted and timed through swift-metrics and logged in one line.
public struct TesseraRoutes<Context: RequestContext>: Sendable {
    /// The store the routes serve: in a handler, the one its request
    /// started with (a server may replace the store between requests).
    public var store: LayoutStore { ServedStore.lease?.served.store ?? slot.current.store }
    /// The store served, replaceable under running routes.
    package let slot: StoreSlot
    /// Limits and write access.
    public let configuration: TesseraServiceConfiguration
    let admission: ComputeAdmission
    let budget: AnswerBudget
    let metrics: TesseraMetrics
    /// Tiles' bodies by entity tag, plain and gzip (``TileBodies``), kept
    /// for the store served: a tile's bytes never change under its tag.
    var tileBodies: TileBodies { ServedStore.lease?.served.tileBodies ?? slot.current.tileBodies }

    /// Routes over `store`; metrics go to `metricsFactory`, or to the
    /// process's bootstrapped `MetricsSystem` when nil.
    public init(store: LayoutStore, configuration: TesseraServiceConfiguration = .init(), metricsFactory: (any MetricsFactory)? = nil) {
        self.slot = StoreSlot(store: store, tileCacheBytes: configuration.tileCacheBytes)
        self.configuration = configuration
        self.admission = ComputeAdmission(configuration: configuration)
        self.budget = AnswerBudget(limit: configuration.maximumElementsInFlight)
        self.metrics = TesseraMetrics(factory: metricsFactory ?? MetricsSystem.factory)
    }

    /// Adds the routes to `router` (a router or a group of one). A method a
    /// route does not take answers 405 with `Allow`; `HEAD` answers as `GET`
    /// without a body.
    public func register<Router: RouterMethods>(on router: Router) where Router.Context == Context {
        register(on: router, "/v1/health", get: { _, _ in JSONResponses.text("{\"status\": \"ok\"}") })
        register(on: router, "/v1/feeds", get: feeds)
        register(on: router, "/v1/feeds/{name}", get: feed, put: putFeed, delete: deleteFeed)
        register(on: router, "/v1/feeds/{name}/spec", get: storedSpec)
        register(on: router, "/v1/feeds/{name}/layouts/{extent}", delete: deleteLayout)
        register(on: router, "/v1/feeds/{name}/layouts/{extent}/visible", get: { request, context in
            try await answer(.viewport(try RequestValues.rect(request)), request: request, context: context)
        })
        register(on: router, "/v1/feeds/{name}/layouts/{extent}/rect", get: { request, context in
            try await answer(.rect(try RequestValues.rect(request)), request: request, context: context)
        })
        register(on: router, "/v1/feeds/{name}/layouts/{extent}/items/{section}/{item}", get: { request, context in
            let section = try RequestValues.index(context.parameters.get("section"), of: "section")
            let item = try RequestValues.index(context.parameters.get("item"), of: "item")
            return try await answer(.item(section: section, item: item), request: request, context: context)
        })
        register(on: router, "/v1/feeds/{name}/sections/{section}/items", post: appendItems, patch: resizeItems)
        register(on: router, "/v1/feeds/{name}/layouts/{extent}/tiles", get: tileManifest)
        register(on: router, "/v1/feeds/{name}/layouts/{extent}/revisions/{revision}/tiles/{index}", get: tile)
        register(on: router, "/v1/feeds/{name}/layouts/{extent}/revisions/{revision}/columns/{index}", get: columnTile)
    }

    package typealias Handler = @Sendable (Request, Context) async throws -> Response

    /// The middleware around every route: problem answers, CORS headers, metrics, one log line.
    package var observer: TesseraRequestObserver<Context> {
        TesseraRequestObserver(metrics: metrics, crossOriginAccess: configuration.crossOriginAccess)
    }

    /// One route with the handlers of the methods it takes, behind
    /// ``observer``: `HEAD` answers as `GET` without a body, `OPTIONS` with
    /// 204 and `Allow` (a CORS preflight as ``CrossOriginAccess`` says), any
    /// other method with 405 and `Allow`.
    package func register<Router: RouterMethods>(
        on router: Router, _ path: RouterPath,
        get: Handler? = nil, put: Handler? = nil, post: Handler? = nil, delete: Handler? = nil, patch: Handler? = nil
    ) where Router.Context == Context {
        let group = router.group().add(middleware: observer)
        var handlers: [(HTTPRequest.Method, Handler)] = []
        if let get {
            handlers.append((.get, get))
            handlers.append((.head, { request, context in
                let response = try await get(request, context)
                return Response(status: response.status, headers: response.headers)
            }))
        }
        if let put { handlers.append((.put, put)) }
        if let post { handlers.append((.post, post)) }
        if let delete { handlers.append((.delete, delete)) }
        if let patch { handlers.append((.patch, patch)) }
        let allow = (handlers.map(\.0.rawValue) + ["OPTIONS"]).joined(separator: ", ")
        let slot = slot
        for (method, handler) in handlers {
            group.on(path, method: method) { request, context in
                let lease = await slot.lease()
                return try await ServedStore.$lease.withValue(lease) { try await handler(request, context) }
            }
        }
        let taken = Set(handlers.map(\.0))
        let crossOriginAccess = configuration.crossOriginAccess
        let methods = handlers.map(\.0)
        for method in [HTTPRequest.Method.get, .head, .put, .post, .delete, .patch, .options] where !taken.contains(method) {
            group.on(path, method: method) { request, _ -> Response in
                if request.method == .options {
                    return try crossOriginAccess.preflight(request, methods: methods, allow: allow)
                        ?? Response(status: .noContent, headers: [.allow: allow])
                }
                throw Problem(.methodNotAllowed, "\(request.method.rawValue) is not a method of this route; it takes \(allow)", headers: [.allow: allow])
            }
        }
    }

    // MARK: Reads

    @Sendable private func feed(_ request: Request, _ context: Context) async throws -> Response {
        let name = try RequestValues.name(context.parameters.get("name"))
        guard let entry = try await store.listing(name: name) else { throw Problem(StoreError.noSuchSpec(name: name)) }
        return JSONResponses.text(StoreJSON.entry(entry))
    }

    /// The stored spec, as `tessera spec` prints it.
    @Sendable private func storedSpec(_ request: Request, _ context: Context) async throws -> Response {
        let name = try RequestValues.name(context.parameters.get("name"))
        guard let text = try await store.specJSON(named: name) else { throw Problem(StoreError.noSuchSpec(name: name)) }
        return JSONResponses.text(text)
    }

    /// A query of one layout, computing it first when it is missing or
    /// stale and the configuration allows; right to left with `direction=rtl`,
    /// carousels scrolled by `offset=SECTION:X`.
    private func answer(_ query: LayoutQuery, request: Request, context: Context) async throws -> Response {
        let name = try RequestValues.name(context.parameters.get("name"))
        let extent = try RequestValues.extent(context.parameters.get("extent"))
        let direction = try RequestValues.direction(request)
        let offsets = try RequestValues.offsets(request)
        // One store call: a missing or stale layout is computed when the
        // admission allows, in the same call, or its refusal is the answer;
        // a rect over more elements than allowed is refused (400) before
        // all of it is read.
        let result = try await store.query(
            query, name: name, crossExtent: extent, direction: direction, offsets: offsets,
            maximumElements: configuration.maximumAnswerElements, compute: computePolicy(name: name, extent: extent)
        )
        guard case .found(let answer, let computed) = result else {
            throw Problem(.internalServerError, "the layout of \(name.quotedForMessage) at \(JSONWriter.format(extent)) was neither answered nor refused")
        }
        if computed { metrics.layoutComputed() }
        guard answer.elements.count > JSONResponses.elementsPerPiece else { return JSONResponses.answer(answer, request: request) }
        guard let lease = budget.lease(answer.elements.count) else {
            throw Problem(.serviceUnavailable, "large answers being sent hold \(budget.inFlight) elements, and this one's \(answer.elements.count) "
                + "would pass the server's limit of \(budget.limit) elements in large answers being sent at once; try again shortly", headers: [.retryAfter: "1"])
        }
        return JSONResponses.answer(answer, request: request, holding: lease)
    }

    /// A missing or stale layout is computed when the admission allows
    /// (`--compute-extents`, `--max-extents`, `--no-compute`), or its
    /// refusal is the answer.
    func computePolicy(name: String, extent: Double) -> ComputePolicy {
        let admission = admission
        return ComputePolicy.admittedBy { missing in
            let ticket = try admission.admit(name: name, extent: extent, stored: missing.storedLayouts)
            return { ticket.release() }
        }
    }
}
