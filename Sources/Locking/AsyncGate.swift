/// Lets at most `width` tasks through at a time; the others wait, in the
/// order they came, without holding a thread. The store's writes pass one:
/// writes wait for the backend's one writer anyway, and a write waiting for
/// it on every thread of the executor would leave no thread to the reads.
/// A backend's pool of connections passes one too, and SQLite's writer.
package final class AsyncGate: Sendable {
    private struct State {
        var inside = 0
        /// Waiters in the order they came; those that yield apart.
        var waiting = FIFO<CheckedContinuation<Void, Never>>()
        var yielding = FIFO<CheckedContinuation<Void, Never>>()
    }

    private let width: Int
    private let state = Locked(State())

    package init(width: Int) {
        self.width = max(1, width)
    }

    /// Set by work done in the background for later requests (a directory
    /// loaded for the queries after the one that missed it): in every
    /// gate, it waits behind the tasks that do not yield.
    @TaskLocal package static var yields = false

    /// Runs `body` once the gate lets this task through; while `yielding`,
    /// a place given up goes to any task waiting without it first.
    package func pass<T>(yielding: Bool = AsyncGate.yields, _ body: () async throws -> T) async throws -> T {
        // A free place is taken without suspending: no continuation to make and resume.
        if !admit(orQueue: nil, yielding: yielding) { await enter(yielding: yielding) }
        defer { leave() }
        return try await body()
    }

    /// Runs `body` when a place is free now, else answers nil at once: for
    /// synchronous callers, which must not wait for async ones.
    package func passIfFree<T>(_ body: () throws -> T) rethrows -> T? {
        guard admit(orQueue: nil, yielding: false) else { return nil }
        defer { leave() }
        return try body()
    }

    private func enter(yielding: Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if admit(orQueue: continuation, yielding: yielding) { continuation.resume() }
        }
    }

    /// Takes a place when one is free; else queues `waiter`, if any, for
    /// a place given up later.
    private func admit(orQueue waiter: CheckedContinuation<Void, Never>?, yielding: Bool) -> Bool {
        state.withLock { state in
            guard state.inside < width else {
                if let waiter {
                    if yielding { state.yielding.append(waiter) } else { state.waiting.append(waiter) }
                }
                return false
            }
            state.inside += 1
            return true
        }
    }

    private func leave() {
        // The place of the one leaving goes to the first waiting, if any.
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let next = state.waiting.popFirst() ?? state.yielding.popFirst() else {
                state.inside -= 1
                return nil
            }
            return next
        }
        next?.resume()
    }
}
