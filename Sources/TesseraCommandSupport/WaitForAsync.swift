import Dispatch

/// Runs `operation` to its end from synchronous code at the top of a
/// program (a command whose work a profiler records on a plain thread),
/// which waits for it. The task runs on `executor` when one is given, else
/// on Swift concurrency's pool: a caller that is itself one of the pool's
/// threads must give an executor of its own threads.
package func waitForAsync<T: Sendable>(
    on executor: (any TaskExecutor)? = nil, _ operation: @escaping @Sendable () async throws -> T
) throws -> T {
    // Written by the task before it signals, read by this thread after.
    nonisolated(unsafe) var outcome: Result<T, any Error>?
    let finished = DispatchSemaphore(value: 0)
    Task(executorPreference: executor) {
        do { outcome = .success(try await operation()) } catch { outcome = .failure(error) }
        finished.signal()
    }
    finished.wait()
    guard let outcome else { preconditionFailure("a task that signalled left no result") }
    return try outcome.get()
}
