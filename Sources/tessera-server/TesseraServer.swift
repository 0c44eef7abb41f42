import ArgumentParser
import Foundation
import Hummingbird
import Logging
import Prometheus
import ServiceLifecycle
import TesseraBackends
import TesseraHummingbird
import TesseraLayout
import TesseraServerSupport
import TesseraSQLite
import TesseraStore

/// `tessera-server`: the layout cache over HTTP (TesseraHummingbird's "The HTTP API" article).
@main
struct TesseraServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tessera-server",
        abstract: "Serve a Tessera store over HTTP.",
        version: TesseraVersion.current,
        subcommands: [Serve.self],
        defaultSubcommand: Serve.self
    )

    /// Logs and runs Swift concurrency's jobs as a mounted app does with
    /// the same call (``TesseraServerSettings/bootstrap()``), before anything else.
    static func main() async {
        LayoutStore.turnOffSQLiteMemoryStatistics()
        TesseraServerSettings.bootstrap()
        // SIGHUP reloads the store (`StoreReloader`); until it listens, it must not end the process.
        signal(SIGHUP, SIG_IGN)
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}

/// `tessera-server [serve] --db STORE …`: serving, the default.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a Tessera store over HTTP: visible items by viewport, rect queries, item lookups, and (with a token) writes.",
        discussion: """
        Prints 'listening on http://HOST:PORT' once it listens, and serves until SIGINT or SIGTERM, then finishes \
        the requests in flight and exits 0. Reads compute a missing layout only at whole-point extents within \
        --compute-extents, up to --max-extents per spec; writes need --token-file. No client can hold the server: \
        an answer holds at most --max-answer-elements and large ones together \
        --max-elements-in-flight, every wait on a client ends (--idle-timeout, --header-timeout, \
        --body-timeout), at most --max-connections are open, and --disk-reserve keeps room to delete specs on a full disk. \
        Web pages of other origins read the answers only when --cors-origin allows their origin. \
        A store on a read-only file system is served read-only (said on stderr at start); its writes answer 503. \
        On SIGHUP it serves the store file now at --db (one moved over it with mv; no other process may hold \
        either open): requests in flight finish on the old store, new ones wait for them and then read the new \
        one; a file that cannot be served is refused with one line on stderr, and the old store keeps serving.
        """
    )

    @Option(help: "The store, made by `tessera precompute` (it must exist): \(StoreArgument.kinds).")
    var db: String

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port (0 picks a free one).")
    var port = 8080

    @Option(help: "A file holding the bearer token that writes need; without it every write answers 403.")
    var tokenFile: String?

    @Option(help: "MIN-MAX: the whole-point extents a read may compute a missing layout at.")
    var computeExtents = "200-3000"

    @Option(help: "The most extents a read may leave stored per spec.")
    var maxExtents = 16

    @Flag(help: "Answer 404 for a missing or stale layout instead of computing it.")
    var noCompute = false

    @Option(help: "The largest request body in bytes.")
    var maxBodySize = 64 << 20

    @Option(help: "The most elements one answer holds; a rect or viewport with more answers 400 (split it).")
    var maxAnswerElements = 50_000

    @Option(help: "The most elements that large answers being sent hold together; past it a large answer answers 503.")
    var maxElementsInFlight = 2_000_000

    @Option(help: "Bytes of tile bodies kept to answer the same tile again (0: none).")
    var tileCacheBytes = 64 << 20

    @Option(help: "Bytes kept free beside a SQLite store, given back when deleting a spec finds the disk full (0: none).")
    var diskReserve = 64 << 20

    @Option(help: "Seconds a kept-alive connection may wait without a request before it is closed.")
    var idleTimeout = 60.0

    @Option(help: "Seconds a request's head may take from its first byte; then 408 and the connection is closed.")
    var headerTimeout = 10.0

    @Option(help: "Seconds a request's body may take from its head; then 408 and the connection is closed.")
    var bodyTimeout = 60.0

    @Option(help: "The most connections open at once; at the limit the one idle the longest is closed for a new one.")
    var maxConnections = 1024

    @Option(help: "Threads of NIO's thread pool that run the store's blocking work (reads that wait for a connection, writes); layouts computed for queries run on a second pool of 2.")
    var blockingThreads = 6

    @Flag(help: "Serve the viewer, a web page that scrolls the store's feeds, at /viewer/ (without it /viewer/ answers 404).")
    var viewer = false

    @Option(name: .customLong("cors-origin"), help: ArgumentHelp(
        "An origin whose web pages may read the answers (CORS), scheme://host[:port]; repeat it for more, or '*' for any.",
        discussion: "Without it no CORS header is sent. Preflights from allowed origins answer 204 without a token, from others 403.",
        valueName: "origin"))
    var corsOrigins: [String] = []

    @Option(help: "trace, debug, info (one line per request), notice, warning, error or critical.")
    var logLevel = "info"

    func validate() throws {
        _ = try ServerOptions.extentRange(computeExtents)
        guard maxExtents >= 1 else { throw ValidationError("--max-extents must be 1 or more, got \(maxExtents)") }
        guard maxBodySize >= 1 else { throw ValidationError("--max-body-size must be 1 or more, got \(maxBodySize)") }
        guard maxAnswerElements >= 1 else { throw ValidationError("--max-answer-elements must be 1 or more, got \(maxAnswerElements)") }
        guard maxElementsInFlight >= 1 else { throw ValidationError("--max-elements-in-flight must be 1 or more, got \(maxElementsInFlight)") }
        guard tileCacheBytes >= 0 else { throw ValidationError("--tile-cache-bytes must be 0 or more, got \(tileCacheBytes)") }
        guard diskReserve >= 0 else { throw ValidationError("--disk-reserve must be 0 or more, got \(diskReserve)") }
        _ = try serverSettings()
        guard (1...256).contains(blockingThreads) else { throw ValidationError("--blocking-threads must be from 1 to 256, got \(blockingThreads)") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535, got \(port)") }
        _ = try ServerOptions.logLevel(logLevel)
        _ = try ServerOptions.crossOriginAccess(corsOrigins)
    }

    func run() async throws {
        var logger = Logger(label: "tessera-server")
        logger.logLevel = try ServerOptions.logLevel(logLevel)
        let settings = try serverSettings()
        try await settings.withThreadPools { executor in try await serve(settings: settings, executor: executor, logger: logger) }
    }

    private func serve(settings: TesseraServerSettings, executor: ThreadPoolExecutor, logger: Logger) async throws {
        let store = try await ServerOptions.openStore(db, executor: executor) { notice in
            FileHandle.standardError.write(Data("tessera-server: \(notice)\n".utf8))
        }
        let configuration = TesseraServiceConfiguration(
            computeExtents: try ServerOptions.extentRange(computeExtents),
            maximumExtents: maxExtents,
            computesMissingLayouts: !noCompute,
            writeAccess: try tokenFile.map { .bearerToken(try ServerOptions.token(fromFile: $0)) } ?? .forbidden,
            maximumBodySize: maxBodySize,
            maximumAnswerElements: maxAnswerElements,
            maximumElementsInFlight: maxElementsInFlight,
            diskReserve: try ServerOptions.diskReserve(db: db, bytes: diskReserve),
            tileCacheBytes: tileCacheBytes,
            crossOriginAccess: try ServerOptions.crossOriginAccess(corsOrigins)
        )
        let registry = PrometheusCollectorRegistry()
        let routes = ServerRouter.routes(store: store, configuration: configuration, registry: registry)
        let router = ServerRouter.make(routes: routes, registry: registry, viewer: viewer)
        var reloads: [any Service] = []
        if case .file = try StoreLocation(parsing: db) { reloads.append(await StoreReloader(path: db, slot: routes.slot, executor: executor)) }
        let host = self.host
        let app = settings.application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "tessera-server"),
            services: reloads,
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                let shown = host.contains(":") ? "[\(host)]" : host
                // Written unbuffered: a supervisor reads the port from this line.
                FileHandle.standardOutput.write(Data("listening on http://\(shown):\(port)\n".utf8))
            },
            logger: logger
        )
        // Whether serving ended on a signal or failed, the store is closed
        // before the process exits: a SQLite store is then one file again,
        // its reserve gone too (allocated again by the next server).
        defer {
            routes.slot.current.store.close()
            _ = configuration.diskReserve?.release()
        }
        try await app.runService()
    }

    /// The settings of `--idle-timeout`, `--header-timeout`, `--body-timeout`,
    /// `--max-connections` and `--blocking-threads`.
    func serverSettings() throws -> TesseraServerSettings {
        guard maxConnections >= 1 else { throw ValidationError("--max-connections must be 1 or more, got \(maxConnections)") }
        var settings = TesseraServerSettings()
        settings.idleTimeout = try ServerOptions.timeout(idleTimeout, flag: "idle-timeout")
        settings.headerTimeout = try ServerOptions.timeout(headerTimeout, flag: "header-timeout")
        settings.bodyTimeout = try ServerOptions.timeout(bodyTimeout, flag: "body-timeout")
        settings.maximumConnections = maxConnections
        settings.blockingThreads = blockingThreads
        return settings
    }
}
