import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization

/// What `tessera-server` serves its routes with, for an app that mounts
/// ``TesseraRoutes``: Swift concurrency's jobs on NIO's event loops, one log
/// line per request written without a lock, timeouts on every wait for a
/// client, a cap on open connections, and thread pools for the store's
/// blocking work (<doc:MountingTheRoutes>).
///
/// ```swift
/// TesseraServerSettings.bootstrap()              // first thing in main
/// let settings = TesseraServerSettings()
/// try await settings.withThreadPools { executor in
///     let store = try LayoutStore(path: "feeds.sqlite", executor: executor)
///     let router = Router()
///     TesseraRoutes(store: store).register(on: router.group("layouts"))
///     try await settings.application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 8080))).runService()
/// }
/// ```
public struct TesseraServerSettings: Sendable {
    /// A kept-alive connection without a request is closed after this long
    /// (`--idle-timeout`, 60 s).
    public var idleTimeout: Duration = .seconds(60)
    /// A request's head must arrive whole within this long of its first
    /// byte, else 408 and the connection is closed (`--header-timeout`, 10 s).
    public var headerTimeout: Duration = .seconds(10)
    /// A request's body must arrive whole within this long of its head, else
    /// 408 and the connection is closed (`--body-timeout`, 60 s).
    public var bodyTimeout: Duration = .seconds(60)
    /// The most connections open at once; at the limit the one idle the
    /// longest is closed for a new one (`--max-connections`, 1024).
    public var maximumConnections = 1024
    /// Threads that run the store's blocking work (`--blocking-threads`, 6).
    public var blockingThreads = 6
    /// Threads that compute layouts missing for queries, at a lower priority (2).
    public var computeThreads = 2

    public init() {}

    /// Runs Swift concurrency's jobs on NIO's event loop threads (a handler
    /// then runs on the thread that read its request, with no hop to the
    /// cooperative pool and back) and writes log lines as `tessera-server`
    /// does. Call it first in `main`, before any task starts; it does
    /// nothing the second time.
    public static func bootstrap() {
        bootstrapped.withLock { done in
            guard !done else { return }
            done = true
            LoggingSystem.bootstrap { label in ServerLogHandler(label: label) }
            NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        }
    }

    private static let bootstrapped = Mutex(false)

    /// Runs `body` with NIO thread pools for the store's blocking work (pass
    /// the executor to `LayoutStore`), shut down after it: reads and writes
    /// on one, layouts computed for queries on another, so that a long
    /// computation never takes every thread that answers.
    public func withThreadPools<T: Sendable>(_ body: (ThreadPoolExecutor) async throws -> T) async throws -> T {
        guard (1...256).contains(blockingThreads), (1...256).contains(computeThreads) else {
            throw TesseraSettingsError("blockingThreads and computeThreads must be from 1 to 256, got \(blockingThreads) and \(computeThreads)")
        }
        let threads = NIOThreadPool(numberOfThreads: blockingThreads)
        let computations = NIOThreadPool(numberOfThreads: computeThreads)
        threads.start()
        computations.start()
        let result: T
        do {
            result = try await body(ThreadPoolExecutor(threads, background: computations))
        } catch {
            try? await threads.shutdownGracefully()
            try? await computations.shutdownGracefully()
            throw error
        }
        try await threads.shutdownGracefully()
        try await computations.shutdownGracefully()
        return result
    }

    /// A Hummingbird application over `router` that serves HTTP/1 within
    /// these timeouts and connection cap (it replaces the configuration's
    /// `availableConnectionsDelegate`).
    public func application<Builder: HTTPResponderBuilder>(
        router: Builder, configuration: ApplicationConfiguration, services: [any Service] = [],
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }, logger: Logger? = nil
    ) -> some ApplicationProtocol where Builder.Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
        let connections = ConnectionRegistry(maximum: max(1, maximumConnections))
        var configuration = configuration
        configuration.availableConnectionsDelegate = connections.gate
        return Application(
            router: router, server: .guardedHTTP1(limits: connectionLimits, registry: connections), configuration: configuration,
            services: services, onServerRunning: onServerRunning, logger: logger
        )
    }

    /// The timeouts and cap as the connection watch reads them.
    var connectionLimits: ConnectionLimits {
        var limits = ConnectionLimits()
        limits.idleTimeout = Self.timeAmount(idleTimeout)
        limits.headerTimeout = Self.timeAmount(headerTimeout)
        limits.bodyTimeout = Self.timeAmount(bodyTimeout)
        limits.maximumConnections = max(1, maximumConnections)
        return limits
    }

    /// At least a nanosecond: a zero or negative timeout would close every connection at once.
    private static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !nanoseconds.overflow else { return .nanoseconds(.max) }
        return .nanoseconds(max(1, nanoseconds.partialValue + attoseconds / 1_000_000_000))
    }
}

/// Settings that cannot be served with, named.
public struct TesseraSettingsError: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
