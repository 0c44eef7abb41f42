import Hummingbird
import Metrics
import Prometheus
import TesseraHummingbird
import TesseraStore

/// The server's router: the contract's routes, `/metrics` in Prometheus'
/// text format, the viewer at `/viewer/` when asked, and problem answers
/// for paths that match no route.
package enum ServerRouter {
    /// The router of `tessera-server` over `store`, its metrics in `registry`.
    package static func make(
        store: LayoutStore, configuration: TesseraServiceConfiguration, registry: PrometheusCollectorRegistry, viewer: Bool = false
    ) -> Router<BasicRequestContext> {
        make(routes: routes(store: store, configuration: configuration, registry: registry), registry: registry, viewer: viewer)
    }

    /// The routes of `tessera-server` over `store`, their metrics in `registry`.
    package static func routes(
        store: LayoutStore, configuration: TesseraServiceConfiguration, registry: PrometheusCollectorRegistry
    ) -> TesseraRoutes<BasicRequestContext> {
        TesseraRoutes(store: store, configuration: configuration, metricsFactory: PrometheusMetricsFactory(registry: registry))
    }

    /// The router of `tessera-server` around `routes`, with the viewer when `viewer` is true.
    package static func make(
        routes: TesseraRoutes<BasicRequestContext>, registry: PrometheusCollectorRegistry, viewer: Bool = false
    ) -> Router<BasicRequestContext> {
        let factory = PrometheusMetricsFactory(registry: registry)
        let router = Router(context: BasicRequestContext.self)
        routes.register(on: router)
        let storeBytes = Gauge(label: "tessera_store_bytes", factory: factory)
        let cache = CacheMetrics(factory: factory)
        routes.register(on: router, "/metrics", get: { _, _ in
            storeBytes.record(await routes.store.fileBytes)
            cache.record(routes.store.cacheStatistics)
            var text: [UInt8] = []
            registry.emit(into: &text)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: text))
            )
        })
        if viewer { registerViewer(on: router, routes: routes) }
        // Added last, so that it wraps only the answer to paths no route matches.
        router.add(middleware: routes.observer)
        return router
    }
}
