import Foundation
import Locking

/// Runs `operation`, async, for a synchronous caller, and blocks the
/// calling thread until it is done: the one bridge from the store's async
/// operations to the synchronous calls of the command line.
///
/// The operation's task prefers threads of the bridge's own
/// (``BridgeExecutor``), not Swift concurrency's cooperative ones: a
/// caller that blocks one of those (a synchronous test, say) cannot starve
/// the task it waits for.
package func blocking<T: Sendable>(_ operation: sending @escaping () async throws -> T) throws -> T {
    let outcome = Outcome<T>()
    Task(executorPreference: BridgeExecutor.shared) {
        do {
            outcome.finish(.success(try await operation()))
        } catch {
            outcome.finish(.failure(error))
        }
    }
    return try outcome.wait()
}

/// The result of a ``blocking(_:)`` operation, waited for.
private final class Outcome<T: Sendable>: Sendable {
    private let result = Locked<Result<T, any Error>?>(nil)
    private let done = NSCondition()

    func finish(_ result: Result<T, any Error>) {
        done.lock()
        self.result.withLock { $0 = result }
        done.signal()
        done.unlock()
    }

    func wait() throws -> T {
        done.lock()
        defer { done.unlock() }
        while true {
            if let result = result.withLock({ $0 }) { return try result.get() }
            done.wait()
        }
    }
}

/// The threads the tasks of ``blocking(_:)`` run on: their async steps are
/// short (the blocking work goes to a store's executor), so two threads.
final class BridgeExecutor: TaskExecutor {
    static let shared = BridgeExecutor()

    private let lane = ThreadLane(name: "tessera bridge", threads: 2, niceness: 0)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        lane.submit { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
}
