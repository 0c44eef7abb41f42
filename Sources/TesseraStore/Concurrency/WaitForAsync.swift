import Dispatch

/// Runs `operation` to its end from synchronous code: in a task on the
/// bridge's threads (``StoreThreads/bridge``), never Swift concurrency's
/// cooperative ones, while the calling thread waits. The one place where a
/// synchronous caller waits for async work: the synchronous queries that
/// compute a missing layout, a backend behind a network's synchronous
/// calls (opening it, a synchronous read), and a synchronous caller's
/// turn at an ``AsyncGate``.
///
/// `resuming: .inPlace` runs the operation on the thread that resumes it
/// instead (see `InlineExecutor`): the calling thread until it first
/// suspends, then the thread that completes what it awaited (a network
/// client's event loop). For an operation whose every step after a
/// suspension is short and never blocks (a statement sent, its answer
/// taken): it saves the two thread switches through the bridge's threads.
package func waitForAsync<T>(resuming: BridgeResumption = .onBridgeThreads, _ operation: () async throws -> T) throws -> T {
    try withoutActuallyEscaping(operation) { operation in
        // Unchecked, and safe: the task is the only user of `pending` and
        // `outcome` until it signals, and this thread reads `outcome` only
        // after the signal, which orders the task's writes before. The task
        // lets go of `operation` before it signals: it must not outlive
        // this call.
        nonisolated(unsafe) var pending: (() async throws -> T)? = operation
        nonisolated(unsafe) var outcome: Result<T, any Error>?
        let finished = DispatchSemaphore(value: 0)
        let executor: any TaskExecutor = switch resuming {
        case .onBridgeThreads: StoreThreads.bridge
        case .inPlace: InlineExecutor.shared
        }
        Task(executorPreference: executor) {
            do {
                guard let run = pending else { preconditionFailure("an operation waited for twice") }
                pending = nil
                outcome = .success(try await run())
            } catch {
                outcome = .failure(error)
            }
            finished.signal()
        }
        finished.wait()
        guard let outcome else { preconditionFailure("a task that signalled left no result") }
        return try outcome.get()
    }
}

/// Where ``waitForAsync(resuming:_:)`` runs its operation.
package enum BridgeResumption: Sendable {
    /// On the bridge's own threads (any operation).
    case onBridgeThreads
    /// On the thread that starts or resumes it (short, non-blocking steps only).
    case inPlace
}

/// A task executor that runs each job at once on the thread that enqueues
/// it: a task preferring it starts on the thread that creates it and,
/// after each suspension, goes on on the thread that resumed it. Only for
/// the short steps of ``waitForAsync(resuming:_:)``'s `.inPlace`: a step
/// that blocked would block that thread (an event loop).
private final class InlineExecutor: TaskExecutor {
    static let shared = InlineExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        job.runSynchronously(on: asUnownedTaskExecutor())
    }
}
