/// Lets at most `width` tasks through at a time; the others wait, in the
/// order they came, without holding a thread. The store's writes pass one:
/// writes wait for the backend's one writer anyway, and a write waiting for
/// it on every thread of the executor would leave no thread to the reads.
/// A backend's pool of connections passes one too, and SQLite's writer.
package final class AsyncGate: Sendable {
    private struct State {
        var inside = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
        var head = 0
    }

    private let width: Int
    private let state = Locked(State())

    package init(width: Int) {
        self.width = max(1, width)
    }

    /// Runs `body` once the gate lets this task through.
    package func pass<T>(_ body: () async throws -> T) async throws -> T {
        // A free place is taken without suspending: no continuation to make and resume.
        if !admit(orQueue: nil) { await enter() }
        defer { leave() }
        return try await body()
    }

    /// Runs `body` when a place is free now, else answers nil at once: for
    /// synchronous callers, which must not wait for async ones.
    package func passIfFree<T>(_ body: () throws -> T) rethrows -> T? {
        guard admit(orQueue: nil) else { return nil }
        defer { leave() }
        return try body()
    }

    private func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if admit(orQueue: continuation) { continuation.resume() }
        }
    }

    /// Takes a place when one is free; else queues `waiter`, if any, for
    /// the next place given up.
    private func admit(orQueue waiter: CheckedContinuation<Void, Never>?) -> Bool {
        state.withLock { state in
            guard state.inside < width else {
                if let waiter { state.waiting.append(waiter) }
                return false
            }
            state.inside += 1
            return true
        }
    }

    private func leave() {
        // The place of the one leaving goes to the first waiting, if any.
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
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
