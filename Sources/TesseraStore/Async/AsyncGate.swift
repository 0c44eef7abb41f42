import Dispatch
import Locking

/// Lets at most `width` tasks through at a time; the others wait, in the
/// order they came, without holding a thread. The store's writes pass one:
/// writes wait for the backend's one writer anyway, and a write waiting for
/// it on every thread of the executor would leave no thread to the reads.
/// A backend's pool of connections passes one too, from async reads and
/// from the synchronous calls that may block their thread
/// (``passBlocking(_:)``), in one order.
package final class AsyncGate: Sendable {
    private enum Waiter {
        case task(CheckedContinuation<Void, Never>)
        case thread(DispatchSemaphore)

        func resume() {
            switch self {
            case .task(let continuation): continuation.resume()
            case .thread(let semaphore): semaphore.signal()
            }
        }
    }

    private struct State {
        var inside = 0
        var waiting: [Waiter] = []
        var head = 0
    }

    private let width: Int
    private let state = Locked(State())

    package init(width: Int) {
        self.width = max(1, width)
    }

    /// Runs `body` once the gate lets this task through.
    package func pass<T>(_ body: () async throws -> T) async throws -> T {
        await enter()
        defer { leave() }
        return try await body()
    }

    /// Runs `body` once the gate lets the calling thread through, blocking
    /// it meanwhile: for synchronous callers only.
    package func passBlocking<T>(_ body: () throws -> T) rethrows -> T {
        let waiting = state.withLock { state -> DispatchSemaphore? in
            guard state.inside < width else {
                let semaphore = DispatchSemaphore(value: 0)
                state.waiting.append(.thread(semaphore))
                return semaphore
            }
            state.inside += 1
            return nil
        }
        waiting?.wait()
        defer { leave() }
        return try body()
    }

    private func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = state.withLock { state in
                guard state.inside < width else {
                    state.waiting.append(.task(continuation))
                    return false
                }
                state.inside += 1
                return true
            }
            if admitted { continuation.resume() }
        }
    }

    private func leave() {
        // The place of the one leaving goes to the first waiting, if any.
        let next = state.withLock { state -> Waiter? in
            guard state.head < state.waiting.count else {
                state.inside -= 1
                return nil
            }
            let next = state.waiting[state.head]
            state.head += 1
            if state.head == state.waiting.count {
                state.waiting.removeAll(keepingCapacity: true)
                state.head = 0
            }
            return next
        }
        next?.resume()
    }
}
