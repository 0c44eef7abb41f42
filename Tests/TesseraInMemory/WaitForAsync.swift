import Dispatch
import TesseraStore

/// Threads for the tasks that ``waitForAsync(_:)`` waits for: never Swift
/// concurrency's pool, whose threads a waiting test may be blocking.
private let waitedTasks = StoreThreads(threads: 2, backgroundThreads: 1)

/// Runs `operation` to its end from a thread of a test's own, which waits
/// for it: for the tests that stand in for a synchronous program beside
/// the store's async callers. The libraries never wait so.
package func waitForAsync<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) throws -> T {
    // Written by the task before it signals, read by this thread after.
    nonisolated(unsafe) var outcome: Result<T, any Error>?
    let finished = DispatchSemaphore(value: 0)
    Task(executorPreference: waitedTasks) {
        do { outcome = .success(try await operation()) } catch { outcome = .failure(error) }
        finished.signal()
    }
    finished.wait()
    guard let outcome else { preconditionFailure("a task that signalled left no result") }
    return try outcome.get()
}
