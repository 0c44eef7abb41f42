/// Runs the store's blocking work (a read that waits for a free connection,
/// a write that waits for the writer's lock, a layout computed for seconds)
/// off Swift concurrency's cooperative threads, so that async callers never
/// hold one of them up.
///
/// A store runs every such job through one executor. By default it is the
/// store's own ``StoreThreads``; an app that already runs a pool of threads
/// for blocking work hands that to the stores it opens (the `executor`
/// parameter of the backends' initializers), so that the process keeps one
/// pool of threads that may block, however many stores it opens.
public protocol BlockingExecutor: Sendable {
    /// Runs `body` on a thread where it may block, and returns its result
    /// or throws its error.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T

    /// Runs `body` as ``run(_:)`` does, below the priority of the work that
    /// answers requests where the executor can (layouts computed for a
    /// query that found none): a server keeps serving stored layouts at its
    /// pace while a new width is computed. By default the same as `run`.
    func runInBackground<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T
}

extension BlockingExecutor {
    public func runInBackground<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await run(body)
    }
}
