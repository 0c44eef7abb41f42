import ArgumentParser
import Foundation
import Hummingbird
import Locking
import Logging
import NIOEmbedded
import Prometheus
import TesseraHummingbird
import TesseraLayout
import TesseraServerSupport
import TesseraStore

/// `tessera-bench routes`: what the server's own code costs per
/// request, route by route, with no sockets: each request goes through
/// the router the server builds (its observer, metrics and log line
/// included) and is timed from the request to its response. What the load
/// test measures beyond this is NIO, HTTP parsing and the kernel.
struct RouteBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routes",
        abstract: "Time requests through the server's router in process, without sockets (median and p99 per route).",
        discussion: "Log lines go to standard error at --log-level, as the server writes them; redirect it as a server's would be."
    )

    @OptionGroup var stored: StoredLayoutOptions

    @Option(help: "How many requests per route, each timed.")
    var runs = 50_000

    @Option(help: "Only this route: health, visible or errors.")
    var only: String?

    @Option(help: "The level of the request log (info writes one line per request).")
    var logLevel = "info"

    func validate() throws {
        _ = try ServerOptions.logLevel(logLevel)
        if let only, !Self.routes.contains(only) {
            throw ValidationError("--only: unknown route '\(only)' (\(Self.routes.joined(separator: ", ")))")
        }
    }

    private static let routes = ["health", "visible", "errors"]

    func run() async throws {
        var logger = Logger(label: "tessera-server")
        logger.logLevel = try ServerOptions.logLevel(logLevel)
        let store = try await ServerOptions.openStore(stored.db)
        let layout = try await store.layout(name: stored.name, crossExtent: stored.extent).layout
        let router = ServerRouter.make(store: store, configuration: .init(computesMissingLayouts: false), registry: PrometheusCollectorRegistry())
        let responder = router.buildResponder()
        let channel = EmbeddedChannel()
        let extentText = JSONWriter.format(stored.extent)
        var generator = SystemRandomNumberGenerator()
        let viewports = (0..<1024).map { _ in
            let offset = Int.random(in: 0...max(0, Int(layout.contentLength) - 844), using: &generator)
            let rect = layout.axis == .vertical ? "0,\(offset),\(extentText),844" : "\(offset),0,844,\(extentText)"
            return "/v1/feeds/\(stored.name)/layouts/\(extentText)/visible?rect=\(rect)"
        }
        let errors = [
            "/v1/feeds/no-such-feed/layouts/\(extentText)/visible?rect=0,0,390,844",
            "/v1/feeds/\(stored.name)/layouts/abc/visible?rect=0,0,390,844",
            "/v1/feeds/\(stored.name)/layouts/\(extentText)/visible?rect=0,0,-1,844",
        ]
        let routes = zip(Self.routes, [["/v1/health"], viewports, errors]).filter { only == nil || $0.0 == only }
        print("requests through the router, \(runs) per route in 5 rounds (median, p99, bytes per answer):")
        var samples = routes.map { _ in Samples() }
        var bytes = routes.map { _ in 0 }
        for round in 0..<5 {
            for (index, (_, paths)) in routes.enumerated() {
                for run in round * runs / 5..<(round + 1) * runs / 5 {
                    let request = Request(
                        head: HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1", path: paths[run % paths.count]),
                        body: RequestBody(buffer: ByteBuffer())
                    )
                    let context = BasicRequestContext(source: ApplicationRequestContextSource(channel: channel, logger: logger))
                    let started = Clock.monotonic()
                    let response = try await responder.respond(to: request, context: context)
                    samples[index].add((Clock.monotonic() - started) * 1e6)
                    bytes[index] &+= response.body.contentLength ?? 0
                }
            }
        }
        for (index, (label, _)) in routes.enumerated() {
            print(String(format: "  %@: %.2f µs, %.2f µs, %d", label, samples[index].median, samples[index].percentile(0.99), bytes[index] / runs))
        }
    }
}
