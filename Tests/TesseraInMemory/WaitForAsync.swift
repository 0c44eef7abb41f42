import TesseraCommandSupport
import TesseraStore

/// Threads for the tasks that ``waitForAsync(_:)`` waits for: never Swift
/// concurrency's pool, whose threads a waiting test may be blocking.
private let waitedTasks = StoreThreads(threads: 2, backgroundThreads: 1)

/// Runs `operation` to its end from a thread of a test's own, which waits
/// for it: for the tests that stand in for a synchronous program beside
/// the store's async callers.
package func waitForAsync<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) throws -> T {
    try TesseraCommandSupport.waitForAsync(on: waitedTasks, operation)
}
