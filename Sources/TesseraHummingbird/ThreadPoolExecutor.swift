import NIOPosix
import TesseraStore

#if canImport(Glibc)
import Glibc
#endif

/// NIO's thread pool as a store's `BlockingExecutor` (TesseraStore): a server that
/// already runs a `NIOThreadPool` for blocking work (file I/O, say) hands
/// it to its stores, so that the process keeps one pool of threads that
/// may block.
///
/// ```swift
/// let pool = NIOThreadPool(numberOfThreads: 8)
/// pool.start()
/// let store = try LayoutStore(path: "feed.db", executor: ThreadPoolExecutor(pool))
/// ```
///
/// Background work (a layout computed for a query that found none) runs on
/// `background` when given, else on `pool` too: a pool of its own keeps
/// long computations from taking every thread that answers requests, and
/// its threads run at nice value 10 (Linux), so that computing a layout
/// yields the cores to the threads that answer.
///
/// Work whose task is cancelled before a thread takes it never runs; the
/// call throws `StoreError` with code `cancelled` (nothing was read or written).
/// A pool that is not started, or is shut down, runs nothing either: the
/// call throws `StoreError` with code `closed`.
public final class ThreadPoolExecutor: BlockingExecutor {
    public let pool: NIOThreadPool
    public let background: NIOThreadPool?

    public init(_ pool: NIOThreadPool, background: NIOThreadPool? = nil) {
        self.pool = pool
        self.background = background
    }

    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await Self.run(body, on: pool)
    }

    public func runInBackground<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        guard let background else { return try await Self.run(body, on: pool) }
        return try await Self.run({
            // The pool is for background work only: its threads may stay below the others.
            lowerCurrentThreadPriority(to: 10)
            return try body()
        }, on: background)
    }

    /// Runs `work` on one of `pool`'s threads; when the pool is not
    /// running, NIO calls it anyway (cancelled), and it runs then.
    public func submit(_ work: @escaping @Sendable () -> Void) {
        pool.submit { _ in work() }
    }

    private static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T, on pool: NIOThreadPool) async throws -> T {
        do {
            return try await pool.runIfActive(body)
        } catch is CancellationError {
            // NIO answers both a cancelled task and a pool that is not running so.
            if Task.isCancelled {
                throw StoreError(.cancelled, "the request was cancelled before a thread took its work; nothing was read or written")
            }
            throw StoreError(.closed, "the thread pool the store runs its blocking work on is not running")
        }
    }
}

/// Runs the calling thread at nice value `niceness` (above 0: below the
/// process's other threads), where the system gives each thread its own
/// (Linux); elsewhere does nothing.
private func lowerCurrentThreadPriority(to niceness: Int32) {
    #if os(Linux)
    // On Linux the nice value is a thread's own, and 0 names the calling thread.
    _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
    #endif
}
