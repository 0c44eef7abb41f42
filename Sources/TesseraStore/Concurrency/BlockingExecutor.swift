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
///
/// It is also a `TaskExecutor`: a task that prefers it
/// (`withTaskExecutorPreference`) runs its synchronous parts on the
/// executor's threads, where they may block (a file-backed backend's
/// writes), and awaits without holding one. Its jobs go through
/// ``submit(_:)``.
public protocol BlockingExecutor: TaskExecutor {
    /// Runs `body` on a thread where it may block, and returns its result
    /// or throws its error.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T

    /// Runs `body` as ``run(_:)`` does, below the priority of the work that
    /// answers requests where the executor can (layouts computed for a
    /// query that found none): a server keeps serving stored layouts at its
    /// pace while a new width is computed. By default the same as `run`.
    func runInBackground<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T

    /// Runs `work` on one of the executor's threads, later, and returns at
    /// once: how the store runs the parts of async work that may block (a
    /// write's body over a file-backed backend) on the executor's threads,
    /// as the task executor of that work. `work` must run even when the
    /// executor is shutting down, or the task it belongs to never ends. By
    /// default through ``run(_:)`` from a task of its own.
    func submit(_ work: @escaping @Sendable () -> Void)
}

extension BlockingExecutor {
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        submit { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }

    public func submit(_ work: @escaping @Sendable () -> Void) {
        Task.detached {
            do {
                try await self.run(work)
            } catch {
                // The executor refused it (shut down): it runs here instead.
                work()
            }
        }
    }

    public func runInBackground<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await run(body)
    }
}
