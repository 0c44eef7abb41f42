import Dispatch

/// Runs `operation` to its end from synchronous code: in a task on the
/// bridge's threads (``BridgeExecutor``), never Swift concurrency's
/// cooperative ones, while the calling thread waits. The one place where a
/// synchronous caller waits for async work: the synchronous queries that
/// compute a missing layout, and a backend behind a network's synchronous
/// calls (opening it, a synchronous read).
package func waitForAsync<T>(_ operation: () async throws -> T) throws -> T {
    try withoutActuallyEscaping(operation) { operation in
        // Unchecked, and safe: the task is the only user of `pending` and
        // `outcome` until it signals, and this thread reads `outcome` only
        // after the signal, which orders the task's writes before. The task
        // lets go of `operation` before it signals: it must not outlive
        // this call.
        nonisolated(unsafe) var pending: (() async throws -> T)? = operation
        nonisolated(unsafe) var outcome: Result<T, any Error>?
        let finished = DispatchSemaphore(value: 0)
        Task(executorPreference: BridgeExecutor.shared) {
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
