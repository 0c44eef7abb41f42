import Dispatch
import Locking

/// The store's own threads for blocking work: its ``BlockingExecutor``
/// unless it is given another. Up to a limit of jobs run at once, each on
/// a thread of Dispatch's pool that may block (one serial queue per job
/// slot, never Swift concurrency's cooperative threads); the pool ends a
/// thread after a few idle seconds, so a store no longer used holds none.
///
/// Background work (``runInBackground(_:)``) runs on queues of its own of
/// the background quality of service, whose threads run at a lower
/// priority (nice 10 on Linux, where each thread has its own nice value),
/// so that computing a layout yields the cores to the threads that answer
/// queries.
public final class StoreThreads: BlockingExecutor {
    private let foreground: Queues
    private let background: Queues

    /// Up to `threads` jobs at once for reads and writes that block, and up
    /// to `backgroundThreads` for background work.
    public init(threads: Int = 6, backgroundThreads: Int = 2) {
        foreground = Queues(label: "tessera store", width: threads, qos: .default)
        background = Queues(label: "tessera computations", width: backgroundThreads, qos: .background)
    }

    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await foreground.run(body)
    }

    public func runInBackground<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await background.run(body)
    }

    public func submit(_ work: @escaping @Sendable () -> Void) {
        foreground.submit {
            work()
            return {}
        }
    }
}

/// Jobs in one FIFO, run by at most `width` serial Dispatch queues at once:
/// a queue drains jobs while there are any, then goes idle; Dispatch gives
/// each draining queue a thread of its pool.
private final class Queues: Sendable {
    /// A job runs its work and returns what finishes it (resuming the waiting
    /// task), released with what it captured before that (Architecture.md,
    /// "Concurrency"): a store released by its last user closes then.
    typealias Job = @Sendable () -> @Sendable () -> Void

    private struct State {
        var jobs = FIFO<Job>()
        /// Indices of the queues not draining.
        var idle: [Int]
    }

    private let queues: [DispatchQueue]
    private let state: Locked<State>

    init(label: String, width: Int, qos: DispatchQoS) {
        let queues = (0..<max(1, width)).map { DispatchQueue(label: "\(label) \($0)", qos: qos) }
        self.queues = queues
        state = Locked(State(idle: Array(queues.indices.reversed())))
    }

    /// Runs `body` on one of the queues and returns its result.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            submit {
                let result = Result { try body() }
                return { continuation.resume(with: result) }
            }
        }
    }

    /// Runs `job` on one of the queues, later, then what it returns once
    /// `job` is released; returns at once.
    func submit(_ job: @escaping Job) {
        let starting = state.withLock { state -> Int? in
            state.jobs.append(job)
            return state.idle.popLast()
        }
        guard let starting else { return }
        queues[starting].async { while let finish = self.runNext(starting) { finish() } }
    }

    /// Runs the next job, if any, and returns what finishes it, the job
    /// itself released; nil when there is none (the queue is idle then).
    private func runNext(_ index: Int) -> (@Sendable () -> Void)? {
        let job = state.withLock { state -> Job? in
            if let job = state.jobs.popFirst() { return job }
            state.idle.append(index)
            return nil
        }
        return job?()
    }
}
