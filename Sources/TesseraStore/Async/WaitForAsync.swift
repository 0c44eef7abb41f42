import Dispatch
import Locking

/// Runs `operation` to its end from synchronous code: in a task on the
/// bridge's threads (``BridgeExecutor``), never Swift concurrency's
/// cooperative ones, while the calling thread waits. The one place where a
/// synchronous caller waits for async work: the synchronous queries that
/// compute a missing layout, the synchronous batch, and a backend's
/// synchronous calls over a network.
package func waitForAsync<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) throws -> T {
    let finished = DispatchSemaphore(value: 0)
    let outcome = Locked<Result<T, any Error>?>(nil)
    Task(executorPreference: BridgeExecutor.shared) {
        let result: Result<T, any Error>
        do {
            result = .success(try await operation())
        } catch {
            result = .failure(error)
        }
        outcome.withLock { $0 = result }
        finished.signal()
    }
    finished.wait()
    guard let result = outcome.withLock({ $0 }) else { preconditionFailure("a task that signalled left no result") }
    return try result.get()
}
